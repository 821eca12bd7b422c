/**
 * A model of the creators' ledger for the payout property tests: random histories of orders,
 * refunds, passing time, payout runs (with a provider that pays, fails, keeps it processing or
 * cannot be reached, at random) and late provider events. The model decides with the same pure
 * rules as the service (modules/payouts/run-rules.ts) over plain arrays; the unit test checks
 * its invariants over 10,000 histories, and the database test plays smaller histories through
 * the real service and requires the database to end where the model does.
 */
import fc from 'fast-check';
import { CREATOR_SHARE_PERCENT } from '../../shared/constants.ts';
import { splitMargin } from '../../shared/money.ts';
import type { PayoutMethodName } from '../../shared/schemas/payouts.ts';
import {
  decidePayout,
  nextPeriod,
  payableBalance,
  payoutFee,
  payoutIdempotencyKey,
  payoutTransition,
  periodAt,
  periodCutoff,
  type MethodTerms,
  type PayoutOutcome,
  type PayoutStatus,
  type Period,
} from '../modules/payouts/run-rules.ts';

/** payment_method_options as migration 0001 seeds it. */
export const METHOD_TERMS: Record<PayoutMethodName, MethodTerms> = {
  paypal: { feeBasisPoints: 290, feeFixedCents: 30, minPayoutCents: 5000, available: true },
  ach: { feeBasisPoints: 50, feeFixedCents: 25, minPayoutCents: 5000, available: true },
  stripe_connect: { feeBasisPoints: 290, feeFixedCents: 30, minPayoutCents: 2500, available: true },
};

/** What the provider answers a submission: an outcome, or 'error' (not reached: nothing taken). */
export type SubmitAnswer = PayoutOutcome | 'error';

export interface CreatorSpec {
  thresholdCents: number;
  method: PayoutMethodName;
  enabled: boolean;
}

export type Op =
  | { kind: 'order'; creator: number; marginCents: number }
  | { kind: 'refund'; order: number }
  | { kind: 'tick'; hours: number }
  /**
   * A run of the period `monthsBack` before the current one, after moving the clock to the next
   * 1st (00:00 UTC) when `onTheFirst`; `twice`: a second start of the same run right after.
   */
  | { kind: 'run'; onTheFirst: boolean; monthsBack: number; answers: SubmitAnswer[]; twice: boolean }
  | { kind: 'event'; payout: number; status: 'paid' | 'failed' };

export interface Scenario {
  creators: CreatorSpec[];
  ops: Op[];
}

export const MODEL_START = new Date('2026-01-10T12:00:00Z');

const creatorArb: fc.Arbitrary<CreatorSpec> = fc.record({
  thresholdCents: fc.constantFrom(0, 2500, 5000, 5000, 10_000),
  method: fc.constantFrom<PayoutMethodName>('paypal', 'ach', 'stripe_connect'),
  enabled: fc.constantFrom(true, true, true, false),
});

const answerArb = fc.constantFrom<SubmitAnswer>('paid', 'paid', 'processing', 'failed', 'error');

function opArb(creators: number): fc.Arbitrary<Op> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.record({ kind: fc.constant('order' as const), creator: fc.nat({ max: creators - 1 }), marginCents: fc.integer({ min: 0, max: 25_000 }) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('refund' as const), order: fc.nat({ max: 1000 }) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('tick' as const), hours: fc.integer({ min: 1, max: 24 * 45 }) }) },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('run' as const),
        onTheFirst: fc.constantFrom(true, true, true, false),
        monthsBack: fc.constantFrom(0, 0, 0, 1, 2),
        answers: fc.array(answerArb, { minLength: creators, maxLength: creators }),
        twice: fc.boolean(),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('event' as const), payout: fc.nat({ max: 1000 }), status: fc.constantFrom<'paid' | 'failed'>('paid', 'failed') }) },
  );
}

export function scenarioArb(maxOps: number, maxCreators = 4): fc.Arbitrary<Scenario> {
  return fc
    .array(creatorArb, { minLength: 1, maxLength: maxCreators })
    .chain((creators) => fc.record({ creators: fc.constant(creators), ops: fc.array(opArb(creators.length), { maxLength: maxOps, size: 'max' }) }));
}

export interface ModelOrder {
  creator: number;
  marginCents: number;
  creatorShareCents: number;
  houseShareCents: number;
  refunded: boolean;
}

export interface ModelEarning {
  creator: number;
  shareCents: number;
  createdAt: Date;
  payout: number | null;
}

export interface ModelPayout {
  creator: number;
  period: Period;
  amountCents: number;
  feeCents: number;
  status: PayoutStatus;
  /** Indexes into earnings, while it holds them. */
  earnings: number[];
  /** Emails queued for it. */
  mails: Array<'paid' | 'failed'>;
}

/** The period after the one `now` is in. */
export function nextPeriodOf(now: Date): Period {
  return nextPeriod(periodAt(now));
}

/** The period a run op names at `now`. */
export function runPeriod(now: Date, monthsBack: number): Period {
  let period = periodAt(now);
  for (let i = 0; i < monthsBack; i++) {
    const d = periodCutoff(period);
    period = periodAt(new Date(d.getTime() - 1));
  }
  return period;
}

export class LedgerModel {
  now = new Date(MODEL_START);
  readonly orders: ModelOrder[] = [];
  readonly earnings: ModelEarning[] = [];
  readonly payouts: ModelPayout[] = [];
  /** What the provider took, by idempotency key: a key sent again gets the same answer and pays nothing more. */
  readonly provider = new Map<string, PayoutOutcome>();
  /** Every submission the provider saw, in order. */
  readonly submissions: string[] = [];

  constructor(readonly creators: CreatorSpec[]) {}

  apply(op: Op): void {
    switch (op.kind) {
      case 'order':
        return this.order(op.creator, op.marginCents);
      case 'refund':
        return this.refund(op.order);
      case 'tick':
        this.now = new Date(this.now.getTime() + op.hours * 3_600_000);
        return;
      case 'run': {
        if (op.onTheFirst) this.now = periodCutoff(nextPeriodOf(this.now));
        const period = runPeriod(this.now, op.monthsBack);
        this.run(period, op.answers);
        if (op.twice) this.run(period, op.answers);
        return;
      }
      case 'event':
        return this.event(op.payout, op.status);
    }
  }

  order(creator: number, marginCents: number): void {
    const split = splitMargin(marginCents, CREATOR_SHARE_PERCENT);
    this.orders.push({ creator, marginCents, creatorShareCents: split.creator, houseShareCents: split.house, refunded: false });
    this.earnings.push({ creator, shareCents: split.creator, createdAt: new Date(this.now), payout: null });
  }

  /** The refund op's order: an earlier order by index (modulo), or none yet. */
  refundTarget(index: number): number | undefined {
    return this.orders.length === 0 ? undefined : index % this.orders.length;
  }

  refund(index: number): void {
    const i = this.refundTarget(index);
    if (i === undefined || this.orders[i]!.refunded) return;
    const o = this.orders[i]!;
    o.refunded = true;
    this.earnings.push({ creator: o.creator, shareCents: -o.creatorShareCents, createdAt: new Date(this.now), payout: null });
  }

  ledgerOf(creator: number) {
    return this.earnings.filter((e) => e.creator === creator).map((e) => ({ shareCents: e.shareCents, createdAt: e.createdAt, payoutId: e.payout === null ? null : String(e.payout) }));
  }

  run(period: Period, answers: SubmitAnswer[]): void {
    const cutoff = periodCutoff(period).getTime();
    this.creators.forEach((c, creator) => {
      const balance = payableBalance(this.ledgerOf(creator), period);
      const decision = decidePayout(
        { payoutEnabled: c.enabled, active: true, method: c.method, terms: METHOD_TERMS[c.method], thresholdCents: c.thresholdCents, hasDestination: true },
        balance,
      );
      if (!decision.pay || this.payouts.some((p) => p.creator === creator && p.period === period)) return;
      const id = this.payouts.length;
      const held: number[] = [];
      this.earnings.forEach((e, i) => {
        if (e.creator === creator && e.payout === null && e.createdAt.getTime() < cutoff) {
          e.payout = id;
          held.push(i);
        }
      });
      this.payouts.push({ creator, period, amountCents: decision.amountCents, feeCents: decision.feeCents, status: 'pending', earnings: held, mails: [] });
    });
    this.payouts.forEach((p, id) => {
      if (p.status !== 'pending') return;
      const answer = answers[p.creator]!;
      if (answer === 'error') return;
      const key = this.keyOf(p);
      this.submissions.push(key);
      const taken = this.provider.get(key) ?? answer;
      this.provider.set(key, taken);
      this.move(id, taken);
    });
  }

  event(index: number, status: 'paid' | 'failed'): void {
    if (this.payouts.length === 0) return;
    this.move(index % this.payouts.length, status);
  }

  eventTarget(index: number): number | undefined {
    return this.payouts.length === 0 ? undefined : index % this.payouts.length;
  }

  keyOf(p: ModelPayout): string {
    return payoutIdempotencyKey(`creator-${p.creator}`, p.period);
  }

  move(id: number, outcome: PayoutOutcome): void {
    const p = this.payouts[id]!;
    const t = payoutTransition(p.status, outcome);
    if (!t) return;
    p.status = t.to;
    if (t.releaseEarnings) {
      for (const i of p.earnings) this.earnings[i]!.payout = null;
      p.earnings = [];
    }
    if (t.mail) p.mails.push(t.mail);
  }

  /** The creator's figures: what their earnings add up to, what was paid, what is on its way, what is pending. */
  figures(creator: number) {
    const mine = this.earnings.filter((e) => e.creator === creator);
    const total = mine.reduce((s, e) => s + e.shareCents, 0);
    const pending = mine.filter((e) => e.payout === null).reduce((s, e) => s + e.shareCents, 0);
    const payouts = this.payouts.filter((p) => p.creator === creator);
    const paid = payouts.filter((p) => p.status === 'paid').reduce((s, p) => s + p.amountCents, 0);
    const inFlight = payouts.filter((p) => p.status === 'pending' || p.status === 'processing').reduce((s, p) => s + p.amountCents, 0);
    return { total, pending, paid, inFlight };
  }

  /** Throws at the first broken rule. */
  check(): void {
    const fail = (message: string) => {
      throw new Error(message);
    };
    const seen = new Set<string>();
    for (const p of this.payouts) {
      const key = this.keyOf(p);
      if (seen.has(key)) fail(`two payouts for ${key}`);
      seen.add(key);
      const c = this.creators[p.creator]!;
      const terms = METHOD_TERMS[c.method];
      if (p.amountCents < Math.max(c.thresholdCents, terms.minPayoutCents, 1)) fail(`${key}: ${p.amountCents} is below the threshold`);
      if (p.feeCents !== payoutFee(p.amountCents, terms) || p.feeCents >= p.amountCents) fail(`${key}: fee ${p.feeCents} on ${p.amountCents}`);
      if (p.status === 'failed') {
        if (p.earnings.length > 0) fail(`${key}: failed but still holds earnings`);
      } else {
        const held = p.earnings.reduce((s, i) => s + this.earnings[i]!.shareCents, 0);
        if (held !== p.amountCents) fail(`${key}: holds ${held}, amount ${p.amountCents}`);
        const cutoff = periodCutoff(p.period).getTime();
        if (p.earnings.some((i) => this.earnings[i]!.createdAt.getTime() >= cutoff)) fail(`${key}: holds an earning made after its cut-off`);
      }
    }
    // Each earning is held by the payout it names, and by no other.
    this.earnings.forEach((e, i) => {
      const holders = this.payouts.filter((p) => p.earnings.includes(i)).length;
      if (holders !== (e.payout === null ? 0 : 1) || (e.payout !== null && !this.payouts[e.payout]!.earnings.includes(i))) fail(`earning ${i} held ${holders} times`);
    });
    // Paid at most once per creator and period, and paid + on its way + pending = earned, to the cent.
    for (let c = 0; c < this.creators.length; c++) {
      const f = this.figures(c);
      if (f.paid + f.inFlight + f.pending !== f.total) fail(`creator ${c}: paid ${f.paid} + in flight ${f.inFlight} + pending ${f.pending} != earned ${f.total}`);
    }
    // Creator shares plus house shares are what was captured less what was refunded.
    const captured = this.orders.reduce((s, o) => s + o.marginCents, 0);
    const refunded = this.orders.filter((o) => o.refunded).reduce((s, o) => s + o.marginCents, 0);
    const shares = this.earnings.reduce((s, e) => s + e.shareCents, 0);
    const house = this.orders.filter((o) => !o.refunded).reduce((s, o) => s + o.houseShareCents, 0);
    if (shares + house !== captured - refunded) fail(`shares ${shares} + house ${house} != captured ${captured} - refunded ${refunded}`);
    for (const o of this.orders) if (o.creatorShareCents + o.houseShareCents !== o.marginCents) fail('a split does not add up');
    // One email per payout and final status.
    for (const p of this.payouts) {
      const want = p.status === 'paid' ? ['paid'] : p.status === 'failed' ? ['failed'] : [];
      if (p.mails.join() !== want.join()) fail(`${this.keyOf(p)}: mails ${p.mails.join()} for ${p.status}`);
    }
  }
}
