/**
 * The admin portal's payouts: the runs by period, the payouts list, and sending a failed payout
 * again.
 *
 * A failed payout is final for the monthly run (run.ts): its earning records went back to the
 * creator's pending balance, and the next period's payout takes them. A retry sends it now
 * instead, in the run's own way: one transaction locks the creator (then the payout, the run's
 * order), decides as the run decides (run-rules.ts decidePayout, at the creator's current
 * method, threshold and fee) over their earnings before the payout's cut-off that no payout
 * holds, makes the payout pending again as its next attempt with those records, takes their sum
 * off the pending balance and writes the admin log entry. After it commits, the payout goes out
 * through the run's sending (sendPayoutNow) under the new attempt's key: a provider pays each
 * key once, the failed attempt's key stays failed, and an answer or event about the failed
 * attempt changes nothing. A payout not failed (already retried, on its way, paid) answers 409,
 * so two retries at once send it once.
 */
import type { Kysely } from 'kysely';
import { ADMIN_PAYOUT_MESSAGES, type AdminPayoutRow, type PayoutRunRow } from '../../../shared/schemas/admin-payouts.ts';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import type { PayoutStatus } from '../../../shared/schemas/payouts.ts';
import type { DB } from '../../platform/db/schema.ts';
import { AppError } from '../../platform/http/errors.ts';
import { decodeCursor, KEYSET_IDS, keysetPage } from '../../platform/http/keyset.ts';
import { recordAdminAction } from '../admin/index.ts';
import * as repo from './repository.ts';
import { confirmAchUpload } from './ach.ts';
import { creatorForRun, runPayouts, sendPayoutNow, type PayoutRunDeps, type Sent } from './run.ts';
import { decidePayout, periodCutoff, periodOfMonth, type SkipReason } from './run-rules.ts';

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();
const conflict = (message: string) => new AppError(409, ERROR_CODES.CONFLICT, message);

/* ---- Runs by period ---- */

export async function runsPage(db: Kysely<DB>, q: { limit: number; cursor?: string }): Promise<{ runs: PayoutRunRow[]; next_cursor: string | null }> {
  let before: string | null = null;
  if (q.cursor !== undefined) {
    before = periodOfMonth(q.cursor) ?? null;
    if (!before) throw AppError.badRequest(ADMIN_PAYOUT_MESSAGES.badCursor);
  }
  const rows = await repo.payoutRunsByPeriod(db, { beforePeriod: before, limit: q.limit + 1 });
  const runs = rows.slice(0, q.limit).map(
    (r): PayoutRunRow => ({
      period: r.month,
      payouts: Number(r.payouts),
      amount_cents: Number(r.amount_cents),
      fee_cents: Number(r.fee_cents),
      pending: Number(r.pending),
      processing: Number(r.processing),
      paid: Number(r.paid),
      failed: Number(r.failed),
      ach: Number(r.ach),
    }),
  );
  return { runs, next_cursor: rows.length > q.limit ? runs[runs.length - 1]!.period : null };
}

/* ---- Payouts ---- */

function toAdminPayout(r: repo.AdminPayoutDbRow): AdminPayoutRow {
  return {
    id: r.id,
    period: r.month,
    creator: { id: r.user_id, username: r.username, email: r.email },
    method: r.method,
    amount_cents: Number(r.amount_cents),
    fee_cents: Number(r.fee_cents),
    status: r.status,
    failure_reason: r.status === 'failed' ? r.failure_reason : null,
    provider_reference: r.provider_reference,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
    can_retry: r.can_retry === true,
  };
}

export interface PayoutListQuery {
  period?: string;
  status?: PayoutStatus;
  limit: number;
  cursor?: string;
}

export async function payoutPage(db: Kysely<DB>, q: PayoutListQuery): Promise<{ payouts: AdminPayoutRow[]; next_cursor: string | null }> {
  const rows = await repo.listAdminPayouts(db, {
    period: q.period === undefined ? undefined : periodOfMonth(q.period),
    status: q.status,
    before: q.cursor ? decodeCursor(q.cursor, KEYSET_IDS.uuid, ADMIN_PAYOUT_MESSAGES.badCursor) : null,
    limit: q.limit + 1,
  });
  const { shown, next_cursor } = keysetPage(rows, q.limit);
  return { payouts: shown.map(toAdminPayout), next_cursor };
}

export async function adminPayout(db: Kysely<DB>, payoutId: string): Promise<AdminPayoutRow> {
  const row = await repo.findAdminPayout(db, payoutId);
  if (!row) throw AppError.notFound(ADMIN_PAYOUT_MESSAGES.payoutNotFound);
  return toAdminPayout(row);
}

/* ---- Retry ---- */

const REFUSALS: Record<SkipReason, string> = {
  'payouts-off': ADMIN_PAYOUT_MESSAGES.payoutsOff,
  suspended: ADMIN_PAYOUT_MESSAGES.suspended,
  'no-method': ADMIN_PAYOUT_MESSAGES.noMethod,
  'method-unavailable': ADMIN_PAYOUT_MESSAGES.methodUnavailable,
  'no-destination': ADMIN_PAYOUT_MESSAGES.noDestination,
  'below-threshold': ADMIN_PAYOUT_MESSAGES.belowThreshold,
  'fee-not-covered': ADMIN_PAYOUT_MESSAGES.feeNotCovered,
};

const SENT_MESSAGES: Record<Sent, string> = {
  processing: ADMIN_PAYOUT_MESSAGES.retriedProcessing,
  paid: ADMIN_PAYOUT_MESSAGES.retriedPaid,
  failed: ADMIN_PAYOUT_MESSAGES.retriedFailed,
  waiting: ADMIN_PAYOUT_MESSAGES.retriedQueued,
  error: ADMIN_PAYOUT_MESSAGES.retriedQueued,
  // Sent by a run at the same moment: the row read after says where it is.
  unchanged: ADMIN_PAYOUT_MESSAGES.retriedProcessing,
};

const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/** The retry's transaction (see the top of this file). */
async function reopenForRetry(deps: Pick<PayoutRunDeps, 'db' | 'now'>, adminId: string, payoutId: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const seen = await repo.findPayout(trx, payoutId);
    if (!seen) throw AppError.notFound(ADMIN_PAYOUT_MESSAGES.payoutNotFound);
    if (seen.status !== 'failed') throw conflict(ADMIN_PAYOUT_MESSAGES.notFailed(seen.status));
    if (!seen.user_id) throw conflict(ADMIN_PAYOUT_MESSAGES.creatorDeleted);
    const creator = await repo.lockCreatorForPayout(trx, seen.user_id);
    const payout = await repo.lockPayout(trx, payoutId);
    if (!payout) throw AppError.notFound(ADMIN_PAYOUT_MESSAGES.payoutNotFound);
    if (payout.status !== 'failed') throw conflict(ADMIN_PAYOUT_MESSAGES.notFailed(payout.status));
    if (!creator || payout.user_id !== seen.user_id) throw conflict(ADMIN_PAYOUT_MESSAGES.creatorDeleted);
    const cutoff = periodCutoff(payout.period);
    const unheld = await repo.unheldEarnings(trx, seen.user_id, cutoff);
    if (unheld.cents <= 0) throw conflict(ADMIN_PAYOUT_MESSAGES.alreadyTaken);
    const decision = decidePayout(creatorForRun(creator), unheld.cents);
    if (!decision.pay) throw conflict(REFUSALS[decision.reason]);
    const attempt = await repo.reopenFailedPayout(trx, payoutId, {
      method: decision.method,
      amountCents: decision.amountCents,
      feeCents: decision.feeCents,
      payoutDate: dayOf(deps.now ? deps.now() : new Date()),
    });
    if (attempt === undefined) throw conflict(ADMIN_PAYOUT_MESSAGES.notFailed(payout.status));
    const taken = await repo.assignEarnings(trx, seen.user_id, payoutId, cutoff);
    // The creator's lock holds back every earning that moves their balance; should the sum still differ, nothing is kept.
    if (taken.cents !== unheld.cents) throw new Error(`the earnings of ${seen.user_id} changed while their payout was reopened`);
    await repo.addToPendingPayout(trx, seen.user_id, -taken.cents);
    await recordAdminAction(trx, {
      adminUserId: adminId,
      actionType: 'retry_payout',
      targetType: 'payout',
      targetId: payoutId,
      details: {
        creator_id: seen.user_id,
        period: payout.period.slice(0, 7),
        attempt,
        method: decision.method,
        amount_cents: decision.amountCents,
        fee_cents: decision.feeCents,
        failed: {
          method: payout.method,
          amount_cents: Number(payout.amount_cents),
          fee_cents: Number(payout.fee_cents),
          provider_reference: payout.provider_reference,
          failure_reason: payout.failure_reason,
        },
      },
    });
  });
}

/** Sends a failed payout again (see the top of this file); answers what happened and the payout as it is after. */
export async function retryPayout(deps: PayoutRunDeps, adminId: string, payoutId: string): Promise<{ message: string; payout: AdminPayoutRow }> {
  await reopenForRetry(deps, adminId, payoutId);
  const sent = await sendPayoutNow(deps, payoutId);
  return { message: SENT_MESSAGES[sent], payout: await adminPayout(deps.db, payoutId) };
}

/* ---- A run and an ACH upload started by an admin ---- */

/**
 * The admin starts a period's run now (the run of its 1st: see run.ts). The run is many
 * transactions, one per creator, so its log entry is written once it has finished, with what it
 * did; a run that fails part-way writes none (and a repeat pays no one twice).
 */
export async function runPayoutsAsAdmin(deps: PayoutRunDeps, adminId: string, month: string) {
  const run = await runPayouts(deps, periodOfMonth(month)!, { requireDue: true });
  await recordAdminAction(deps.db, { adminUserId: adminId, actionType: 'run_payouts', targetType: 'payout', targetId: month, details: { ...run } });
  return run;
}

/** The admin confirms that the period's NACHA file reached the bank; logged with how many entries it paid. */
export async function confirmAchUploadAsAdmin(deps: PayoutRunDeps, adminId: string, month: string): Promise<number> {
  const confirmed = await confirmAchUpload(deps, periodOfMonth(month)!);
  await recordAdminAction(deps.db, { adminUserId: adminId, actionType: 'confirm_ach_upload', targetType: 'payout', targetId: month, details: { confirmed } });
  return confirmed;
}
