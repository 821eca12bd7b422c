/**
 * The subscription rules (rules.ts) against a model of what Stripe does to one creator's
 * subscription over time: a checkout with a 7-day trial, the trial's end, monthly renewals
 * with invoices paid or failed, retries, the account's setting when retries run out (cancel,
 * mark unpaid, or leave past_due), a paused trial and its resume, cancel at period end and its
 * undo, an immediate cancel, and a new subscription after the end. Each step emits the events
 * Stripe would, each carrying the subscription as it is at that moment, with non-decreasing
 * `created` seconds, often several in one second; invoice.created, customer.updated and the
 * like come along as noise. The model's last snapshot is the state Stripe would report.
 *
 * The events are then delivered in a random order, some of them more than once, and the
 * state must end where Stripe's does; two different orders must end in the very same state,
 * watermark included; and no order may ever bring an ended subscription back.
 *
 * Same-second ambiguity. Stripe's events carry no sequence number, so two different
 * snapshots of one subscription made in the same second cannot be ordered from what they say.
 * rules.ts breaks the tie by how far along the period's life the status is (trialing /
 * incomplete < active < past_due < unpaid / paused < ended), then cancel_at_period_end set
 * over not set. The model keeps to the same rule, written out here on its own: a step that
 * would change the subscription in the same second as its last snapshot but backwards in
 * that order (a payment recovering the second it failed, an undo of a cancel in the second
 * it was set) happens one second later instead.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applySubscriptionEvent,
  FREE_STATE,
  sameSubscriptionState,
  type StripeSubscriptionStatus,
  type SubscriptionEventInput,
  type SubscriptionState,
} from './rules.ts';
import { subscriptionObject } from '../../test/stripe-subscription-object.ts';

const USER = '7d3c1a52-95b8-4d7e-a0c2-3f1e6b9d2a40';
const DAY = 86_400;
const MONTH = 30 * DAY;
const TRIAL = 7 * DAY;
const T0 = 1_790_000_000;

type Style = 'legacy' | 'items';

interface Sub {
  id: string;
  created: number;
  status: StripeSubscriptionStatus;
  trialEnd: number | null;
  start: number;
  end: number;
  cancelAtPeriodEnd: boolean;
  canceledAt: number | null;
}

type Op =
  | { kind: 'wait'; seconds: number }
  | { kind: 'periodEnd'; outcome: 'paid' | 'failed' | 'pause'; attemptAfter: number }
  | { kind: 'retry'; paid: boolean; after: number }
  | { kind: 'retriesExhausted'; then: 'cancel' | 'unpaid' | 'leave' }
  | { kind: 'payUnpaid' }
  | { kind: 'resume' }
  | { kind: 'cancelAtPeriodEnd'; on: boolean }
  | { kind: 'cancelNow' }
  | { kind: 'trialWillEnd' }
  | { kind: 'noise'; type: 'invoice.created' | 'invoice.finalized' | 'customer.updated' | 'payment_intent.succeeded' }
  | { kind: 'resubscribe'; trial: boolean; expanded: boolean; checkoutAfter: 0 | 1 };

interface History {
  style: Style;
  expanded: boolean;
  checkoutAfter: 0 | 1;
  ops: Op[];
}

const ENDED: ReadonlySet<StripeSubscriptionStatus> = new Set(['canceled', 'incomplete_expired']);

/** The model's own copy of the documented same-second order (rules.ts, THE ORDER, parts 5 and 6). */
const STAGE: Readonly<Record<StripeSubscriptionStatus, number>> = { trialing: 0, incomplete: 0, active: 1, past_due: 2, unpaid: 3, paused: 3, canceled: 4, incomplete_expired: 4 };

function sameContent(a: Sub, b: Sub): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Whether b may follow a in the same second: it goes forward in (ended, period start, stage, cancel flag). */
function forwardInOneSecond(a: Sub, b: Sub): boolean {
  const t = (s: Sub) => [ENDED.has(s.status) ? 1 : 0, s.start, STAGE[s.status], s.cancelAtPeriodEnd ? 1 : 0];
  const x = t(a);
  const y = t(b);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return y[i]! > x[i]!;
  return false;
}

/** What Stripe does, step by step, and the events it sends. */
class StripeModel {
  now = T0;
  events: SubscriptionEventInput[] = [];
  sub: Sub;
  /** Steps moved a second on to keep to the same-second order. */
  deferred = 0;
  private subs = 1;
  private lastSnapshot: { at: number; sub: Sub } | null = null;

  constructor(private readonly style: Style) {
    this.sub = { id: 'sub_001', created: T0, status: 'trialing', trialEnd: T0 + TRIAL, start: T0, end: T0 + TRIAL, cancelAtPeriodEnd: false, canceledAt: null };
  }

  /** The subscription object, its current period on the object or (newer API versions) on its item. */
  private object(s: Sub): Record<string, unknown> {
    return subscriptionObject({
      ...s,
      userId: USER,
      customer: 'cus_1',
      cancelAt: this.style === 'items' && s.cancelAtPeriodEnd ? s.end : null,
      endedAt: ENDED.has(s.status) ? this.now : null,
      periodOn: this.style === 'items' ? 'item' : 'subscription',
      itemId: `si_${s.id}`,
    });
  }


  private emit(type: string, object: Record<string, unknown>): void {
    const id = `evt_${String(this.events.length + 1).padStart(5, '0')}`;
    this.events.push({ id, type, created: this.now, data: { object: structuredClone(object) } });
  }

  /** Changes the subscription (keeping to the same-second order) and sends customer.subscription.<type> with it. */
  private change(type: 'created' | 'updated' | 'deleted', make: (s: Sub, now: number) => Sub): void {
    let next = make(this.sub, this.now);
    const last = this.lastSnapshot;
    if (last && last.at === this.now && last.sub.id === next.id && !sameContent(last.sub, next) && !forwardInOneSecond(last.sub, next)) {
      this.now += 1;
      this.deferred += 1;
      next = make(this.sub, this.now);
    }
    this.sub = next;
    this.snapshot(`customer.subscription.${type}`);
  }

  private snapshot(type: string): void {
    this.lastSnapshot = { at: this.now, sub: { ...this.sub } };
    this.emit(type, this.object(this.sub));
  }

  private invoice(kind: 'paid' | 'payment_failed' | 'created' | 'finalized', reason: 'subscription_create' | 'subscription_cycle', amount: number): void {
    const s = this.sub;
    const line =
      this.style === 'legacy'
        ? { object: 'line_item', type: 'subscription', proration: false, subscription: s.id, period: { start: s.start, end: s.end } }
        : { object: 'line_item', parent: { type: 'subscription_item_details', subscription_item_details: { subscription: s.id, proration: false } }, period: { start: s.start, end: s.end } };
    const owner =
      this.style === 'legacy'
        ? { subscription: s.id, subscription_details: { metadata: { user_id: USER } } }
        : { parent: { type: 'subscription_details', subscription_details: { subscription: s.id, metadata: { user_id: USER } } } };
    this.emit(`invoice.${kind}`, {
      id: `in_${this.events.length + 1}`,
      object: 'invoice',
      customer: 'cus_1',
      billing_reason: reason,
      amount_due: amount,
      amount_paid: kind === 'paid' ? amount : 0,
      status: kind === 'paid' ? 'paid' : kind === 'created' ? 'draft' : 'open',
      // Stripe's invoice period looks one period back for a renewal.
      period_start: reason === 'subscription_cycle' ? s.start - MONTH : s.start,
      period_end: reason === 'subscription_cycle' ? s.start : s.start,
      lines: { object: 'list', data: [line] },
      ...owner,
    });
  }

  private checkout(expanded: boolean, after: 0 | 1): void {
    this.now += after;
    this.emit('checkout.session.completed', {
      id: `cs_${this.sub.id}`,
      object: 'checkout.session',
      mode: 'subscription',
      status: 'complete',
      payment_status: this.sub.status === 'trialing' ? 'no_payment_required' : 'paid',
      customer: 'cus_1',
      client_reference_id: USER,
      metadata: { user_id: USER },
      subscription: expanded ? this.object(this.sub) : this.sub.id,
    });
  }

  /** The first checkout: a subscription in its trial, its $0 invoice, then the session. */
  start(expanded: boolean, checkoutAfter: 0 | 1): void {
    this.change('created', (s) => s);
    this.invoice('paid', 'subscription_create', 0);
    this.checkout(expanded, checkoutAfter);
  }

  private get ended(): boolean {
    return ENDED.has(this.sub.status);
  }

  /** The payment of the invoice for the current period, `after` seconds on. */
  private attempt(paid: boolean, after: number): void {
    this.now += after;
    if (paid) {
      this.invoice('paid', 'subscription_cycle', 999);
      if (this.sub.status !== 'active') this.change('updated', (s) => ({ ...s, status: 'active' }));
    } else {
      this.invoice('payment_failed', 'subscription_cycle', 999);
      if (this.sub.status !== 'past_due') this.change('updated', (s) => ({ ...s, status: 'past_due' }));
    }
  }

  apply(op: Op): void {
    const s = this.sub;
    switch (op.kind) {
      case 'wait':
        this.now += op.seconds;
        return;
      case 'noise':
        if (op.type.startsWith('invoice.')) this.invoice(op.type === 'invoice.created' ? 'created' : 'finalized', 'subscription_cycle', 999);
        else this.emit(op.type, { id: 'cus_1', object: op.type.split('.')[0]! });
        return;
      case 'trialWillEnd':
        if (s.status === 'trialing') this.snapshot('customer.subscription.trial_will_end');
        return;
      case 'cancelAtPeriodEnd':
        if (!this.ended && s.status !== 'paused' && s.cancelAtPeriodEnd !== op.on) this.change('updated', (x, now) => ({ ...x, cancelAtPeriodEnd: op.on, canceledAt: op.on ? now : null }));
        return;
      case 'cancelNow':
        if (!this.ended) this.change('deleted', (x, now) => ({ ...x, status: 'canceled', canceledAt: now }));
        return;
      case 'retry':
        if (s.status === 'past_due') {
          this.now += op.after;
          this.attempt(op.paid, 0);
        }
        return;
      case 'retriesExhausted':
        if (s.status !== 'past_due' || op.then === 'leave') return;
        if (op.then === 'cancel') this.change('deleted', (x, now) => ({ ...x, status: 'canceled', canceledAt: now }));
        else this.change('updated', (x) => ({ ...x, status: 'unpaid' }));
        return;
      case 'payUnpaid':
        if (s.status === 'unpaid') this.attempt(true, 0);
        return;
      case 'resume':
        if (s.status === 'paused') {
          this.change('updated', (x, now) => ({ ...x, status: 'active', start: now, end: now + MONTH }));
          this.invoice('paid', 'subscription_cycle', 999);
        }
        return;
      case 'periodEnd': {
        if (this.ended || s.status === 'paused' || s.status === 'incomplete') return;
        this.now = Math.max(this.now, s.end);
        if (s.cancelAtPeriodEnd) {
          this.change('deleted', (x) => ({ ...x, status: 'canceled' }));
          return;
        }
        if (s.status === 'trialing' && op.outcome === 'pause') {
          this.change('updated', (x) => ({ ...x, status: 'paused' }));
          return;
        }
        // The period moves on; a trial becomes active; then the invoice is tried (not while unpaid).
        this.change('updated', (x) => ({ ...x, status: x.status === 'trialing' ? 'active' : x.status, start: x.end, end: x.end + MONTH }));
        this.invoice('created', 'subscription_cycle', 999);
        if (this.sub.status === 'unpaid') this.invoice('finalized', 'subscription_cycle', 999);
        else this.attempt(op.outcome === 'paid', op.attemptAfter);
        return;
      }
      case 'resubscribe': {
        if (!this.ended) return;
        this.subs += 1;
        const id = `sub_${String(this.subs).padStart(3, '0')}`;
        const now = this.now;
        this.sub = op.trial
          ? { id, created: now, status: 'trialing', trialEnd: now + TRIAL, start: now, end: now + TRIAL, cancelAtPeriodEnd: false, canceledAt: null }
          : { id, created: now, status: 'active', trialEnd: null, start: now, end: now + MONTH, cancelAtPeriodEnd: false, canceledAt: null };
        this.snapshot('customer.subscription.created');
        this.invoice('paid', 'subscription_create', op.trial ? 0 : 999);
        this.checkout(op.expanded, op.checkoutAfter);
        return;
      }
    }
  }

  /** The state Stripe would report, as the row should hold it. */
  expected() {
    const s = this.sub;
    const rowStatus: Record<StripeSubscriptionStatus, string> = {
      trialing: 'trialing',
      active: 'active',
      past_due: 'past_due',
      canceled: 'canceled',
      unpaid: 'incomplete',
      incomplete: 'incomplete',
      incomplete_expired: 'canceled',
      paused: 'incomplete',
    };
    return {
      tier: s.status === 'trialing' || s.status === 'active' || s.status === 'past_due' ? 'pro' : 'free',
      status: rowStatus[s.status],
      stripeStatus: s.status,
      trialEnd: s.trialEnd,
      currentPeriodStart: s.start,
      currentPeriodEnd: s.end,
      cancelAtPeriodEnd: s.cancelAtPeriodEnd,
      stripeSubscriptionId: s.id,
      stripeCustomerId: 'cus_1',
    };
  }
}

function seconds(d: Date | null): number | null {
  return d === null ? null : d.getTime() / 1000;
}

function view(s: SubscriptionState) {
  return {
    tier: s.tier,
    status: s.status,
    stripeStatus: s.stripeStatus,
    trialEnd: seconds(s.trialEnd),
    currentPeriodStart: seconds(s.currentPeriodStart),
    currentPeriodEnd: seconds(s.currentPeriodEnd),
    cancelAtPeriodEnd: s.cancelAtPeriodEnd,
    stripeSubscriptionId: s.stripeSubscriptionId,
    stripeCustomerId: s.stripeCustomerId,
  };
}

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('wait' as const), seconds: fc.constantFrom(0, 0, 1, 1, 2, 59, 3600, DAY, 3 * DAY) }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('periodEnd' as const), outcome: fc.constantFrom('paid' as const, 'paid' as const, 'failed' as const, 'pause' as const), attemptAfter: fc.constantFrom(0, 0, 1, 3600) }), weight: 5 },
  { arbitrary: fc.record({ kind: fc.constant('retry' as const), paid: fc.boolean(), after: fc.constantFrom(0, 1, 3 * DAY) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('retriesExhausted' as const), then: fc.constantFrom('cancel' as const, 'unpaid' as const, 'unpaid' as const, 'leave' as const) }), weight: 3 },
  { arbitrary: fc.constant({ kind: 'payUnpaid' as const }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'resume' as const }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('cancelAtPeriodEnd' as const), on: fc.boolean() }), weight: 3 },
  { arbitrary: fc.constant({ kind: 'cancelNow' as const }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'trialWillEnd' as const }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('noise' as const), type: fc.constantFrom('invoice.created' as const, 'invoice.finalized' as const, 'customer.updated' as const, 'payment_intent.succeeded' as const) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('resubscribe' as const), trial: fc.boolean(), expanded: fc.boolean(), checkoutAfter: fc.constantFrom(0 as const, 1 as const) }), weight: 2 },
);

const historyArb: fc.Arbitrary<History> = fc.record({
  style: fc.constantFrom('legacy' as const, 'items' as const),
  expanded: fc.boolean(),
  checkoutAfter: fc.constantFrom(0 as const, 1 as const),
  ops: fc.array(opArb, { maxLength: 40 }),
});

function simulate(h: History): StripeModel {
  const model = new StripeModel(h.style);
  model.start(h.expanded, h.checkoutAfter);
  for (const op of h.ops) model.apply(op);
  return model;
}

interface Delivery {
  model: StripeModel;
  /** The events in the order delivered, repetitions included. */
  delivered: SubscriptionEventInput[];
  /** Another order of the same events. */
  other: SubscriptionEventInput[];
}

/** A permutation of the events with some delivered again at random places. */
function deliveryArb(events: SubscriptionEventInput[]): fc.Arbitrary<SubscriptionEventInput[]> {
  return fc
    .tuple(
      fc.shuffledSubarray(events, { minLength: events.length, maxLength: events.length }),
      fc.array(fc.tuple(fc.nat({ max: events.length - 1 }), fc.nat()), { maxLength: 12 }),
    )
    .map(([order, again]) => {
      const out = [...order];
      for (const [which, where] of again) out.splice(where % (out.length + 1), 0, events[which]!);
      return out;
    });
}

const scenarioArb: fc.Arbitrary<Delivery> = historyArb.chain((h) => {
  const model = simulate(h);
  return fc.tuple(deliveryArb(model.events), deliveryArb(model.events)).map(([delivered, other]) => ({
    model,
    delivered,
    other,
    // A counterexample as its history and the orders of the events' ids (the events themselves are long).
    [fc.toStringMethod]: () => JSON.stringify({ history: h, delivered: delivered.map((e) => e.id), other: other.map((e) => e.id) }),
  }));
});

function deliver(events: readonly SubscriptionEventInput[]): SubscriptionState {
  return events.reduce<SubscriptionState>((s, e) => applySubscriptionEvent(s, e).state, FREE_STATE);
}

const RUNS = 2000;

describe('a subscription over random Stripe histories, events in any order', () => {
  it(`ends in the state Stripe reports, whatever the order and repetitions (${RUNS} histories)`, () => {
    const seen = { ended: 0, pastDue: 0, unpaid: 0, paused: 0, cancelAtEnd: 0, resubscribed: 0, sameSecondChanges: 0, deferred: 0 };
    fc.assert(
      fc.property(scenarioArb, ({ model, delivered, other }) => {
        const want = model.expected();
        const a = deliver(delivered);
        expect(view(a)).toEqual(want);
        // Another order: the very same state, its watermark too.
        const b = deliver(other);
        expect(sameSubscriptionState(a, b)).toBe(true);

        seen.ended += want.status === 'canceled' ? 1 : 0;
        seen.pastDue += want.stripeStatus === 'past_due' ? 1 : 0;
        seen.unpaid += want.stripeStatus === 'unpaid' ? 1 : 0;
        seen.paused += want.stripeStatus === 'paused' ? 1 : 0;
        seen.cancelAtEnd += want.cancelAtPeriodEnd ? 1 : 0;
        seen.resubscribed += want.stripeSubscriptionId !== 'sub_001' ? 1 : 0;
        // Two different snapshots of a subscription in one second: the tiebreak decides between them.
        const objects = model.events.filter((e) => e.type.startsWith('customer.subscription.'));
        const same = objects.some((e, i) => i > 0 && e.created === objects[i - 1]!.created && JSON.stringify(e.data.object) !== JSON.stringify(objects[i - 1]!.data.object));
        seen.sameSecondChanges += same ? 1 : 0;
        seen.deferred += model.deferred > 0 ? 1 : 0;
      }),
      { numRuns: RUNS },
    );
    // The histories reach every kind of ending (fast-check's runs, shrinking aside).
    for (const [name, n] of Object.entries(seen)) expect(n, name).toBeGreaterThan(RUNS / 100);
  }, 60_000);

  it(`never brings an ended subscription back, nor an older subscription, at any point of any order (${RUNS} histories)`, () => {
    fc.assert(
      fc.property(scenarioArb, ({ model, delivered }) => {
        const created = new Map<string, number>();
        for (const e of model.events) {
          const o = e.data.object as Record<string, unknown>;
          if (o.object === 'subscription') created.set(String(o.id), Number(o.created));
        }
        const ended = new Set<string>();
        let newest = -Infinity;
        let state: SubscriptionState = FREE_STATE;
        for (const e of delivered) {
          const before = state;
          const r = applySubscriptionEvent(state, e);
          state = r.state;
          // Once more: nothing.
          expect(applySubscriptionEvent(state, e).changed).toBe(false);
          const id = state.stripeSubscriptionId;
          if (id === null) continue;
          if (ended.has(id)) expect(state.stripeStatus, `${id} came back`).toBe('canceled');
          if (state.stripeStatus === 'canceled') ended.add(id);
          // The watermark only moves forward while the row follows one subscription.
          if (before.stripeSubscriptionId === id && before.version && state.version) expect(state.version.order >= before.version.order).toBe(true);
          // Once the row has followed a subscription it knows the age of, it never goes back to an older one.
          const age = state.version?.subscriptionCreated ?? null;
          if (age !== null) {
            expect(age).toBeGreaterThanOrEqual(newest);
            expect(age).toBe(created.get(id));
            newest = age;
          }
          // Pro only from a live snapshot of the subscription the row follows.
          expect(state.tier).toBe(state.stripeStatus === 'trialing' || state.stripeStatus === 'active' || state.stripeStatus === 'past_due' ? 'pro' : 'free');
        }
      }),
      { numRuns: RUNS },
    );
  }, 60_000);
});

/**
 * Beyond what Stripe sends: any snapshots at all of one subscription (any status, time,
 * period, trial end, cancel flag, in any combination, however unlikely), checkout links for
 * it, and another subscription's objects. The rules are a last-writer-wins register over
 * them, so every order still ends in the same state; and an ended subscription stays ended
 * even when a live snapshot claims a later time or period (Stripe never sends one; a faulty
 * sender might).
 */
describe('the order over arbitrary snapshots', () => {
  const STATUSES: StripeSubscriptionStatus[] = ['trialing', 'active', 'past_due', 'canceled', 'unpaid', 'incomplete', 'incomplete_expired', 'paused'];
  const CREATED: Record<string, number> = { sub_a: T0 - 10, sub_b: T0 - 5 };

  const objectEventArb = fc.record({
    sub: fc.constantFrom('sub_a', 'sub_a', 'sub_b'),
    type: fc.constantFrom('created', 'updated', 'updated', 'deleted', 'trial_will_end'),
    created: fc.integer({ min: T0, max: T0 + 3 }),
    status: fc.constantFrom(...STATUSES),
    start: fc.constantFrom(T0, T0 + 1),
    length: fc.constantFrom(0, 1, MONTH),
    trialEnd: fc.constantFrom(null, T0 + 5),
    cancel: fc.boolean(),
    customer: fc.constantFrom('cus_1', 'cus_2'),
  });
  const linkEventArb = fc.record({ created: fc.integer({ min: T0, max: T0 + 3 }), payment: fc.constantFrom('paid', 'no_payment_required', 'unpaid') });

  const eventsArb = fc
    .array(fc.oneof({ arbitrary: objectEventArb, weight: 5 }, { arbitrary: linkEventArb, weight: 1 }), { minLength: 1, maxLength: 25 })
    .map((raw) =>
      raw.map((r, i): SubscriptionEventInput => {
        const id = `evt_${String(i).padStart(3, '0')}`;
        if (!('sub' in r)) {
          return { id, type: 'checkout.session.completed', created: r.created, data: { object: { object: 'checkout.session', mode: 'subscription', status: 'complete', payment_status: r.payment, customer: 'cus_1', subscription: 'sub_a' } } };
        }
        const object = {
          id: r.sub,
          object: 'subscription',
          customer: r.customer,
          status: r.status,
          created: CREATED[r.sub],
          trial_end: r.trialEnd,
          current_period_start: r.start,
          current_period_end: r.start + r.length,
          cancel_at_period_end: r.cancel,
          metadata: { user_id: USER },
        };
        return { id, type: `customer.subscription.${r.type}`, created: r.created, data: { object } };
      }),
    );

  const ordersArb = eventsArb.chain((events) => fc.tuple(fc.constant(events), deliveryArb(events), deliveryArb(events)));

  it('ends in the same state in every order (1000 sets of events)', () => {
    fc.assert(
      fc.property(ordersArb, ([, a, b]) => {
        expect(sameSubscriptionState(deliver(a), deliver(b))).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps an ended subscription ended, even against later live snapshots (1000 sets of events)', () => {
    fc.assert(
      fc.property(ordersArb, ([, delivered]) => {
        const ended = new Set<string>();
        let state: SubscriptionState = FREE_STATE;
        for (const e of delivered) {
          state = applySubscriptionEvent(state, e).state;
          expect(applySubscriptionEvent(state, e).changed).toBe(false);
          const id = state.stripeSubscriptionId;
          if (id === null) continue;
          const over = state.stripeStatus === 'canceled' || state.stripeStatus === 'incomplete_expired';
          if (ended.has(id)) expect(over, `${id} came back`).toBe(true);
          if (over) ended.add(id);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
