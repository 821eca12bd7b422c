/**
 * The payout run's rules (run-rules.ts), and a property over 10,000 random histories of orders,
 * refunds, passing time, payout runs (started once or twice, the provider paying, failing,
 * processing or unreachable at random) and late provider events, decided by those rules: each
 * creator is paid at most once per period; paid + on its way + pending = earned, to the cent;
 * a payout holds exactly the earnings before its cut-off that it was made from; creator shares
 * plus house shares = captured - refunded; one email per final status.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LedgerModel, METHOD_TERMS, scenarioArb } from '../../test/payout-model.ts';
import {
  decidePayout,
  isDue,
  nextPeriod,
  parseIdempotencyKey,
  payableBalance,
  payoutFee,
  payoutIdempotencyKey,
  payoutTransition,
  periodAt,
  periodCutoff,
  periodOfMonth,
  type CreatorForRun,
} from './run-rules.ts';

describe('periods', () => {
  it('names a month by its first day; the run of the 1st pays what was earned before it', () => {
    expect(periodOfMonth('2026-11')).toBe('2026-11-01');
    expect(periodOfMonth('2026-11-01')).toBe('2026-11-01');
    for (const bad of ['2026-13', '2026-00', '26-11', '2026-1', '1999-12', '2026-11-02', '', 'now']) expect(periodOfMonth(bad), bad).toBeUndefined();
    expect(periodCutoff('2026-11-01').toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(nextPeriod('2026-11-01')).toBe('2026-12-01');
    expect(nextPeriod('2026-12-01')).toBe('2027-01-01');
    expect(periodAt(new Date('2026-11-26T05:00:00Z'))).toBe('2026-11-01');
    expect(periodAt(new Date('2026-12-01T00:00:00Z'))).toBe('2026-12-01');
    expect(periodAt(new Date('2026-11-30T23:59:59.999Z'))).toBe('2026-11-01');
    expect(isDue('2026-12-01', new Date('2026-11-30T23:59:59.999Z'))).toBe(false);
    expect(isDue('2026-12-01', new Date('2026-12-01T00:00:00Z'))).toBe(true);
  });

  it('pays the earnings made before the cut-off that no payout holds, reversals included', () => {
    const at = (iso: string) => new Date(iso);
    const earnings = [
      { shareCents: 4000, createdAt: at('2026-10-03T10:00:00Z'), payoutId: null },
      { shareCents: 3000, createdAt: at('2026-10-31T23:59:59.999Z'), payoutId: null },
      { shareCents: -1000, createdAt: at('2026-10-15T00:00:00Z'), payoutId: null },
      { shareCents: 9000, createdAt: at('2026-09-15T00:00:00Z'), payoutId: 'p1' },
      { shareCents: 7000, createdAt: at('2026-11-01T00:00:00Z'), payoutId: null },
    ];
    expect(payableBalance(earnings, '2026-11-01')).toBe(6000);
    expect(payableBalance(earnings, '2026-12-01')).toBe(13_000);
  });

  it('makes one idempotency key per creator and period, and reads it back', () => {
    const user = '0b5f6f3e-4c4f-4a53-9f62-6c1c2b0f7a11';
    const key = payoutIdempotencyKey(user, '2026-11-01');
    expect(key).toBe(`${user}:2026-11-01`);
    expect(parseIdempotencyKey(key)).toEqual({ userId: user, period: '2026-11-01' });
    for (const bad of ['x:2026-11-01', `${user}:2026-11`, `${user}:2026-11-01:1`, user, '']) expect(parseIdempotencyKey(bad), bad).toBeUndefined();
  });
});

describe('fees', () => {
  it('takes the basis points rounded half up, plus the fixed fee', () => {
    expect(payoutFee(5000, METHOD_TERMS.paypal)).toBe(145 + 30);
    expect(payoutFee(5000, METHOD_TERMS.ach)).toBe(25 + 25);
    // 2.9 % of 50.17 is 1.45493, of 50.18 is 1.45522.
    expect(payoutFee(5017, METHOD_TERMS.paypal)).toBe(145 + 30);
    expect(payoutFee(5018, METHOD_TERMS.paypal)).toBe(146 + 30);
    // 0.5 % of 51.00 is 0.255: half up.
    expect(payoutFee(5100, METHOD_TERMS.ach)).toBe(26 + 25);
    expect(() => payoutFee(-1, METHOD_TERMS.ach)).toThrow(RangeError);
  });
});

describe('who is paid', () => {
  const creator = (over: Partial<CreatorForRun> = {}): CreatorForRun => ({
    payoutEnabled: true,
    active: true,
    method: 'paypal',
    terms: METHOD_TERMS.paypal,
    thresholdCents: 5000,
    hasDestination: true,
    ...over,
  });

  it('pays a balance at the threshold, the fee deducted from what is owed', () => {
    expect(decidePayout(creator(), 5000)).toEqual({ pay: true, method: 'paypal', amountCents: 5000, feeCents: 175, netCents: 4825 });
    expect(decidePayout(creator(), 4999)).toEqual({ pay: false, reason: 'below-threshold' });
  });

  it('pays nothing while a refund after a payout keeps the balance below the threshold', () => {
    expect(decidePayout(creator(), -2000)).toEqual({ pay: false, reason: 'below-threshold' });
    expect(decidePayout(creator({ thresholdCents: 0 }), 0)).toEqual({ pay: false, reason: 'below-threshold' });
  });

  it("holds to the higher of the creator's threshold and the method's minimum", () => {
    const stripe = creator({ method: 'stripe_connect', terms: METHOD_TERMS.stripe_connect });
    expect(decidePayout({ ...stripe, thresholdCents: 1000 }, 2499).pay).toBe(false);
    expect(decidePayout({ ...stripe, thresholdCents: 1000 }, 2500).pay).toBe(true);
    expect(decidePayout({ ...stripe, thresholdCents: 10_000 }, 9999).pay).toBe(false);
  });

  it('pays nobody without payouts on, an active account, a method, its details, or when the fee would take it all', () => {
    expect(decidePayout(creator({ payoutEnabled: false }), 9000)).toEqual({ pay: false, reason: 'payouts-off' });
    expect(decidePayout(creator({ active: false }), 9000)).toEqual({ pay: false, reason: 'suspended' });
    expect(decidePayout(creator({ method: null, terms: null }), 9000)).toEqual({ pay: false, reason: 'no-method' });
    expect(decidePayout(creator({ terms: { ...METHOD_TERMS.paypal, available: false } }), 9000)).toEqual({ pay: false, reason: 'method-unavailable' });
    expect(decidePayout(creator({ hasDestination: false }), 9000)).toEqual({ pay: false, reason: 'no-destination' });
    const cheap = creator({ thresholdCents: 0, terms: { ...METHOD_TERMS.paypal, minPayoutCents: 0 } });
    expect(decidePayout(cheap, 30)).toEqual({ pay: false, reason: 'fee-not-covered' });
    expect(decidePayout(cheap, 32)).toEqual({ pay: true, method: 'paypal', amountCents: 32, feeCents: 31, netCents: 1 });
  });
});

describe('states', () => {
  it('only move forward; paid and failed are final', () => {
    expect(payoutTransition('pending', 'processing')).toEqual({ to: 'processing', releaseEarnings: false, mail: null });
    expect(payoutTransition('pending', 'paid')).toEqual({ to: 'paid', releaseEarnings: false, mail: 'paid' });
    expect(payoutTransition('processing', 'paid')).toEqual({ to: 'paid', releaseEarnings: false, mail: 'paid' });
    expect(payoutTransition('pending', 'failed')).toEqual({ to: 'failed', releaseEarnings: true, mail: 'failed' });
    expect(payoutTransition('processing', 'failed')).toEqual({ to: 'failed', releaseEarnings: true, mail: 'failed' });
    expect(payoutTransition('processing', 'processing')).toBeUndefined();
    for (const final of ['paid', 'failed'] as const) {
      for (const outcome of ['processing', 'paid', 'failed'] as const) expect(payoutTransition(final, outcome), `${final} ${outcome}`).toBeUndefined();
    }
  });
});

describe('the ledger over random histories', () => {
  it('pays each creator at most once per period, and every cent is earned, paid, on its way or pending (10,000 histories)', () => {
    let runs = 0;
    let payouts = 0;
    let paid = 0;
    let failed = 0;
    let negative = 0;
    fc.assert(
      fc.property(scenarioArb(40), (scenario) => {
        const model = new LedgerModel(scenario.creators);
        for (const op of scenario.ops) {
          model.apply(op);
          model.check();
          if (op.kind === 'run') runs++;
          if (scenario.creators.some((_, c) => model.figures(c).pending < 0)) negative++;
        }
        payouts += model.payouts.length;
        paid += model.payouts.filter((p) => p.status === 'paid').length;
        failed += model.payouts.filter((p) => p.status === 'failed').length;
      }),
      { numRuns: 10_000 },
    );
    // The histories reach what the rules are about: runs that pay, payouts that fail, balances below zero.
    expect(runs).toBeGreaterThan(10_000);
    expect(paid).toBeGreaterThan(1000);
    expect(failed).toBeGreaterThan(100);
    expect(negative).toBeGreaterThan(100);
    expect(payouts).toBeGreaterThan(paid + failed);
  });
});
