/**
 * For the subscription tests: a payment provider whose subscription side is a fake the test
 * drives (sessions opened, completed or expired, and the subscriptions it reports), the rest the
 * app's own; signed-in users; and Stripe-format subscription events.
 */
import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type Stripe from 'stripe';
import type { PaymentProvider } from '../integrations/stripe/index.ts';
import type { SubscriptionCheckoutRequest, SubscriptionSessionInfo } from '../integrations/stripe/provider.ts';
import { createUser } from '../modules/accounts/index.ts';
import { createSession, SESSION_COOKIE } from '../platform/sessions/sessions.ts';
import { ORIGIN } from './browser.ts';
import type { TestApp } from './harness.ts';
import { subscriptionObject, type SubscriptionSpec } from './stripe-subscription-object.ts';
import type { StripeLikeEvent } from './webhook-support.ts';

export { subscriptionObject, type SubscriptionSpec };

export const hex = (n = 8) => randomBytes(n).toString('hex');

export interface Person {
  id: string;
  email: string;
  username: string;
  cookies: Record<string, string>;
}

export async function person(t: TestApp, role: 'creator' | 'customer' = 'creator', label = 'sub'): Promise<Person> {
  const email = `${label}-${hex(4)}@example.com`;
  const user = await createUser(t.db, { email, displayName: `Person ${label}`, role, emailVerified: true });
  const { token } = await createSession(t.db, user.id, 1, {});
  return { id: user.id, email, username: user.username, cookies: { [SESSION_COOKIE]: token } };
}

/** A request as the person (or signed out), with this site's Origin on writes. */
export function send(t: TestApp, as: Person | null, req: { method?: 'GET' | 'POST'; url: string; payload?: unknown }): Promise<LightMyRequestResponse> {
  const method = req.method ?? 'GET';
  return t.app.inject({
    method,
    url: req.url,
    ...(req.payload !== undefined ? { payload: req.payload as Record<string, unknown> } : {}),
    headers: method === 'GET' ? {} : { origin: ORIGIN },
    ...(as ? { cookies: as.cookies } : {}),
  });
}

export interface FakeSubscriptions {
  provider: PaymentProvider;
  sessions: Map<string, SubscriptionSessionInfo>;
  subscriptions: Map<string, Record<string, unknown>>;
  checkouts: SubscriptionCheckoutRequest[];
  manages: Array<{ customerId: string; returnUrl: string }>;
  /** Every call fails (the provider is down). */
  failing: boolean;
  /** Marks the session complete, with the subscription it made (and that the provider reports). */
  complete(sessionId: string, subscription: SubscriptionSpec): void;
}

/** The app's provider with its subscription calls replaced by a fake the test drives. */
export function fakeSubscriptions(real: PaymentProvider): FakeSubscriptions {
  const fake: FakeSubscriptions = {
    sessions: new Map(),
    subscriptions: new Map(),
    checkouts: [],
    manages: [],
    failing: false,
    complete(sessionId, subscription) {
      const s = fake.sessions.get(sessionId);
      if (!s) throw new Error(`no session ${sessionId}`);
      fake.sessions.set(sessionId, { ...s, status: 'complete', subscriptionId: subscription.id, customerId: subscription.customer });
      fake.subscriptions.set(subscription.id, subscriptionObject(subscription));
    },
    provider: undefined as unknown as PaymentProvider,
  };
  const down = () => {
    if (fake.failing) throw new Error('provider down');
  };
  fake.provider = {
    kind: 'embedded',
    createCheckoutSession: (r) => real.createCheckoutSession(r),
    verifyWebhook: (raw, sig) => real.verifyWebhook(raw, sig),
    refund: (id) => real.refund(id),
    succeededPayments: (since) => real.succeededPayments(since),
    createSubscriptionCheckout: async (r) => {
      down();
      fake.checkouts.push(r);
      const sessionId = `cs_test_sub${hex(10)}`;
      fake.sessions.set(sessionId, { sessionId, status: 'open', userId: r.userId, subscriptionId: null, customerId: r.customerId });
      return { sessionId, url: `https://checkout.stripe.test/c/pay/${sessionId}` };
    },
    retrieveSubscriptionSession: async (id) => {
      down();
      return fake.sessions.get(id) ?? null;
    },
    retrieveSubscription: async (id) => {
      down();
      return (fake.subscriptions.get(id) ?? null) as Stripe.Subscription | null;
    },
    manageSubscriptionUrl: async (customerId, returnUrl) => {
      down();
      fake.manages.push({ customerId, returnUrl });
      return `https://billing.stripe.test/p/session/${customerId}`;
    },
  };
  return fake;
}

/** Puts the fake in place of app.payments for the rest of the file; answers a function that puts the real one back. */
export function useFake(t: TestApp, fake: FakeSubscriptions): () => void {
  const real = t.app.payments;
  (t.app as { payments: PaymentProvider }).payments = fake.provider;
  return () => {
    (t.app as { payments: PaymentProvider }).payments = real;
  };
}

let seq = 0;

export function subEvent(type: string, created: number, object: Record<string, unknown>, id = `evt_test_${hex(6)}_${String(++seq).padStart(4, '0')}`): StripeLikeEvent {
  return { id, object: 'event', type, created, livemode: false, api_version: '2025-01-27.acacia', data: { object } };
}

/** checkout.session.completed in subscription mode, with the subscription's id only (a trial: no payment required). */
export function subscriptionCheckoutCompleted(created: number, o: { sessionId: string; userId: string; subscriptionId: string; customer: string }): StripeLikeEvent {
  return subEvent('checkout.session.completed', created, {
    id: o.sessionId,
    object: 'checkout.session',
    mode: 'subscription',
    status: 'complete',
    payment_status: 'no_payment_required',
    client_reference_id: o.userId,
    metadata: { user_id: o.userId },
    customer: o.customer,
    subscription: o.subscriptionId,
  });
}

/** invoice.paid / invoice.payment_failed for a renewal of the subscription's period. */
export function renewalInvoice(type: 'invoice.paid' | 'invoice.payment_failed', created: number, o: { subscriptionId: string; customer: string; start: number; end: number }): StripeLikeEvent {
  return subEvent(type, created, {
    id: `in_test_${hex(6)}`,
    object: 'invoice',
    customer: o.customer,
    subscription: o.subscriptionId,
    billing_reason: 'subscription_cycle',
    amount_paid: type === 'invoice.paid' ? 999 : 0,
    lines: { object: 'list', data: [{ type: 'subscription', proration: false, period: { start: o.start, end: o.end } }] },
  });
}
