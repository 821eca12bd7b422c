/**
 * The monthly payout run and the payouts' outcomes. The decisions are the pure functions of
 * run-rules.ts (periods, thresholds, fees, state moves); this file holds the transactions.
 *
 * A run for a period has two phases, each safe to repeat, to run twice at once and to stop at
 * any point:
 *  1. Make the payouts. For each creator who may be paid, one transaction locks the creator's
 *     row, sums their unheld earning records created before the cut-off, decides, inserts the
 *     period's payout (INSERT ... ON CONFLICT (user_id, period) DO NOTHING: a second run finds
 *     it there and does nothing) and hands those records to it, taking the amount off
 *     users.pending_payout_cents. A stop mid-way leaves each creator with the whole payout or
 *     none.
 *  2. Send every pending payout (of any period: what a stopped run left is sent by the next)
 *     through the provider of its method, with the idempotency key `${userId}:${period}`: a
 *     payout sent again after a stop, or by two runs at once, is paid once by the provider.
 *     The provider's answer moves it forward only (pending -> processing -> paid or failed).
 *     A provider that cannot be reached leaves it pending, for the job's next attempt.
 * A failed payout lets go of its earning records and gives their sum back to the pending
 * balance; being final, it is not sent again: the next period's payout takes those records.
 * Paid sets the payout's date and the creator's last_payout_date. The creator is emailed when a
 * payout is paid and when it fails, in the transaction that records it. An admin may send a
 * failed payout again (admin.ts retryPayout): it takes its earnings back and goes out through
 * sendPayoutNow under its next attempt's key (run-rules.ts payoutAttemptKey); an event about an
 * earlier attempt changes nothing.
 */
import type { Kysely } from 'kysely';
import type { PayoutMethodName } from '../../../shared/schemas/payouts.ts';
import { PAYOUT_RUN_MESSAGES } from '../../../shared/schemas/payouts.ts';
import type { PayoutDestination, PayoutEvent, PayoutProvider } from '../../integrations/payouts/index.ts';
import type { DB } from '../../platform/db/schema.ts';
import { AppError } from '../../platform/http/errors.ts';
import { enqueueJob, JOB_KINDS } from '../../platform/jobs/enqueue.ts';
import { queuePayoutMail, safeReason } from './payout-mail.ts';
import * as repo from './repository.ts';
import {
  decidePayout,
  isDue,
  nextPeriod,
  parsePayoutAttemptKey,
  payoutAttemptKey,
  payoutIdempotencyKey,
  payoutTransition,
  periodAt,
  periodCutoff,
  type CreatorForRun,
  type PayoutOutcome,
  type PayoutStatus,
  type Period,
  type SkipReason,
} from './run-rules.ts';
import { bankAccountOf, type Opener } from './service.ts';

/** The provider that sends a method's payouts; undefined while none is configured (its payouts wait, pending). */
export type ProviderFor = (method: PayoutMethodName) => PayoutProvider | undefined;

export interface PayoutOutcomeDeps {
  db: Kysely<DB>;
  /** For the link in the failure email. */
  publicUrl?: string;
  now?: () => Date;
  /** One line per step; never a bank number or an address. */
  log?: (line: string) => void;
}

export interface PayoutRunDeps extends PayoutOutcomeDeps {
  /** Opens the sealed bank numbers of ACH payouts (app.sealedValues). */
  opener: Opener;
  providerFor: ProviderFor;
}

export interface PayoutRunSummary {
  period: Period;
  /** Payouts this run made. */
  created: number;
  /** Creators looked at and not paid this run (below the threshold, already paid this period...). */
  skipped: number;
  /** Payouts handed to a provider. */
  submitted: number;
  /** Of those, what the providers answered at once. */
  processing: number;
  paid: number;
  failed: number;
  /** Pending payouts whose method has no provider configured: sent by a later run. */
  waiting: number;
  /** Payouts that could not be made or submitted just now (a provider unreachable, say): tried again by the job. */
  errors: number;
}

const BATCH = 200;
const DEFAULT_CONCURRENCY = 4;

const nowOf = (deps: PayoutOutcomeDeps) => (deps.now ? deps.now() : new Date());
const dayOf = (d: Date) => d.toISOString().slice(0, 10);

type LockedCreator = NonNullable<Awaited<ReturnType<typeof repo.lockCreatorForPayout>>>;

/** Whether the chosen method's details are all there (a Stripe account must have finished onboarding). */
function hasDestination(row: LockedCreator): boolean {
  switch (row.preferred_payment_method) {
    case 'paypal':
      return row.paypal_email !== null;
    case 'ach':
      return row.ach_routing_number_encrypted !== null && row.ach_account_number_encrypted !== null;
    case 'stripe_connect':
      return row.stripe_connect_account_id !== null && row.stripe_connect_status === 'active';
    case null:
      return false;
  }
}

export function creatorForRun(row: LockedCreator): CreatorForRun {
  return {
    payoutEnabled: row.payout_enabled,
    active: row.status === 'active',
    method: row.preferred_payment_method,
    terms:
      row.fees_basis_points === null || row.fees_fixed_cents === null || row.min_payout_cents === null || row.is_available === null
        ? null
        : { feeBasisPoints: row.fees_basis_points, feeFixedCents: row.fees_fixed_cents, minPayoutCents: row.min_payout_cents, available: row.is_available },
    thresholdCents: Number(row.payout_threshold_cents),
    hasDestination: hasDestination(row),
  };
}

type MadeOrNot = { made: true; payoutId: string; amountCents: number } | { made: false; reason: SkipReason | 'already-made' | 'no-user' };

/** Phase 1 for one creator, in one transaction: the period's payout with their unheld earnings before its cut-off, or nothing. */
export async function makePayout(deps: Pick<PayoutRunDeps, 'db' | 'now'>, userId: string, period: Period): Promise<MadeOrNot> {
  const cutoff = periodCutoff(period);
  return deps.db.transaction().execute(async (trx): Promise<MadeOrNot> => {
    const creator = await repo.lockCreatorForPayout(trx, userId);
    if (!creator) return { made: false, reason: 'no-user' };
    const unheld = await repo.unheldEarnings(trx, userId, cutoff);
    const decision = decidePayout(creatorForRun(creator), unheld.cents);
    if (!decision.pay) return { made: false, reason: decision.reason };
    const payoutId = await repo.insertPayoutOnce(trx, {
      userId,
      period,
      method: decision.method,
      amountCents: decision.amountCents,
      feeCents: decision.feeCents,
      payoutDate: dayOf(nowOf(deps)),
    });
    if (!payoutId) return { made: false, reason: 'already-made' };
    const taken = await repo.assignEarnings(trx, userId, payoutId, cutoff);
    // The creator's lock holds back every earning that moves their balance (its writer updates their row);
    // should the sum still differ, nothing is kept. (A record of 0 cents may slip in: it changes nothing.)
    if (taken.cents !== unheld.cents) throw new Error(`the earnings of ${userId} changed while their payout was made`);
    await repo.addToPendingPayout(trx, userId, -taken.cents);
    return { made: true, payoutId, amountCents: taken.cents };
  });
}

/** Where a payout goes, from the creator's saved details for its method; undefined when they are missing. */
async function destinationOf(deps: PayoutRunDeps, userId: string, method: PayoutMethodName): Promise<PayoutDestination | undefined> {
  if (method === 'ach') {
    const bank = await bankAccountOf(deps.db, deps.opener, userId);
    return bank && { method: 'ach', ...bank };
  }
  const row = await repo.payoutDestinationRow(deps.db, userId);
  if (method === 'paypal') return row?.paypal_email ? { method: 'paypal', paypalEmail: row.paypal_email } : undefined;
  return row?.stripe_connect_account_id && row.stripe_connect_status === 'active' ? { method: 'stripe_connect', accountId: row.stripe_connect_account_id } : undefined;
}

export type RecordResult = { applied: true; payoutId: string; status: PayoutStatus } | { applied: false; payoutId: string; status: PayoutStatus | undefined };

/**
 * Records what a provider said of a payout, once: in one transaction (the creator's row locked,
 * then the payout's) the state moves forward if it may, a failure gives the earnings back, a
 * payment sets the dates, and the creator's email is queued. Anything else changes nothing.
 */
export async function recordPayoutOutcome(
  deps: PayoutOutcomeDeps,
  payoutId: string,
  outcome: PayoutOutcome,
  details: { providerReference?: string; failureReason?: string; at?: Date; attempt?: number } = {},
): Promise<RecordResult> {
  return deps.db.transaction().execute(async (trx): Promise<RecordResult> => {
    const seen = await repo.findPayout(trx, payoutId);
    if (!seen) return { applied: false, payoutId, status: undefined };
    if (seen.user_id) await repo.lockCreator(trx, seen.user_id);
    const payout = (await repo.lockPayout(trx, payoutId))!;
    // An answer about another attempt than the payout's current one (sent again by an admin meanwhile) is not its outcome.
    if (details.attempt !== undefined && details.attempt !== payout.attempt) return { applied: false, payoutId, status: payout.status };
    const move = payoutTransition(payout.status, outcome);
    if (!move) return { applied: false, payoutId, status: payout.status };
    const day = dayOf(details.at ?? nowOf(deps));
    const moved = await repo.movePayout(trx, payoutId, payout.status, move.to, {
      providerReference: details.providerReference,
      payoutDate: move.to === 'paid' ? day : undefined,
      failureReason: move.to === 'failed' ? safeReason(details.failureReason) : undefined,
    });
    if (!moved) return { applied: false, payoutId, status: payout.status };
    if (move.releaseEarnings) {
      const released = await repo.releaseEarnings(trx, payoutId);
      if (payout.user_id) await repo.addToPendingPayout(trx, payout.user_id, released.cents);
    }
    if (move.to === 'paid' && payout.user_id) await repo.recordLastPayoutDate(trx, payout.user_id, day);
    if (move.mail) await queuePayoutMail(trx, payoutId, move.mail, { failureReason: details.failureReason, publicUrl: deps.publicUrl, attempt: payout.attempt });
    return { applied: true, payoutId, status: move.to };
  });
}

export type Sent = 'processing' | 'paid' | 'failed' | 'waiting' | 'error' | 'unchanged';

/** Phase 2 for one pending payout. */
async function sendPayout(deps: PayoutRunDeps, payout: Awaited<ReturnType<typeof repo.pendingPayouts>>[number]): Promise<Sent> {
  const log = deps.log ?? (() => {});
  if (!payout.user_id) {
    // The creator deleted their account before it went out: nobody to send it to.
    const r = await recordPayoutOutcome(deps, payout.id, 'failed', { failureReason: 'The account was deleted.', attempt: payout.attempt });
    return r.applied ? 'failed' : 'unchanged';
  }
  const key = payoutAttemptKey(payout.user_id, payout.period, payout.attempt);
  const provider = deps.providerFor(payout.method);
  if (!provider) {
    log(`payout ${key}: no provider for ${payout.method} yet, left pending`);
    return 'waiting';
  }
  const destination = await destinationOf(deps, payout.user_id, payout.method);
  if (!destination) {
    const r = await recordPayoutOutcome(deps, payout.id, 'failed', { failureReason: 'The payout details for this method are missing.', attempt: payout.attempt });
    log(`payout ${key}: no ${payout.method} details, failed`);
    return r.applied ? 'failed' : 'unchanged';
  }
  log(`payout ${key}: submitting`);
  let submission;
  try {
    submission = await provider.submit({
      payoutId: payout.id,
      idempotencyKey: key,
      userId: payout.user_id,
      period: payout.period,
      // What the creator receives: the amount owed less the method's fee.
      amountCents: Number(payout.amount_cents) - Number(payout.fee_cents),
      currency: 'USD',
      destination,
    });
  } catch (err) {
    log(`payout ${key}: not submitted (${(err as Error)?.name ?? 'error'}), left pending`);
    return 'error';
  }
  const r = await recordPayoutOutcome(deps, payout.id, submission.status, {
    providerReference: submission.providerReference,
    failureReason: submission.failureReason,
    attempt: payout.attempt,
  });
  log(`payout ${key}: ${submission.status}${r.applied ? '' : ' (already recorded)'}`);
  return r.applied ? submission.status : 'unchanged';
}

/** Runs `work` over the items, at most `concurrency` at a time. */
async function eachLimited<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
}

/** Sends one payout now if it is pending (an admin's retry), as phase 2 sends each. */
export async function sendPayoutNow(deps: PayoutRunDeps, payoutId: string): Promise<Sent> {
  const payout = await repo.findPayout(deps.db, payoutId);
  if (payout?.status !== 'pending') return 'unchanged';
  try {
    return await sendPayout(deps, payout);
  } catch (err) {
    // Its details could not be read, or its outcome not recorded: it stays pending, for the next run.
    deps.log?.(`payout ${payoutId}: not sent (${(err as Error)?.name ?? 'error'})`);
    return 'error';
  }
}

/** Phase 2: sends every pending payout, in batches. */
export async function sendPendingPayouts(deps: PayoutRunDeps, summary: PayoutRunSummary, concurrency = DEFAULT_CONCURRENCY): Promise<void> {
  let after: string | null = null;
  for (;;) {
    const batch = await repo.pendingPayouts(deps.db, after, BATCH);
    if (batch.length === 0) return;
    after = batch.at(-1)!.id;
    await eachLimited(batch, concurrency, async (payout) => {
      let sent: Sent;
      try {
        sent = await sendPayout(deps, payout);
      } catch (err) {
        // Its details could not be read, or its outcome not recorded: it stays as it was, for the next attempt.
        deps.log?.(`payout ${payout.id}: not sent (${(err as Error)?.name ?? 'error'})`);
        sent = 'error';
      }
      if (sent === 'waiting' || sent === 'error') summary[sent === 'waiting' ? 'waiting' : 'errors']++;
      else if (sent !== 'unchanged') {
        summary.submitted++;
        summary[sent]++;
      }
    });
  }
}

/**
 * The run for a period (see the top of this file). `requireDue` refuses a period whose 1st has
 * not come yet (the admin route and the command; the scheduled job runs at that moment).
 */
export async function runPayouts(
  deps: PayoutRunDeps,
  period: Period,
  opts: { requireDue?: boolean; concurrency?: number } = {},
): Promise<PayoutRunSummary> {
  if (opts.requireDue && !isDue(period, nowOf(deps))) throw AppError.badRequest(PAYOUT_RUN_MESSAGES.notDue);
  const log = deps.log ?? (() => {});
  const summary: PayoutRunSummary = { period, created: 0, skipped: 0, submitted: 0, processing: 0, paid: 0, failed: 0, waiting: 0, errors: 0 };
  const cutoff = periodCutoff(period);
  let after: string | null = null;
  for (;;) {
    const ids = await repo.payoutCandidates(deps.db, cutoff, after, BATCH);
    if (ids.length === 0) break;
    after = ids.at(-1)!;
    for (const userId of ids) {
      const key = payoutIdempotencyKey(userId, period);
      try {
        const made = await makePayout(deps, userId, period);
        if (made.made) {
          summary.created++;
          log(`payout ${key}: made for ${made.amountCents} cents`);
        } else summary.skipped++;
      } catch (err) {
        // Rolled back whole: this creator is tried again by the next attempt; the others go on.
        summary.errors++;
        log(`payout ${key}: not made (${(err as Error)?.message ?? err})`);
      }
    }
  }
  await sendPendingPayouts(deps, summary, opts.concurrency);
  log(`payout run ${period}: ${JSON.stringify(summary)}`);
  return summary;
}

export type ApplyEventResult =
  | { outcome: 'applied'; payoutId: string; status: PayoutStatus }
  | { outcome: 'ignored'; payoutId: string; status: PayoutStatus | undefined }
  | { outcome: 'unknown' };

/**
 * A final outcome from a provider's verified webhook (or an admin confirming a NACHA upload).
 * The payout is found by its idempotency key (else by the provider's reference) and moved once:
 * a repeated or late event, or one for a payout already final, changes nothing.
 */
export async function applyPayoutEvent(deps: PayoutOutcomeDeps, event: PayoutEvent): Promise<ApplyEventResult> {
  const named = parsePayoutAttemptKey(event.idempotencyKey);
  let payout = named ? await repo.findPayoutOf(deps.db, named.userId, named.period) : undefined;
  if (payout && named && payout.attempt !== named.attempt) {
    // About an earlier attempt of a payout an admin sent again (or a later one than it knows): not this attempt's outcome.
    deps.log?.(`payout ${event.idempotencyKey}: event ${event.eventId} is about attempt ${named.attempt}, not ${payout.attempt}: changed nothing`);
    return { outcome: 'ignored', payoutId: payout.id, status: payout.status };
  }
  if (!payout && event.providerReference) payout = await repo.findPayoutByReference(deps.db, event.providerReference);
  if (!payout) return { outcome: 'unknown' };
  const r = await recordPayoutOutcome(deps, payout.id, event.status, {
    providerReference: event.providerReference,
    failureReason: event.failureReason,
    at: event.occurredAt,
    attempt: named?.attempt,
  });
  deps.log?.(`payout ${event.idempotencyKey}: event ${event.eventId} ${event.status}${r.applied ? '' : ' changed nothing'}`);
  return r.applied ? { outcome: 'applied', payoutId: r.payoutId, status: r.status } : { outcome: 'ignored', payoutId: r.payoutId, status: r.status };
}

/* ---- Starting runs: the job of each 1st of the month ---- */

export function payoutRunJobKey(period: Period): string {
  return `payouts.run:${period}`;
}

/** Queues the period's run for its 1st at 00:00 UTC; once per period, whoever asks (the jobs' dedupe key). */
export function schedulePayoutRun(db: Kysely<DB>, period: Period): Promise<boolean> {
  return enqueueJob(db, JOB_KINDS.payoutsRun, { period }, { dedupeKey: payoutRunJobKey(period), runAfter: periodCutoff(period) });
}

/**
 * Makes sure the current period's run (due already, or done) and the next one are queued. Each
 * run queues the one after it too, so the schedule carries itself from month to month.
 */
export async function ensurePayoutSchedule(db: Kysely<DB>, now: Date): Promise<void> {
  const current = periodAt(now);
  await schedulePayoutRun(db, current);
  await schedulePayoutRun(db, nextPeriod(current));
}
