/**
 * The embedded payment provider: hosted checkout sessions kept in this app's database, a
 * payment page served by this app (/pay/:sessionId, embedded-routes.ts), and Stripe-format
 * events signed with Stripe's scheme and delivered to /api/webhooks/stripe with retries.
 *
 * It behaves as Stripe's test mode does: the card 4242 4242 4242 4242 pays, 4000 0000 0000 0002
 * is declined, a session left open expires, and a refund is announced as charge.refunded. Every
 * outcome is written with its event in one transaction; events are then delivered, and an event
 * whose delivery failed (or was cut short by a restart) is retried with exponential backoff.
 *
 * Subscriptions (Stripe Billing's stand-in: subscription-mode sessions on the same page,
 * renewals on the app's clock, failed-payment retries, the manage page) are embedded-billing.ts,
 * reached through this class.
 */
import type { Kysely, Transaction } from 'kysely';
import Stripe from 'stripe';
import type { DB } from '../../platform/db/schema.ts';
import { EmbeddedBilling } from './embedded-billing.ts';
import type {
  CheckoutSession,
  CheckoutSessionRequest,
  PaymentEvent,
  PaymentProvider,
  SubscriptionCheckoutRequest,
  SubscriptionSessionInfo,
  SucceededPayment,
} from './provider.ts';
import { CARD_MESSAGES, checkCard, checkEmail, randomId } from './cards.ts';
import { signWebhookBody, verifyWebhookBody } from './signature.ts';
import {
  claimDueEvents,
  completeSession,
  countDecline,
  dueSessionIds,
  expireSession,
  findSession,
  insertEvent,
  insertSession,
  lockSession,
  markDelivered,
  markRefunded,
  paidSessionsSince,
  scheduleRetry,
  type SessionRow,
  type ShippingDetails,
} from './repository.ts';

export type { SessionRow, ShippingDetails } from './repository.ts';
export { CARD_MESSAGES, CHARGE_FAILS_CARD, checkCard, checkEmail, DECLINED_CARD, randomId, TEST_CARD } from './cards.ts';

/** How long a hosted session stays open (Stripe's shortest). */
export const SESSION_TTL_MS = 30 * 60 * 1000;
/** Longest wait between two delivery attempts of an event. */
const MAX_BACKOFF_MS = 60 * 60 * 1000;
/** A claimed delivery that never reports back is tried again after this long. */
const CLAIM_MS = 60_000;

/** Sends a signed event body to the webhook endpoint and answers its status. */
export type EventDelivery = (body: string, signature: string) => Promise<{ statusCode: number; body: string }>;

export interface EmbeddedPaymentsOptions {
  deliver?: EventDelivery;
  sessionTtlMs?: number;
  /** The clock subscriptions run on (the app's, which TEST_CLOCK lets an admin move); the system's by default. */
  now?: () => Date;
  log?: (message: string, err?: unknown) => void;
}

export interface CardInput {
  email: string;
  cardNumber: string;
  expiry: string;
  cvc: string;
  /** Where the order goes, as the page asks for it (the country is the quoted one, not asked). */
  shipping: ShippingInput;
}

export interface ShippingInput {
  name: string;
  line1: string;
  line2: string;
  city: string;
  /** State, province or region: required where the print shops need one (US, CA, AU). */
  state: string;
  postalCode: string;
}

/** Countries whose addresses need a state or province, as Stripe Checkout asks for them. */
export const STATE_REQUIRED = new Set(['US', 'CA', 'AU']);
/** The longest an address field may be (the page's inputs say so too). */
export const ADDRESS_FIELD_MAX = 200;

export type PayOutcome =
  | { kind: 'paid'; session: SessionRow; eventId: string }
  | { kind: 'already_paid'; session: SessionRow }
  | { kind: 'expired'; session: SessionRow; eventId?: string }
  | { kind: 'declined'; session: SessionRow; message: string }
  | { kind: 'invalid'; session: SessionRow; message: string }
  | { kind: 'not_found' };

/**
 * The shipping address from the form, in Stripe's shape, for the quoted `country`; or the
 * refusal when a required part is missing or too long.
 */
export function checkShipping(input: ShippingInput, country: string): ShippingDetails | { status: 400; message: string } {
  const clean = (v: string) => v.replace(/\s+/g, ' ').trim();
  const f = { name: clean(input.name), line1: clean(input.line1), line2: clean(input.line2), city: clean(input.city), state: clean(input.state), postalCode: clean(input.postalCode) };
  const missing = !f.name || !f.line1 || !f.city || !f.postalCode || (STATE_REQUIRED.has(country) && !f.state);
  if (missing || Object.values(f).some((v) => v.length > ADDRESS_FIELD_MAX)) return { status: 400, message: CARD_MESSAGES.address };
  return {
    name: f.name,
    address: { line1: f.line1, line2: f.line2 || null, city: f.city, state: f.state || null, postal_code: f.postalCode, country },
  };
}

const unix = (d: Date) => Math.floor(d.getTime() / 1000);

export class EmbeddedPayments implements PaymentProvider {
  readonly kind = 'embedded' as const;
  #deliver: EventDelivery | null;
  readonly #ttlMs: number;
  readonly #log: (message: string, err?: unknown) => void;
  readonly #now: () => Date;
  #timer: NodeJS.Timeout | null = null;
  #tick: Promise<void> | null = null;
  /** Subscriptions: their checkout, clock and manage page (embedded-billing.ts). */
  readonly billing: EmbeddedBilling;

  constructor(
    readonly db: Kysely<DB>,
    /** whsec_... : signs the events this provider sends. */
    readonly webhookSecret: string,
    readonly publicUrl: string,
    options: EmbeddedPaymentsOptions = {},
  ) {
    this.#deliver = options.deliver ?? null;
    this.#ttlMs = options.sessionTtlMs ?? SESSION_TTL_MS;
    this.#log = options.log ?? (() => {});
    this.#now = options.now ?? (() => new Date());
    this.billing = new EmbeddedBilling({
      db,
      publicUrl,
      now: () => this.#now(),
      sessionTtlMs: this.#ttlMs,
      record: (trx, type, object, created, previous) => this.#recordEvent(trx, type, object, created, previous),
      deliver: (eventId) => this.deliverEvent(eventId),
    });
  }

  /** Where events go (the app's own webhook route); set once the app exists. */
  setDelivery(deliver: EventDelivery): void {
    this.#deliver = deliver;
  }

  /** One session per order: asking again for the same order answers the session it already has. */
  async createCheckoutSession(request: CheckoutSessionRequest): Promise<CheckoutSession> {
    const id = randomId('cs_test_', 40);
    const fill = (url: string) => url.replaceAll('{CHECKOUT_SESSION_ID}', id);
    const sessionId = await insertSession(this.db, {
      id,
      order_id: request.orderId,
      amount_total: request.totalCents,
      line_items: JSON.stringify(
        request.lineItems.map((l) => ({
          name: l.name,
          unit_amount: l.unitAmountCents,
          quantity: l.quantity,
          amount_total: l.unitAmountCents * l.quantity,
          image: l.imageUrl,
        })),
      ),
      metadata: JSON.stringify({
        order_id: request.orderId,
        shipping_cents: String(request.shippingCents),
        shipping_label: request.shippingLabel,
        shipping_country: request.shippingCountry,
        ...(request.shippingZip ? { shipping_zip: request.shippingZip } : {}),
      }),
      customer_email: request.customerEmail,
      success_url: fill(request.successUrl),
      cancel_url: fill(request.cancelUrl),
      expires_at: new Date(Date.now() + this.#ttlMs),
    });
    return { sessionId, url: `${this.publicUrl}/pay/${sessionId}` };
  }

  /** A subscription-mode session on the same hosted page; the same idempotency key answers the same session. */
  createSubscriptionCheckout(request: SubscriptionCheckoutRequest): Promise<CheckoutSession> {
    return this.billing.createSubscriptionCheckout(request);
  }

  retrieveSubscriptionSession(sessionId: string): Promise<SubscriptionSessionInfo | null> {
    return this.billing.retrieveSubscriptionSession(sessionId);
  }

  retrieveSubscription(subscriptionId: string): Promise<Stripe.Subscription | null> {
    return this.billing.retrieveSubscription(subscriptionId);
  }

  /** A capability link to the provider's own manage page (/pay/manage/{token}). */
  manageSubscriptionUrl(customerId: string, returnUrl: string): Promise<string> {
    return this.billing.manageSubscriptionUrl(customerId, returnUrl);
  }

  /** Runs the subscriptions up to `now` (the provider's clock by default): renewals, retries, ends. */
  tick(now: Date = this.#now()): Promise<number> {
    return this.billing.tick(now);
  }

  verifyWebhook(rawBody: Buffer, signatureHeader: string | undefined): PaymentEvent {
    return verifyWebhookBody(rawBody, signatureHeader, this.webhookSecret);
  }

  findSession(sessionId: string): Promise<SessionRow | null> {
    return findSession(this.db, sessionId);
  }

  #sessionObject(s: SessionRow, overrides: Partial<Record<string, unknown>> = {}): Record<string, unknown> {
    return {
      id: s.id,
      object: 'checkout.session',
      mode: 'payment',
      livemode: false,
      payment_status: s.payment_status,
      status: s.status,
      amount_subtotal: s.amount_total - Number(s.metadata.shipping_cents ?? 0),
      amount_total: s.amount_total,
      currency: s.currency,
      metadata: { order_id: s.order_id },
      client_reference_id: s.order_id,
      payment_intent: s.payment_intent_id,
      customer_email: s.customer_email,
      customer_details: s.customer_email ? { email: s.customer_email } : null,
      // Where Stripe's current API versions put the address Checkout collected.
      collected_information: s.shipping_details ? { shipping_details: s.shipping_details } : null,
      success_url: s.success_url,
      cancel_url: s.cancel_url,
      created: unix(s.created_at),
      expires_at: unix(s.expires_at),
      ...overrides,
    };
  }

  /** Writes an event in Stripe's shape, in the caller's transaction, for delivery after it commits. */
  async #recordEvent(
    trx: Transaction<DB>,
    type: string,
    object: Record<string, unknown>,
    created: number = unix(new Date()),
    previousAttributes?: Record<string, unknown>,
  ): Promise<string> {
    const id = randomId('evt_test_', 32);
    const event = {
      id,
      object: 'event',
      api_version: Stripe.API_VERSION,
      created,
      type,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: previousAttributes ? { object, previous_attributes: previousAttributes } : { object },
    };
    await insertEvent(trx, { id, type, payload: JSON.stringify(event) });
    return id;
  }

  async #expireInTrx(trx: Transaction<DB>, s: SessionRow): Promise<{ session: SessionRow; eventId?: string }> {
    const expired = await expireSession(trx, s.id);
    if (!expired) return { session: s };
    return { session: expired, eventId: await this.#recordEvent(trx, 'checkout.session.expired', this.#sessionObject(expired)) };
  }

  /**
   * Takes the payment page's form. A good test card completes the session and records
   * checkout.session.completed in the same transaction, then delivers it; a declined or
   * mistyped card changes nothing but the count of declines.
   */
  async pay(sessionId: string, input: CardInput): Promise<PayOutcome> {
    const emailRefusal = checkEmail(input.email);
    const cardRefusal = checkCard(input);
    const outcome = await this.db.transaction().execute(async (trx): Promise<PayOutcome> => {
      const s = await lockSession(trx, { id: sessionId });
      if (!s) return { kind: 'not_found' };
      if (s.status === 'complete') return { kind: 'already_paid', session: s };
      if (s.status === 'expired') return { kind: 'expired', session: s };
      if (s.expires_at.getTime() <= Date.now()) return { kind: 'expired', ...(await this.#expireInTrx(trx, s)) };
      // In the page's order: email, address, card. A bad address charges nothing.
      const shipping = checkShipping(input.shipping, s.metadata.shipping_country ?? '');
      const refusal = emailRefusal ?? ('status' in shipping ? shipping : cardRefusal);
      if (refusal?.status === 400) return { kind: 'invalid', session: s, message: refusal.message };
      if (refusal) {
        await countDecline(trx, s.id);
        return { kind: 'declined', session: s, message: refusal.message };
      }
      const paid = await completeSession(trx, s.id, { paymentIntentId: randomId('pi_test_', 24), email: input.email.trim(), shipping: shipping as ShippingDetails });
      const eventId = await this.#recordEvent(trx, 'checkout.session.completed', this.#sessionObject(paid));
      return { kind: 'paid', session: paid, eventId };
    });
    if (outcome.kind === 'paid') await this.deliverEvent(outcome.eventId);
    else if (outcome.kind === 'expired' && outcome.eventId) await this.deliverEvent(outcome.eventId);
    return outcome;
  }

  /** Expires the open sessions (both modes) whose time is up, each with its checkout.session.expired event. */
  async expireDue(): Promise<number> {
    let expired = await this.billing.expireDue();
    for (const id of await dueSessionIds(this.db, 'embedded_payment_sessions', 100)) {
      const eventId = await this.db.transaction().execute(async (trx) => {
        const s = await lockSession(trx, { id });
        if (!s || s.status !== 'open') return null;
        return (await this.#expireInTrx(trx, s)).eventId ?? null;
      });
      if (eventId) {
        expired++;
        await this.deliverEvent(eventId);
      }
    }
    return expired;
  }

  async succeededPayments(since: Date): Promise<SucceededPayment[]> {
    return (await paidSessionsSince(this.db, since)).map((s) => ({
      sessionId: s.id,
      paymentIntentId: s.payment_intent_id,
      orderId: s.order_id,
      amountCents: Number(s.amount_total),
      currency: s.currency,
      refunded: s.payment_status === 'refunded',
    }));
  }

  /** Refunds a paid session in full and announces it as charge.refunded; a second refund does nothing. */
  async refund(paymentIntentId: string): Promise<void> {
    const refunded = await this.db.transaction().execute(async (trx) => {
      const s = await lockSession(trx, { paymentIntentId });
      if (!s) throw new Error(`No such payment_intent: '${paymentIntentId}'`);
      if (s.payment_status === 'refunded') return null;
      if (s.payment_status !== 'paid') throw new Error(`PaymentIntent ${paymentIntentId} has not been paid`);
      await markRefunded(trx, s.id);
      return this.#recordEvent(trx, 'charge.refunded', {
        id: randomId('ch_test_', 24),
        object: 'charge',
        livemode: false,
        amount: s.amount_total,
        amount_captured: s.amount_total,
        amount_refunded: s.amount_total,
        currency: s.currency,
        captured: true,
        paid: true,
        refunded: true,
        status: 'succeeded',
        payment_intent: paymentIntentId,
        metadata: { order_id: s.order_id },
        billing_details: { email: s.customer_email },
        created: unix(new Date()),
      });
    });
    if (refunded) await this.deliverEvent(refunded);
  }

  /**
   * Delivers the events that are due: each is claimed (so two processes never send it at the
   * same moment), signed afresh and POSTed; a 2xx marks it delivered, anything else schedules
   * the next attempt with exponential backoff. Answers how many were delivered.
   */
  async deliverDue(limit = 50): Promise<number> {
    return this.#deliverClaimed(null, limit);
  }

  /** Delivers one event now, if it is still undelivered and no one else holds it. */
  async deliverEvent(eventId: string): Promise<boolean> {
    return (await this.#deliverClaimed(eventId, 1)) === 1;
  }

  async #deliverClaimed(onlyId: string | null, limit: number): Promise<number> {
    if (!this.#deliver) return 0;
    const claimed = await claimDueEvents(this.db, onlyId, limit, CLAIM_MS);
    // Oldest first, as Stripe does not promise but usually does.
    const events = claimed.sort((a, b) => Number(a.payload.created ?? 0) - Number(b.payload.created ?? 0));
    let delivered = 0;
    for (const e of events) {
      const body = JSON.stringify(typeof e.payload === 'string' ? JSON.parse(e.payload) : e.payload);
      let error: string | null = null;
      try {
        const res = await this.#deliver(body, signWebhookBody(body, this.webhookSecret));
        if (res.statusCode < 200 || res.statusCode >= 300) error = `HTTP ${res.statusCode}: ${res.body.slice(0, 300)}`;
      } catch (err) {
        error = err instanceof Error ? err.message : String(err);
      }
      if (error === null) {
        delivered++;
        await markDelivered(this.db, e.id, e.attempts + 1);
      } else {
        const waitMs = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(e.attempts + 1, 20));
        this.#log(`payment event ${e.id} not delivered (attempt ${e.attempts + 1}); next in ${waitMs} ms: ${error}`);
        await scheduleRetry(this.db, e.id, e.attempts + 1, error.slice(0, 1000), waitMs);
      }
    }
    return delivered;
  }

  /** Expiry sweep, the subscriptions' clock and event delivery, every intervalMs while the app serves. */
  start(intervalMs: number): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => {
      if (this.#tick) return;
      this.#tick = (async () => {
        try {
          await this.expireDue();
          await this.tick();
          await this.deliverDue();
        } catch (err) {
          this.#log('embedded payments background work failed', err);
        } finally {
          this.#tick = null;
        }
      })();
    }, intervalMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#tick;
  }
}
