/**
 * The monthly payout run's decisions, as pure functions over plain data: the run (run.ts) takes
 * them as they are, and the property test (run-rules.unit.test.ts) drives them through
 * thousands of random histories. All money is integer cents.
 *
 * Periods. A period is a month, written as its first day ('2026-11-01'). The run of the 1st of
 * month M (00:00 UTC) has period M and pays the earnings created before M's first instant, that
 * is up to the end of month M-1; an earning created on the 1st itself waits for the next run.
 * One payout per creator per period (payouts UNIQUE (user_id, period)).
 *
 * The balance. A creator's pending balance is the sum of their earning records (sales
 * positive, reversals negative) that no payout holds; a failed payout lets go of its records,
 * so they are pending again and the next period's payout takes them. A refund after a payout
 * makes the balance negative: later earnings pay it off first, as no payout goes out while the
 * balance is below the threshold.
 *
 * Fees. fee = amount x the method's basis points / 10,000, rounded half up to the cent, plus its
 * fixed fee. amount_cents is what the creator is owed (the balance paid out); the fee is deducted
 * from it, so the provider sends amount - fee.
 */
import type { Cents } from '../../../shared/money.ts';
import type { PayoutMethodName } from '../../../shared/schemas/payouts.ts';

/** A month as its first day, YYYY-MM-01. */
export type Period = string;

const MONTH = /^([0-9]{4})-(0[1-9]|1[0-2])(?:-01)?$/;

/** 'YYYY-MM' (or 'YYYY-MM-01') as a period; undefined when it is not a month of the years 2000 to 2999. */
export function periodOfMonth(text: string): Period | undefined {
  const m = MONTH.exec(text.trim());
  if (!m || !m[1]!.startsWith('2')) return undefined;
  return `${m[1]}-${m[2]}-01`;
}

function parts(period: Period): [number, number] {
  const m = MONTH.exec(period);
  if (!m) throw new RangeError(`not a period: ${period}`);
  return [Number(m[1]), Number(m[2]) - 1];
}

function periodFrom(year: number, monthIndex: number): Period {
  const d = new Date(Date.UTC(year, monthIndex, 1));
  return `${String(d.getUTCFullYear()).padStart(4, '0')}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-01`;
}

/** The period's first instant (UTC): its run is due then, and pays the earnings created before it. */
export function periodCutoff(period: Period): Date {
  const [y, m] = parts(period);
  return new Date(Date.UTC(y, m, 1));
}

export function nextPeriod(period: Period): Period {
  const [y, m] = parts(period);
  return periodFrom(y, m + 1);
}

/** The period whose run is the latest one due at `now`: the first of now's month (UTC). */
export function periodAt(now: Date): Period {
  return periodFrom(now.getUTCFullYear(), now.getUTCMonth());
}

/** Whether the period's run may start at `now` (its cut-off has passed). */
export function isDue(period: Period, now: Date): boolean {
  return periodCutoff(period).getTime() <= now.getTime();
}

/** One per creator and period: the provider's idempotency key (PayPal's sender_batch_id, Stripe's Idempotency-Key). */
export function payoutIdempotencyKey(userId: string, period: Period): string {
  return `${userId}:${period}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The creator and period an idempotency key names, or undefined when it is not one of ours. */
export function parseIdempotencyKey(key: string): { userId: string; period: Period } | undefined {
  const [userId, period, ...rest] = key.split(':');
  if (rest.length > 0 || !userId || !period || !UUID.test(userId)) return undefined;
  return periodOfMonth(period) === period ? { userId: userId.toLowerCase(), period } : undefined;
}

/**
 * The key of one attempt at sending a payout. The first attempt's is the period's key; a
 * failed payout an admin retries goes out again under `${key}:retry${n}`, a new request the
 * provider pays on its own, while the failed attempt stays failed with it.
 */
export function payoutAttemptKey(userId: string, period: Period, attempt: number): string {
  const key = payoutIdempotencyKey(userId, period);
  return attempt <= 1 ? key : `${key}:retry${attempt}`;
}

const RETRY_SUFFIX = /^(.+):retry([2-9]|[1-9][0-9]{1,3})$/;

/** The creator, period and attempt a key names (a first attempt's key is attempt 1), or undefined when it is not one of ours. */
export function parsePayoutAttemptKey(key: string): { userId: string; period: Period; attempt: number } | undefined {
  const first = parseIdempotencyKey(key);
  if (first) return { ...first, attempt: 1 };
  const m = RETRY_SUFFIX.exec(key);
  const named = m ? parseIdempotencyKey(m[1]!) : undefined;
  return named && { ...named, attempt: Number(m![2]) };
}

/** A method's terms, from payment_method_options. */
export interface MethodTerms {
  feeBasisPoints: number;
  feeFixedCents: Cents;
  minPayoutCents: Cents;
  available: boolean;
}

/** The method's fee on an amount: basis points rounded half up to the cent, plus the fixed fee. */
export function payoutFee(amountCents: Cents, terms: Pick<MethodTerms, 'feeBasisPoints' | 'feeFixedCents'>): Cents {
  if (!Number.isSafeInteger(amountCents) || amountCents < 0) throw new RangeError('amount must be whole, non-negative cents');
  return Math.floor((amountCents * terms.feeBasisPoints + 5000) / 10_000) + terms.feeFixedCents;
}

/** What the run knows of a creator when it decides. */
export interface CreatorForRun {
  payoutEnabled: boolean;
  /** Not suspended: a suspended creator's payouts wait until they are active again. */
  active: boolean;
  method: PayoutMethodName | null;
  /** The chosen method's terms (null when the method is unknown). */
  terms: MethodTerms | null;
  thresholdCents: Cents;
  /** The chosen method's details are there: a PayPal email, a bank account, an active Stripe account. */
  hasDestination: boolean;
}

export type SkipReason = 'payouts-off' | 'suspended' | 'no-method' | 'method-unavailable' | 'no-destination' | 'below-threshold' | 'fee-not-covered';

export type PayoutDecision =
  | { pay: true; method: PayoutMethodName; amountCents: Cents; feeCents: Cents; netCents: Cents }
  | { pay: false; reason: SkipReason };

/**
 * Whether a creator is paid their balance this run: payouts on, a method with its details, and
 * a balance at or above both their threshold and the method's minimum. A balance whose fee
 * would take all of it is not paid (it can only happen with a threshold below the fee).
 */
export function decidePayout(creator: CreatorForRun, balanceCents: Cents): PayoutDecision {
  if (!creator.payoutEnabled) return { pay: false, reason: 'payouts-off' };
  if (!creator.active) return { pay: false, reason: 'suspended' };
  if (!creator.method || !creator.terms) return { pay: false, reason: 'no-method' };
  if (!creator.terms.available) return { pay: false, reason: 'method-unavailable' };
  if (!creator.hasDestination) return { pay: false, reason: 'no-destination' };
  const floor = Math.max(creator.thresholdCents, creator.terms.minPayoutCents, 1);
  if (!(balanceCents >= floor)) return { pay: false, reason: 'below-threshold' };
  const feeCents = payoutFee(balanceCents, creator.terms);
  if (feeCents >= balanceCents) return { pay: false, reason: 'fee-not-covered' };
  return { pay: true, method: creator.method, amountCents: balanceCents, feeCents, netCents: balanceCents - feeCents };
}

export type PayoutStatus = 'pending' | 'processing' | 'paid' | 'failed';
/** What a provider reports: when it takes the request (a submission) or later (an event). */
export type PayoutOutcome = 'processing' | 'paid' | 'failed';

export interface PayoutTransition {
  to: PayoutStatus;
  /** The payout lets go of its earning records: they are pending again, for the next period's payout. */
  releaseEarnings: boolean;
  /** The creator's email about it, once per payout and status. */
  mail: 'paid' | 'failed' | null;
}

/**
 * The payout's states only move forward: pending -> processing -> paid or failed (or pending
 * straight to paid or failed); paid and failed are final. Undefined: the report changes nothing
 * (a repeated or late report, or one that would move the payout backwards).
 */
export function payoutTransition(from: PayoutStatus, outcome: PayoutOutcome): PayoutTransition | undefined {
  if (from === 'paid' || from === 'failed') return undefined;
  switch (outcome) {
    case 'processing':
      return from === 'pending' ? { to: 'processing', releaseEarnings: false, mail: null } : undefined;
    case 'paid':
      return { to: 'paid', releaseEarnings: false, mail: 'paid' };
    case 'failed':
      return { to: 'failed', releaseEarnings: true, mail: 'failed' };
  }
}

/** One earning record as the pure ledger sees it. */
export interface LedgerEarning {
  shareCents: Cents;
  createdAt: Date;
  /** The payout holding it, if any. */
  payoutId: string | null;
}

/** The part of a creator's balance a run for the period may pay: records created before its cut-off that no payout holds. */
export function payableBalance(earnings: readonly LedgerEarning[], period: Period): Cents {
  const cutoff = periodCutoff(period).getTime();
  let cents = 0;
  for (const e of earnings) if (e.payoutId === null && e.createdAt.getTime() < cutoff) cents += e.shareCents;
  return cents;
}
