/**
 * The embedded provider's subscriptions (embedded-billing.ts), driven directly and through the
 * hosted page: a subscription-mode session on /pay/{cs_...}; subscribing with 4242 sends
 * checkout.session.completed, customer.subscription.created and invoice.paid, in order, signed,
 * to /api/webhooks/stripe; the clock renews at the trial's end; 4000 0000 0000 0341 goes
 * past_due, is retried after 1, 3 and 5 days, then deleted; the manage page cancels at the
 * period's end (then deleted), undoes it and changes the card; nothing happens twice.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SUBSCRIPTION_TIERS } from '../../../shared/subscriptions.ts';
import { CHECKOUT_ORIGIN as ORIGIN, makeCreator } from '../../test/checkout-support.ts';
import { testApp, testConfig, type TestApp } from '../../test/harness.ts';
import { RETRY_DAYS, addMonths } from './embedded-billing.ts';
import type { EmbeddedPayments } from './embedded.ts';
import { verifyWebhookBody } from './signature.ts';

const DAY = 24 * 60 * 60 * 1000;
const pro = SUBSCRIPTION_TIERS.pro;

let t: TestApp;
let embedded: EmbeddedPayments;
interface Delivery {
  id: string;
  type: string;
  created: number;
  body: string;
  signature: string;
  status: number;
}
let deliveries: Delivery[] = [];

beforeAll(async () => {
  t = await testApp({ config: await testConfig({ PUBLIC_URL: ORIGIN, TEST_CLOCK: 'true' }) });
  embedded = t.app.embeddedPayments;
});
afterAll(async () => t?.close());
beforeEach(() => {
  deliveries = [];
  // Record what is delivered, and still deliver it to the real webhook route.
  embedded.setDelivery(async (body, signature) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/webhooks/stripe', payload: body, headers: { 'content-type': 'application/json', 'stripe-signature': signature } });
    const e = JSON.parse(body) as { id: string; type: string; created: number };
    deliveries.push({ id: e.id, type: e.type, created: e.created, body, signature, status: res.statusCode });
    return { statusCode: res.statusCode, body: res.body };
  });
});

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function open(key: string, opts: { customerId?: string | null; email?: string | null; userId?: string } = {}) {
  const userId = opts.userId ?? (await makeCreator(t.db));
  const session = await embedded.createSubscriptionCheckout({
    userId,
    customerEmail: opts.email === undefined ? 'sub@example.com' : opts.email,
    customerId: opts.customerId ?? null,
    productName: `FrameMerch ${pro.name}`,
    monthlyPriceCents: pro.monthlyPriceCents,
    trialDays: pro.trialDays,
    successUrl: `${ORIGIN}/subscription-success?session_id={CHECKOUT_SESSION_ID}`,
    cancelUrl: `${ORIGIN}/pricing`,
    idempotencyKey: key,
  });
  return { ...session, userId, path: new URL(session.url).pathname };
}

const form = (path: string, fields: Record<string, string>, headers: Record<string, string> = { origin: ORIGIN }) =>
  t.app.inject({ method: 'POST', url: path, payload: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } });

const card = (number: string, extra: Record<string, string> = {}) => ({ email: 'sub@example.com', card_number: number, expiry: '12 / 34', cvc: '123', ...extra });

/** Subscribes through the page; answers the session's subscription and customer. */
async function subscribe(key: string, number = '4242 4242 4242 4242') {
  const o = await open(key);
  const res = await form(o.path, card(number));
  expect(res.statusCode, res.body).toBe(303);
  const info = (await embedded.retrieveSubscriptionSession(o.sessionId))!;
  return { ...o, subscriptionId: info.subscriptionId!, customerId: info.customerId! };
}

/** The events stored about these ids (a session, subscription or customer), oldest first. */
async function eventsAbout(...ids: string[]) {
  const rows = await t.db.selectFrom('embedded_payment_events').selectAll().execute();
  return rows
    .filter((e) => {
      const o = (e.payload as Obj).data.object as Obj;
      return ids.includes(o.id) || ids.includes(o.subscription) || ids.includes(o.customer);
    })
    .map((e) => ({ ...e, payload: e.payload as Obj }))
    .sort((a, b) => a.payload.created - b.payload.created);
}

const subRow = (id: string) => t.db.selectFrom('embedded_subscriptions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const unix = (d: Date) => Math.floor(d.getTime() / 1000);

describe('subscription checkout on the hosted page', () => {
  it('shows the plan, the trial and the card form (no shipping address), under the app CSP', async () => {
    const o = await open('sub-page-0001');
    expect(o.url).toBe(`${ORIGIN}/pay/${o.sessionId}`);
    expect(o.sessionId).toMatch(/^cs_test_/);
    // The same key answers the same session.
    expect((await open('sub-page-0001', { userId: o.userId })).sessionId).toBe(o.sessionId);
    expect(await embedded.retrieveSubscriptionSession(o.sessionId)).toEqual({ sessionId: o.sessionId, status: 'open', userId: o.userId, subscriptionId: null, customerId: null });

    const res = await t.app.inject({ url: o.path });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-security-policy'])).toContain("form-action 'self'");
    const html = res.body;
    expect(html).toContain('7-day free trial, then $9.99/month');
    expect(html).toContain('Start trial');
    expect(html).toContain('FrameMerch Pro');
    expect(html).toMatch(/Due today<\/dt><dd>\$0\.00/);
    expect(html).toContain(`action="/pay/${o.sessionId}"`);
    for (const field of ['email', 'card_number', 'expiry', 'cvc']) expect(html).toContain(`name="${field}"`);
    for (const field of ['address_line1', 'postal_code', 'city']) expect(html).not.toContain(`name="${field}"`);
    expect(html).not.toContain('Pay $');
    expect(html).toContain('value="sub@example.com"');
    expect(html).toContain(`href="${ORIGIN}/pricing"`);
    expect(html).not.toMatch(/<script|style=|<style/i);
  });

  it('declines 4000 0000 0000 0002 with the page message (402) and refuses mistyped cards (400), changing nothing', async () => {
    const o = await open('sub-declined-01');
    const customers = await t.db.selectFrom('embedded_customers').select('id').execute();
    const declined = await form(o.path, card('4000 0000 0000 0002'));
    expect(declined.statusCode).toBe(402);
    expect(declined.body).toContain('Your card was declined.');
    expect(declined.body).toContain('Start trial');
    for (const [fields, message] of [
      [card('4242 4242 4242 4241'), /card number is invalid/],
      [card('4242424242424242', { expiry: '01 / 20' }), /expiration date is in the past/],
      [card('4242424242424242', { cvc: '1' }), /security code is incomplete/],
      [card('4242424242424242', { email: 'nope' }), /valid email/],
      [card('5555 5555 5555 4444'), /test cards only/],
    ] as const) {
      const res = await form(o.path, fields);
      expect(res.statusCode, JSON.stringify(fields)).toBe(message.source.includes('test cards') ? 402 : 400);
      expect(res.body).toMatch(message);
      expect(res.body).toMatch(/<input id="card_number"(?![^>]*value=)[^>]*>/);
    }
    const s = await t.db.selectFrom('embedded_subscription_sessions').selectAll().where('id', '=', o.sessionId).executeTakeFirstOrThrow();
    expect(s).toMatchObject({ status: 'open', subscription_id: null, customer_id: null, declined_attempts: 2 });
    expect(await t.db.selectFrom('embedded_customers').select('id').execute()).toHaveLength(customers.length);
    expect(await eventsAbout(o.sessionId)).toHaveLength(0);
    expect(deliveries).toHaveLength(0);
  });

  it('refuses a form posted from another site (403)', async () => {
    const o = await open('sub-crosssite-1');
    const res = await form(o.path, card('4242424242424242'), { origin: 'https://evil.example' });
    expect(res.statusCode).toBe(403);
    const none = await form(o.path, card('4242424242424242'), {});
    expect(none.statusCode).toBe(403);
    expect((await embedded.retrieveSubscriptionSession(o.sessionId))!.status).toBe('open');
  });

  it('subscribes with 4242: checkout.session.completed, customer.subscription.created, invoice.paid, in order, signed and delivered', async () => {
    const o = await open('sub-4242-000001');
    const before = t.app.clock.now();
    const res = await form(o.path, card('4242 4242 4242 4242', { email: 'payer@example.com' }));
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toBe(`${ORIGIN}/subscription-success?session_id=${o.sessionId}`);

    const info = (await embedded.retrieveSubscriptionSession(o.sessionId))!;
    expect(info).toMatchObject({ sessionId: o.sessionId, status: 'complete', userId: o.userId });
    expect(info.subscriptionId).toMatch(/^sub_[A-Za-z0-9]+$/);
    expect(info.customerId).toMatch(/^cus_[A-Za-z0-9]+$/);

    const events = await eventsAbout(o.sessionId, info.subscriptionId!);
    expect(events.map((e) => e.type)).toEqual(['checkout.session.completed', 'customer.subscription.created', 'invoice.paid']);
    const created = events.map((e) => e.payload.created as number);
    expect(created[1]).toBeGreaterThan(created[0]!);
    expect(created[2]).toBeGreaterThan(created[1]!);
    expect(created[0]).toBeGreaterThanOrEqual(unix(before));

    const [completed, subCreated, paid] = events.map((e) => e.payload.data.object as Obj);
    expect(completed).toMatchObject({
      id: o.sessionId,
      object: 'checkout.session',
      mode: 'subscription',
      status: 'complete',
      payment_status: 'no_payment_required',
      subscription: info.subscriptionId,
      customer: info.customerId,
      metadata: { user_id: o.userId },
      client_reference_id: o.userId,
      customer_details: { email: 'payer@example.com' },
    });
    const sub = subCreated!;
    expect(sub).toMatchObject({
      id: info.subscriptionId,
      object: 'subscription',
      customer: info.customerId,
      status: 'trialing',
      cancel_at_period_end: false,
      canceled_at: null,
      ended_at: null,
      metadata: { user_id: o.userId },
      latest_invoice: paid!.id,
    });
    expect(sub.trial_end - sub.trial_start).toBe(7 * 24 * 3600);
    expect(sub.current_period_start).toBe(sub.trial_start);
    expect(sub.current_period_end).toBe(sub.trial_end);
    const item = sub.items.data[0];
    expect(item).toMatchObject({ current_period_start: sub.trial_start, current_period_end: sub.trial_end, quantity: 1 });
    expect(item.price).toMatchObject({ unit_amount: 999, currency: 'usd', recurring: { interval: 'month', interval_count: 1 } });
    expect(paid).toMatchObject({
      object: 'invoice',
      subscription: info.subscriptionId,
      customer: info.customerId,
      status: 'paid',
      amount_due: 0,
      amount_paid: 0,
      billing_reason: 'subscription_create',
      next_payment_attempt: null,
      parent: { subscription_details: { subscription: info.subscriptionId, metadata: { user_id: o.userId } } },
    });
    expect(paid!.id).toMatch(/^in_/);
    expect(paid!.lines.data[0].period).toEqual({ start: sub.trial_start, end: sub.trial_end });

    // Delivered once each, in order, signed so that the webhook's own check accepts them, and accepted.
    expect(deliveries.map((d) => d.type)).toEqual(['checkout.session.completed', 'customer.subscription.created', 'invoice.paid']);
    for (const d of deliveries) {
      expect(verifyWebhookBody(Buffer.from(d.body), d.signature, embedded.webhookSecret).id).toBe(d.id);
      expect(d.status).toBe(200);
    }
    for (const e of await eventsAbout(o.sessionId, info.subscriptionId!)) expect(e.delivered_at).not.toBeNull();

    // The provider answers the same subscription as the event carried.
    const retrieved = (await embedded.retrieveSubscription(info.subscriptionId!)) as unknown as Obj;
    expect(retrieved).toMatchObject({ id: sub.id, status: 'trialing', trial_end: sub.trial_end, current_period_end: sub.current_period_end, metadata: { user_id: o.userId } });
    expect(await embedded.retrieveSubscription('sub_doesnotexist0000')).toBeNull();
    expect(await embedded.retrieveSubscriptionSession('cs_test_doesnotexist0000')).toBeNull();

    // Submitting again lands on the same success page and makes nothing new; so does the same key.
    const again = await form(o.path, card('4242 4242 4242 4242'));
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toBe(res.headers.location);
    expect(await eventsAbout(o.sessionId, info.subscriptionId!)).toHaveLength(3);
    expect(deliveries).toHaveLength(3);
    expect((await open('sub-4242-000001', { userId: o.userId })).sessionId).toBe(o.sessionId);
    expect(await t.db.selectFrom('embedded_subscriptions').select('id').where('customer_id', '=', info.customerId!).execute()).toHaveLength(1);
    // The page says it has started.
    expect((await t.app.inject({ url: o.path })).body).toContain('Your subscription has started');
  });

  it('expires a subscription session left open, with checkout.session.expired (mode subscription)', async () => {
    const o = await open('sub-expire-0001');
    await t.db.updateTable('embedded_subscription_sessions').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', o.sessionId).execute();
    expect(await embedded.expireDue()).toBeGreaterThanOrEqual(1);
    const events = await eventsAbout(o.sessionId);
    expect(events.map((e) => e.type)).toEqual(['checkout.session.expired']);
    expect(events[0]!.payload.data.object).toMatchObject({ mode: 'subscription', status: 'expired', metadata: { user_id: o.userId } });
    expect((await embedded.retrieveSubscriptionSession(o.sessionId))!.status).toBe('expired');
    expect((await t.app.inject({ url: o.path })).body).toContain('This checkout has expired');
    expect((await form(o.path, card('4242424242424242'))).statusCode).toBe(409);
  });
});

describe('the subscription clock', () => {
  it('renews at the trial end with the saved card: invoice.paid (subscription_cycle) and updated (active, next period); a repeated tick does nothing', async () => {
    const s = await subscribe('sub-renew-00001');
    const row = await subRow(s.subscriptionId);
    const trialEnd = row.trial_end!;
    deliveries = [];
    await embedded.tick(new Date(trialEnd.getTime() - 1000));
    expect(await eventsAbout(s.subscriptionId)).toHaveLength(3);

    await embedded.tick(trialEnd);
    const events = (await eventsAbout(s.subscriptionId)).slice(3);
    expect(events.map((e) => e.type)).toEqual(['invoice.paid', 'customer.subscription.updated']);
    const nextEnd = addMonths(trialEnd, 1);
    const [invoice, updated] = events.map((e) => e.payload.data.object as Obj);
    expect(invoice).toMatchObject({ billing_reason: 'subscription_cycle', amount_due: 999, amount_paid: 999, status: 'paid', attempt_count: 1, subscription: s.subscriptionId });
    expect(invoice!.lines.data[0].period).toEqual({ start: unix(trialEnd), end: unix(nextEnd) });
    // Stripe's renewal invoice's own period is the one that ended.
    expect(invoice!.period_end).toBe(unix(trialEnd));
    expect(updated).toMatchObject({ status: 'active', current_period_start: unix(trialEnd), current_period_end: unix(nextEnd), latest_invoice: invoice!.id });
    expect(updated!.items.data[0]).toMatchObject({ current_period_start: unix(trialEnd), current_period_end: unix(nextEnd) });
    expect(events[1]!.payload.data.previous_attributes).toMatchObject({ status: 'trialing' });
    expect(events[1]!.payload.created).toBeGreaterThan(events[0]!.payload.created);
    const mine = new Set(events.map((e) => e.id));
    expect(deliveries.filter((d) => mine.has(d.id)).map((d) => [d.type, d.status])).toEqual([
      ['invoice.paid', 200],
      ['customer.subscription.updated', 200],
    ]);

    // The same time again, or a little later: nothing.
    await embedded.tick(trialEnd);
    await embedded.tick(new Date(trialEnd.getTime() + 5 * DAY));
    expect(await eventsAbout(s.subscriptionId)).toHaveLength(5);
    // A month on, the next renewal.
    await embedded.tick(nextEnd);
    const third = (await eventsAbout(s.subscriptionId)).slice(5).map((e) => e.payload.data.object as Obj);
    expect(third.map((o) => o.object)).toEqual(['invoice', 'subscription']);
    expect(third[1]).toMatchObject({ status: 'active', current_period_start: unix(nextEnd), current_period_end: unix(addMonths(trialEnd, 2)) });
    expect(await t.db.selectFrom('embedded_invoices').select('id').where('subscription_id', '=', s.subscriptionId).execute()).toHaveLength(3);
  });

  it('with 4000 0000 0000 0341: past_due at the trial end, retried after 1, 3 and 5 days, then deleted', async () => {
    expect(RETRY_DAYS).toEqual([1, 3, 5]);
    const s = await subscribe('sub-0341-000001', '4000 0000 0000 0341');
    const trialEnd = (await subRow(s.subscriptionId)).trial_end!;
    const at = (days: number) => new Date(trialEnd.getTime() + days * DAY);

    await embedded.tick(trialEnd);
    let events = (await eventsAbout(s.subscriptionId)).slice(3);
    expect(events.map((e) => e.type)).toEqual(['invoice.payment_failed', 'customer.subscription.updated']);
    const [failed, pastDue] = events.map((e) => e.payload.data.object as Obj);
    expect(failed).toMatchObject({ billing_reason: 'subscription_cycle', status: 'open', amount_due: 999, amount_paid: 0, attempt_count: 1, next_payment_attempt: unix(at(1)) });
    expect(pastDue).toMatchObject({ status: 'past_due', current_period_start: unix(trialEnd), current_period_end: unix(addMonths(trialEnd, 1)) });

    for (const [day, attempt, next] of [
      [1, 2, 3],
      [3, 3, 5],
    ] as const) {
      await embedded.tick(at(day - 0.5));
      await embedded.tick(at(day));
      events = (await eventsAbout(s.subscriptionId)).slice(-1);
      expect(events[0]!.type).toBe('invoice.payment_failed');
      expect(events[0]!.payload.data.object).toMatchObject({ id: failed!.id, attempt_count: attempt, next_payment_attempt: unix(at(next)) });
      expect((await subRow(s.subscriptionId)).status).toBe('past_due');
    }
    await embedded.tick(at(5));
    events = (await eventsAbout(s.subscriptionId)).slice(-2);
    expect(events.map((e) => e.type)).toEqual(['invoice.payment_failed', 'customer.subscription.deleted']);
    expect(events[0]!.payload.data.object).toMatchObject({ attempt_count: 4, next_payment_attempt: null });
    expect(events[1]!.payload.data.object).toMatchObject({ status: 'canceled', ended_at: unix(at(5)), canceled_at: unix(at(5)), cancellation_details: { reason: 'payment_failed' } });
    const all = await eventsAbout(s.subscriptionId);
    expect(all.map((e) => e.type)).toEqual([
      'checkout.session.completed',
      'customer.subscription.created',
      'invoice.paid',
      'invoice.payment_failed',
      'customer.subscription.updated',
      'invoice.payment_failed',
      'invoice.payment_failed',
      'invoice.payment_failed',
      'customer.subscription.deleted',
    ]);
    // Each event later than the one before it.
    for (let i = 1; i < all.length; i++) expect(all[i]!.payload.created).toBeGreaterThan(all[i - 1]!.payload.created);
    // Ended: the clock leaves it alone, months later too.
    await embedded.tick(at(90));
    expect(await eventsAbout(s.subscriptionId)).toHaveLength(9);
    expect(((await embedded.retrieveSubscription(s.subscriptionId)) as unknown as Obj).status).toBe('canceled');
  });

  it('a clock moved far ahead runs every step at its own time, in one tick', async () => {
    const s = await subscribe('sub-0341-jump-01', '4000000000000341');
    const trialEnd = (await subRow(s.subscriptionId)).trial_end!;
    await embedded.tick(new Date(trialEnd.getTime() + 40 * DAY));
    const events = (await eventsAbout(s.subscriptionId)).slice(3);
    expect(events.map((e) => e.type)).toEqual([
      'invoice.payment_failed',
      'customer.subscription.updated',
      'invoice.payment_failed',
      'invoice.payment_failed',
      'invoice.payment_failed',
      'customer.subscription.deleted',
    ]);
    expect(events[5]!.payload.data.object.ended_at).toBe(unix(new Date(trialEnd.getTime() + 5 * DAY)));
  });

  it('runs on the app clock: tick() without a time, and the background loop', async () => {
    const s = await subscribe('sub-appclock-001');
    const trialEnd = (await subRow(s.subscriptionId)).trial_end!;
    await embedded.tick();
    expect((await subRow(s.subscriptionId)).status).toBe('trialing');
    t.app.clock.advanceTo(new Date(trialEnd.getTime() + 1000));
    embedded.start(20);
    try {
      let status = '';
      for (let i = 0; i < 200 && status !== 'active'; i++) {
        await new Promise((r) => setTimeout(r, 25));
        status = (await subRow(s.subscriptionId)).status;
      }
      expect(status).toBe('active');
    } finally {
      await embedded.stop();
    }
    expect((await eventsAbout(s.subscriptionId)).map((e) => e.type).slice(3)).toEqual(['invoice.paid', 'customer.subscription.updated']);
  });
});

describe('the manage page', () => {
  it('shows the plan, next billing date and only the card’s last 4; cancel at period end, undo, cancel, then deleted at the period end', async () => {
    const s = await subscribe('sub-manage-0001');
    const row = await subRow(s.subscriptionId);
    const url = await embedded.manageSubscriptionUrl(s.customerId, `${ORIGIN}/account/subscription`);
    expect(url).toMatch(new RegExp(`^${ORIGIN}/pay/manage/[A-Za-z0-9_-]{20,}$`));
    const path = new URL(url).pathname;

    const page = await t.app.inject({ url: path });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('FrameMerch Pro, $9.99/month');
    expect(page.body).toContain('Free trial until');
    expect(page.body).toContain('ending in 4242');
    expect(page.body).toContain(row.trial_end!.toLocaleDateString('en-US', { timeZone: 'UTC', year: 'numeric', month: 'long', day: 'numeric' }));
    expect(page.body).not.toMatch(/4242[\s-]?4242[\s-]?4242[\s-]?4242/);
    expect(page.body).toContain(`href="${ORIGIN}/account/subscription"`);
    expect(page.body).toContain('name="action" value="cancel"');
    expect(page.body).not.toMatch(/<script|style=|<style/i);

    // From another site: refused, nothing changes.
    expect((await form(path, { action: 'cancel' }, { origin: 'https://evil.example' })).statusCode).toBe(403);
    expect((await subRow(s.subscriptionId)).cancel_at_period_end).toBe(false);
    const before = (await eventsAbout(s.subscriptionId)).length;

    const cancel = await form(path, { action: 'cancel' });
    expect(cancel.statusCode).toBe(303);
    expect(cancel.headers.location).toBe(`${path}?done=cancel`);
    let events = (await eventsAbout(s.subscriptionId)).slice(before);
    expect(events.map((e) => e.type)).toEqual(['customer.subscription.updated']);
    expect(events[0]!.payload.data.object).toMatchObject({ status: 'trialing', cancel_at_period_end: true, cancel_at: unix(row.current_period_end) });
    expect(events[0]!.payload.data.object.canceled_at).toEqual(expect.any(Number));
    expect(events[0]!.payload.data.previous_attributes).toMatchObject({ cancel_at_period_end: false });
    // Cancelling again changes nothing.
    expect((await form(path, { action: 'cancel' })).statusCode).toBe(303);
    expect(await eventsAbout(s.subscriptionId)).toHaveLength(before + 1);
    const cancelling = await t.app.inject({ url: `${path}?done=cancel` });
    expect(cancelling.body).toContain('Cancels on');
    expect(cancelling.body).toContain('will end at the end of the current period');
    expect(cancelling.body).toContain('name="action" value="resume"');

    // Undo, then cancel again: each an update, each later than the one before.
    expect((await form(path, { action: 'resume' })).statusCode).toBe(303);
    expect((await form(path, { action: 'cancel' })).statusCode).toBe(303);
    events = (await eventsAbout(s.subscriptionId)).slice(before);
    expect(events.map((e) => [e.type, e.payload.data.object.cancel_at_period_end])).toEqual([
      ['customer.subscription.updated', true],
      ['customer.subscription.updated', false],
      ['customer.subscription.updated', true],
    ]);
    expect(events[2]!.payload.created).toBeGreaterThan(events[1]!.payload.created);

    // At the period's end: deleted, not renewed, nothing charged.
    await embedded.tick(row.current_period_end);
    events = (await eventsAbout(s.subscriptionId)).slice(before + 3);
    expect(events.map((e) => e.type)).toEqual(['customer.subscription.deleted']);
    expect(events[0]!.payload.data.object).toMatchObject({ status: 'canceled', ended_at: unix(row.current_period_end), cancellation_details: { reason: 'cancellation_requested' } });
    expect(await t.db.selectFrom('embedded_invoices').select('id').where('subscription_id', '=', s.subscriptionId).execute()).toHaveLength(1);
    expect(deliveries.filter((d) => d.type === 'customer.subscription.deleted').every((d) => d.status === 200)).toBe(true);
    expect((await t.app.inject({ url: path })).body).toContain('Ended on');
    expect((await form(path, { action: 'resume' })).statusCode).toBe(409);
  });

  it('changes the card: a declined card is refused, a good one is used at the next retry', async () => {
    const s = await subscribe('sub-manage-card1', '4000 0000 0000 0341');
    const trialEnd = (await subRow(s.subscriptionId)).trial_end!;
    await embedded.tick(trialEnd);
    expect((await subRow(s.subscriptionId)).status).toBe('past_due');
    const path = new URL(await embedded.manageSubscriptionUrl(s.customerId, `${ORIGIN}/account`)).pathname;
    const page = await t.app.inject({ url: path });
    expect(page.body).toContain('ending in 0341');
    expect(page.body).toContain('Payment failed. We will try again on');
    expect(page.body).not.toContain('4000 0000 0000 0341');
    expect(page.body).not.toContain('4000000000000341');

    const declined = await form(path, { action: 'card', card_number: '4000 0000 0000 0002', expiry: '12 / 34', cvc: '123' });
    expect(declined.statusCode).toBe(402);
    expect(declined.body).toContain('Your card was declined.');
    expect(declined.body).toContain('ending in 0341');
    const good = await form(path, { action: 'card', card_number: '4242 4242 4242 4242', expiry: '11 / 33', cvc: '123' });
    expect(good.statusCode).toBe(303);
    const after = await t.app.inject({ url: good.headers.location as string });
    expect(after.body).toContain('ending in 4242, expires 11/2033');
    expect(after.body).toContain('Your card was updated');

    // The retry a day later charges the new card: paid, active again.
    await embedded.tick(new Date(trialEnd.getTime() + DAY));
    const last = (await eventsAbout(s.subscriptionId, s.customerId)).slice(-2);
    expect(last.map((e) => e.type)).toEqual(['invoice.paid', 'customer.subscription.updated']);
    expect(last[0]!.payload.data.object).toMatchObject({ status: 'paid', attempt_count: 2, amount_paid: 999 });
    expect(last[1]!.payload.data.object).toMatchObject({ status: 'active', cancel_at_period_end: false });
    const types = (await eventsAbout(s.customerId)).map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['payment_method.attached', 'customer.updated']));
  });

  it('answers 404 to an unknown or malformed token, and to an unknown customer', async () => {
    for (const p of ['/pay/manage/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', '/pay/manage/short', '/pay/manage/%3Cscript%3E']) {
      const res = await t.app.inject({ url: p });
      expect(res.statusCode, p).toBe(404);
      expect(res.body).toContain('This link is not valid');
      expect((await form(p, { action: 'cancel' })).statusCode).toBe(404);
    }
    await expect(embedded.manageSubscriptionUrl('cus_doesnotexist', `${ORIGIN}/account`)).rejects.toThrow(/No such customer/);
  });
});
