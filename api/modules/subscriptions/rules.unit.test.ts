/**
 * The subscription rules (rules.ts) through a Pro subscription's life, event by event as
 * Stripe sends them: checkout, trial, renewals, failed payments and their retries, the end;
 * repeated events and pairs delivered the wrong way round; both API versions' shapes.
 */
import { describe, expect, it } from 'vitest';
import type { PaymentEvent } from '../../integrations/stripe/index.ts';
import {
  applySubscriptionEvent,
  compareOrderKeys,
  encodeOrderKey,
  FREE_STATE,
  PRO_GRACE_MS,
  subscriptionSnapshotFromEvent,
  tierAt,
  type OrderKey,
  type StripeSubscriptionStatus,
  type SubscriptionEventInput,
  type SubscriptionState,
} from './rules.ts';
import { subscriptionObject } from '../../test/stripe-subscription-object.ts';

const USER = '0b5f6f3e-4c4f-4a53-9f62-6c1c2b0f7a11';
const DAY = 86_400;
const MONTH = 30 * DAY;
const T0 = 1_800_000_000;
const TRIAL_END = T0 + 7 * DAY;

type Style = 'legacy' | 'items';

interface Sub {
  id: string;
  status: StripeSubscriptionStatus;
  start: number;
  end: number;
  trialEnd: number | null;
  cancelAtPeriodEnd: boolean;
  created: number;
}

const trial: Sub = { id: 'sub_1', status: 'trialing', start: T0, end: TRIAL_END, trialEnd: TRIAL_END, cancelAtPeriodEnd: false, created: T0 };

/** A subscription object: current period on the object (older API versions) or on its item (newer). */
const subObject = (s: Sub, style: Style = 'legacy'): Record<string, unknown> =>
  subscriptionObject({
    ...s,
    userId: USER,
    customer: 'cus_1',
    canceledAt: s.status === 'canceled' ? s.end : null,
    periodOn: style === 'items' ? 'item' : 'subscription',
    itemId: 'si_1',
  });

let seq = 0;
function event(type: string, created: number, object: Record<string, unknown>, id = `evt_${String(++seq).padStart(4, '0')}`): SubscriptionEventInput {
  return { id, type, created, data: { object } };
}

const subEvent = (type: 'created' | 'updated' | 'deleted' | 'trial_will_end', at: number, s: Sub, style: Style = 'legacy') =>
  event(`customer.subscription.${type}`, at, subObject(s, style));

/** An invoice for the subscription's period [start, end): its line bills that period; its own period_start/end look one period back. */
function invoiceEvent(
  kind: 'paid' | 'payment_failed',
  at: number,
  o: { sub?: string; start: number; end: number; reason?: string; amount?: number; style?: Style; lines?: Record<string, unknown>[] },
) {
  const style = o.style ?? 'legacy';
  const sub = o.sub ?? 'sub_1';
  const line =
    style === 'legacy'
      ? { object: 'line_item', type: 'subscription', proration: false, subscription: sub, period: { start: o.start, end: o.end } }
      : { object: 'line_item', parent: { type: 'subscription_item_details', subscription_item_details: { subscription: sub, proration: false } }, period: { start: o.start, end: o.end } };
  return event(`invoice.${kind}`, at, {
    id: `in_${at}`,
    object: 'invoice',
    customer: 'cus_1',
    billing_reason: o.reason ?? 'subscription_cycle',
    amount_paid: kind === 'paid' ? (o.amount ?? 999) : 0,
    amount_due: o.amount ?? 999,
    attempt_count: 1,
    next_payment_attempt: kind === 'paid' ? null : at + 3 * DAY,
    period_start: o.start - MONTH,
    period_end: o.start,
    lines: { object: 'list', data: o.lines ?? [line] },
    ...(style === 'legacy'
      ? { subscription: sub, subscription_details: { metadata: { user_id: USER } } }
      : { parent: { type: 'subscription_details', subscription_details: { subscription: sub, metadata: { user_id: USER } } } }),
  });
}

function checkoutEvent(at: number, subscription: string | Record<string, unknown>, paymentStatus = 'no_payment_required') {
  return event('checkout.session.completed', at, {
    id: 'cs_1',
    object: 'checkout.session',
    mode: 'subscription',
    status: 'complete',
    payment_status: paymentStatus,
    customer: 'cus_1',
    client_reference_id: USER,
    metadata: { user_id: USER },
    subscription,
  });
}

function run(events: SubscriptionEventInput[], from: SubscriptionState = FREE_STATE): SubscriptionState {
  return events.reduce((s, e) => applySubscriptionEvent(s, e).state, from);
}

const at = (s: number) => new Date(s * 1000);

/** The fields a creator (and the limits) see. */
function view(s: SubscriptionState) {
  return {
    tier: s.tier,
    status: s.status,
    stripeStatus: s.stripeStatus,
    trialEnd: s.trialEnd?.toISOString() ?? null,
    start: s.currentPeriodStart?.toISOString() ?? null,
    end: s.currentPeriodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: s.cancelAtPeriodEnd,
    sub: s.stripeSubscriptionId,
    customer: s.stripeCustomerId,
  };
}

function expected(o: Partial<Omit<ReturnType<typeof view>, 'start' | 'end'>> & { start: number; end: number }) {
  const { start, end, ...rest } = o;
  return {
    tier: 'pro',
    status: 'active',
    stripeStatus: 'active',
    trialEnd: at(TRIAL_END).toISOString(),
    cancelAtPeriodEnd: false,
    sub: 'sub_1',
    customer: 'cus_1',
    ...rest,
    start: at(start).toISOString(),
    end: at(end).toISOString(),
  };
}

const P1 = { start: TRIAL_END, end: TRIAL_END + MONTH };
const P2 = { start: P1.end, end: P1.end + MONTH };
const active1: Sub = { ...trial, status: 'active', ...P1 };
const active2: Sub = { ...trial, status: 'active', ...P2 };

describe('a Pro subscription from checkout to its end', () => {
  const created = subEvent('created', T0, trial);
  const trialing = expected({ status: 'trialing', stripeStatus: 'trialing', start: T0, end: TRIAL_END });

  it('checkout completed: trialing until the trial ends, with its trial end and ids', () => {
    // The session with its subscription expanded says it all.
    expect(view(run([checkoutEvent(T0, subObject(trial))]))).toEqual(trialing);
    // With the id only: Pro at once, provisionally; the subscription's own event fills it in, in either order.
    const link = run([checkoutEvent(T0 + 1, 'sub_1')]);
    expect(view(link)).toEqual({ ...trialing, trialEnd: null, start: null, end: null });
    expect(view(run([checkoutEvent(T0 + 1, 'sub_1'), created]))).toEqual(trialing);
    expect(view(run([created, checkoutEvent(T0 + 1, 'sub_1')]))).toEqual(trialing);
    // A checkout paid at once (no trial) is active; one whose payment is still on its way is not Pro yet.
    expect(run([checkoutEvent(T0, 'sub_1', 'paid')]).status).toBe('active');
    expect(run([checkoutEvent(T0, 'sub_1', 'unpaid')]).tier).toBe('free');
  });

  it('trial ends and its invoice is paid: active, with the new period', () => {
    const before = run([created, subEvent('trial_will_end', TRIAL_END - 3 * DAY, trial)]);
    expect(view(before)).toEqual(trialing);
    const after = run([subEvent('updated', TRIAL_END, active1), invoiceEvent('paid', TRIAL_END + 3600, P1)], before);
    expect(view(after)).toEqual(expected(P1));
    // The invoice alone, before its customer.subscription.updated arrives: the renewal shows already.
    expect(view(run([invoiceEvent('paid', TRIAL_END + 3600, P1)], before))).toEqual(expected(P1));
  });

  it('renews: the next period, still active', () => {
    const s = run([created, subEvent('updated', TRIAL_END, active1), invoiceEvent('paid', TRIAL_END + 3600, P1), subEvent('updated', P2.start, active2), invoiceEvent('paid', P2.start + 3600, P2)]);
    expect(view(s)).toEqual(expected(P2));
  });

  it('payment fails: past_due and still Pro through the retries; retries exhausted and deleted: free', () => {
    const renewed = run([created, subEvent('updated', TRIAL_END, active1), invoiceEvent('paid', TRIAL_END + 3600, P1), subEvent('updated', P2.start, active2)]);
    const failed = run([invoiceEvent('payment_failed', P2.start + 3600, P2), subEvent('updated', P2.start + 3600, { ...active2, status: 'past_due' })], renewed);
    expect(view(failed)).toEqual(expected({ ...P2, status: 'past_due', stripeStatus: 'past_due' }));
    expect(tierAt(failed, at(P2.start + 10 * DAY))).toBe('pro');
    const retried = run([invoiceEvent('payment_failed', P2.start + 3 * DAY, P2), invoiceEvent('payment_failed', P2.start + 8 * DAY, P2)], failed);
    expect(view(retried)).toEqual(view(failed));

    const ended = run([subEvent('deleted', P2.start + 15 * DAY, { ...active2, status: 'canceled' })], retried);
    expect(view(ended)).toEqual(expected({ ...P2, tier: 'free', status: 'canceled', stripeStatus: 'canceled' }));

    // Or the account's setting marks it unpaid: no Pro, though paying the invoice brings it back.
    const unpaid = run([subEvent('updated', P2.start + 15 * DAY, { ...active2, status: 'unpaid' })], retried);
    expect(view(unpaid)).toEqual(expected({ ...P2, tier: 'free', status: 'incomplete', stripeStatus: 'unpaid' }));
    const back = run([invoiceEvent('paid', P2.start + 20 * DAY, P2), subEvent('updated', P2.start + 20 * DAY, active2)], unpaid);
    expect(view(back)).toEqual(expected(P2));

    // Or a retry succeeds.
    const paid = run([invoiceEvent('paid', P2.start + 3 * DAY, P2), subEvent('updated', P2.start + 3 * DAY, active2)], failed);
    expect(view(paid)).toEqual(expected(P2));
  });

  it('cancel at period end: Pro until the period ends and Stripe deletes it', () => {
    const s1 = run([created, subEvent('updated', TRIAL_END, active1), invoiceEvent('paid', TRIAL_END + 10, P1)]);
    const canceling = run([subEvent('updated', TRIAL_END + 5 * DAY, { ...active1, cancelAtPeriodEnd: true })], s1);
    expect(view(canceling)).toEqual(expected({ ...P1, cancelAtPeriodEnd: true }));
    expect(tierAt(canceling, at(P1.end - 1))).toBe('pro');
    const deleted = run([subEvent('deleted', P1.end, { ...active1, status: 'canceled', cancelAtPeriodEnd: true })], canceling);
    expect(view(deleted)).toEqual(expected({ ...P1, cancelAtPeriodEnd: true, tier: 'free', status: 'canceled', stripeStatus: 'canceled' }));
    // Undone before the end: renews as usual.
    const undone = run([subEvent('updated', TRIAL_END + 6 * DAY, active1), subEvent('updated', P2.start, active2)], canceling);
    expect(view(undone)).toEqual(expected(P2));
  });

  it('cancels at once: free at once', () => {
    const s = run([created, subEvent('deleted', T0 + 2 * DAY, { ...trial, status: 'canceled' })]);
    expect(view(s)).toEqual(expected({ start: T0, end: TRIAL_END, tier: 'free', status: 'canceled', stripeStatus: 'canceled' }));
  });

  it('ends on a deleted event whatever status its object shows', () => {
    expect(run([created, subEvent('deleted', T0 + 5, trial)]).stripeStatus).toBe('canceled');
  });
});

describe('repeated and out-of-order events', () => {
  const created = subEvent('created', T0, trial);
  const renewed = subEvent('updated', TRIAL_END, active1);
  const deleted = subEvent('deleted', TRIAL_END + DAY, { ...active1, status: 'canceled' });

  it('applies an event once: the second time changes nothing', () => {
    for (const e of [created, renewed, deleted, invoiceEvent('paid', TRIAL_END + 1, P1), checkoutEvent(T0, 'sub_1')]) {
      const once = applySubscriptionEvent(FREE_STATE, e);
      expect(once.changed).toBe(true);
      const twice = applySubscriptionEvent(once.state, e);
      expect(twice.changed).toBe(false);
      expect(twice.state).toBe(once.state);
    }
  });

  it('ends the same whichever of two events comes first', () => {
    const pairs: [string, SubscriptionEventInput, SubscriptionEventInput][] = [
      ['created, renewed', created, renewed],
      ['renewed, deleted', renewed, deleted],
      ['created, deleted', created, deleted],
      ['a renewal invoice, an older update', invoiceEvent('paid', P2.start + 10, P2), renewed],
      ['a failure and its retry paid', invoiceEvent('payment_failed', P1.start + 3600, P1), invoiceEvent('paid', P1.start + 3 * DAY, P1)],
      ['deleted, then a late invoice paid', deleted, invoiceEvent('paid', TRIAL_END + 2 * DAY, P1)],
      ['the checkout link, the created event', checkoutEvent(T0 + 1, 'sub_1'), created],
      ['the checkout link, a later update', checkoutEvent(T0 + 1, 'sub_1'), renewed],
    ];
    for (const [name, a, b] of pairs) expect(view(run([a, b])), name).toEqual(view(run([b, a])));
  });

  it('never undoes an end with an older event', () => {
    const ended = run([created, deleted]);
    for (const late of [renewed, created, invoiceEvent('paid', P1.start + 60, P1), subEvent('updated', P2.start, active2), checkoutEvent(T0, 'sub_1')]) {
      const r = applySubscriptionEvent(ended, late);
      expect(r.changed).toBe(false);
      expect(r.state.status).toBe('canceled');
    }
  });

  it('keeps the later period whatever came last', () => {
    const s = run([subEvent('updated', P2.start, active2), renewed, created, invoiceEvent('paid', P1.start + 10, P1)]);
    expect(view(s)).toEqual(expected(P2));
  });

  it('within one period, the subscription object outranks an invoice, even a later one', () => {
    const pastDue = subEvent('updated', P1.start + 3600, { ...active1, status: 'past_due' });
    // A failed retry's invoice a day later changes nothing (it says past_due too); a paid one waits for its object.
    expect(view(run([pastDue, invoiceEvent('paid', P1.start + DAY, P1)]))).toEqual(expected({ ...P1, status: 'past_due', stripeStatus: 'past_due' }));
  });

  it('orders two snapshots of the same second by the documented tiebreak', () => {
    // Renewed active and failed in the same second: past_due, in either order.
    const a = subEvent('updated', P2.start, active2);
    const b = subEvent('updated', P2.start, { ...active2, status: 'past_due' });
    expect(run([a, b]).stripeStatus).toBe('past_due');
    expect(run([b, a]).stripeStatus).toBe('past_due');
    // Cancel and undo in the same second: set to cancel, in either order.
    const c = subEvent('updated', P1.start + 50, { ...active1, cancelAtPeriodEnd: true });
    const d = subEvent('updated', P1.start + 50, active1);
    expect(run([c, d]).cancelAtPeriodEnd).toBe(true);
    expect(run([d, c]).cancelAtPeriodEnd).toBe(true);
    // Ended in the same second as a live update: ended.
    const e = subEvent('deleted', P1.start + 50, { ...active1, status: 'canceled' });
    expect(run([e, d]).status).toBe('canceled');
    expect(run([d, e]).status).toBe('canceled');
  });
});

describe("Stripe's shapes", () => {
  it('reads the period from the subscription item (newer API versions) and the invoice parent', () => {
    const s = run([subEvent('created', T0, trial, 'items'), subEvent('updated', TRIAL_END, active1, 'items')]);
    expect(view(s)).toEqual(expected(P1));
    const viaInvoice = run([subEvent('created', T0, trial, 'items'), invoiceEvent('paid', TRIAL_END + 60, { ...P1, style: 'items' })]);
    expect(view(viaInvoice)).toEqual(expected(P1));
    const snap = subscriptionSnapshotFromEvent(invoiceEvent('payment_failed', TRIAL_END + 60, { ...P1, style: 'items' }));
    expect(snap).toMatchObject({ source: 'invoice', subscriptionId: 'sub_1', userId: USER, stripeStatus: 'past_due', customerId: 'cus_1' });
  });

  it("takes cancel_at at the period's end as cancel at period end", () => {
    const o = { ...subObject(active1), cancel_at_period_end: false, cancel_at: P1.end };
    expect(subscriptionSnapshotFromEvent(event('customer.subscription.updated', P1.start + 5, o))?.cancelAtPeriodEnd).toBe(true);
    const later = { ...o, cancel_at: P1.end + MONTH };
    expect(subscriptionSnapshotFromEvent(event('customer.subscription.updated', P1.start + 5, later))?.cancelAtPeriodEnd).toBe(false);
  });

  it("takes an invoice's period from its subscription line, not a proration's nor the invoice's own", () => {
    const proration = { object: 'line_item', type: 'subscription', proration: true, period: { start: P1.start + 5 * DAY, end: P1.end } };
    const own = { object: 'line_item', type: 'subscription', proration: false, period: { start: P1.start, end: P1.end } };
    const snap = subscriptionSnapshotFromEvent(invoiceEvent('paid', P1.start + 60, { ...P1, lines: [proration, own] }));
    expect([snap?.currentPeriodStart, snap?.currentPeriodEnd]).toEqual([at(P1.start), at(P1.end)]);
  });

  it('says nothing for events about no subscription state', () => {
    const none = [
      event('customer.created', T0, { id: 'cus_1', object: 'customer' }),
      event('invoice.finalized', T0, { id: 'in_1', object: 'invoice', subscription: 'sub_1', billing_reason: 'subscription_cycle' }),
      invoiceEvent('paid', T0, { start: T0, end: TRIAL_END, reason: 'subscription_create', amount: 0 }),
      invoiceEvent('paid', T0, { start: T0, end: TRIAL_END, reason: 'manual' }),
      event('checkout.session.completed', T0, { id: 'cs_1', object: 'checkout.session', mode: 'payment', payment_status: 'paid', metadata: { order_id: USER } }),
      event('customer.subscription.updated', T0, { ...subObject(trial), status: 'nonsense' }),
      { ...subEvent('created', T0, trial), created: Number.NaN },
    ];
    for (const e of none) {
      expect(subscriptionSnapshotFromEvent(e), e.type).toBeNull();
      expect(applySubscriptionEvent(FREE_STATE, e)).toEqual({ state: FREE_STATE, changed: false, snapshot: null });
    }
  });

  it('takes a verified PaymentEvent as it is', () => {
    const stripeEvent = { ...subEvent('created', T0, trial), object: 'event', api_version: '2026-10-28.endive', livemode: false, pending_webhooks: 1, request: null } as unknown as PaymentEvent;
    const input: SubscriptionEventInput = stripeEvent;
    expect(applySubscriptionEvent(FREE_STATE, input).state.stripeStatus).toBe('trialing');
  });

  it('reads the user from metadata, or the checkout reference, only when it is a user id', () => {
    expect(subscriptionSnapshotFromEvent(subEvent('created', T0, trial))?.userId).toBe(USER);
    const session = checkoutEvent(T0, 'sub_1');
    const obj = session.data.object as Record<string, unknown>;
    expect(subscriptionSnapshotFromEvent({ ...session, data: { object: { ...obj, metadata: {} } } })?.userId).toBe(USER);
    expect(subscriptionSnapshotFromEvent({ ...session, data: { object: { ...obj, metadata: {}, client_reference_id: 'x' } } })?.userId).toBeNull();
  });
});

describe('a creator who subscribes again', () => {
  const first = { ...trial, status: 'canceled' as const };
  const second: Sub = { ...active1, id: 'sub_2', created: P1.start + 100, start: P1.start + 100, end: P1.start + 100 + MONTH, trialEnd: null };
  const endFirst = subEvent('deleted', P1.start, first);
  const startSecond = subEvent('created', second.created, second);

  it('follows the newer subscription in either order', () => {
    const expectSecond = expected({ start: second.start, end: second.end, sub: 'sub_2', trialEnd: null });
    expect(view(run([subEvent('created', T0, trial), endFirst, startSecond]))).toEqual(expectSecond);
    expect(view(run([startSecond, endFirst, subEvent('created', T0, trial)]))).toEqual(expectSecond);
  });

  it("ignores another subscription's invoices and checkout while it follows one", () => {
    const s = run([startSecond]);
    expect(applySubscriptionEvent(s, invoiceEvent('paid', P2.start, { ...P2 })).changed).toBe(false);
    expect(applySubscriptionEvent(s, checkoutEvent(T0, 'sub_1')).changed).toBe(false);
  });
});

describe('the tier for limits', () => {
  it("counts Pro as free once its period's end plus the grace has passed", () => {
    const s = run([subEvent('updated', TRIAL_END, active1)]);
    expect(tierAt(s, at(P1.end))).toBe('pro');
    expect(tierAt(s, new Date(at(P1.end).getTime() + PRO_GRACE_MS))).toBe('pro');
    expect(tierAt(s, new Date(at(P1.end).getTime() + PRO_GRACE_MS + 1))).toBe('free');
    expect(tierAt(FREE_STATE, at(T0))).toBe('free');
    // A provisional checkout, with no period yet, is Pro.
    expect(tierAt(run([checkoutEvent(T0, 'sub_1')]), at(T0 + 100 * DAY))).toBe('pro');
  });
});

describe('the order key', () => {
  it("encodes so that the strings' order is the key's", () => {
    const base: OrderKey = { terminal: false, periodStart: T0, source: 'subscription', at: T0 + 5, stage: 1, cancelAtPeriodEnd: false, eventId: 'evt_b' };
    const later: OrderKey[] = [
      { ...base, terminal: true, periodStart: 0, at: 0 },
      { ...base, periodStart: T0 + 1, source: 'checkout', at: 0 },
      { ...base, at: T0 + 6, stage: 0 },
      { ...base, stage: 2, cancelAtPeriodEnd: false },
      { ...base, cancelAtPeriodEnd: true, eventId: 'evt_a' },
      { ...base, eventId: 'evt_c' },
    ];
    for (const k of later) {
      expect(compareOrderKeys(k, base)).toBe(1);
      expect(encodeOrderKey(k) > encodeOrderKey(base)).toBe(true);
    }
    expect(compareOrderKeys({ ...base, source: 'invoice', at: T0 + 100 }, base)).toBe(-1);
    expect(compareOrderKeys(base, { ...base })).toBe(0);
    expect(encodeOrderKey(base)).toBe(`0:00${T0}:2:00${T0 + 5}:1:0:evt_b`);
  });
});
