/**
 * The payment portal (spec section 2): the creator's setup, balances, next payout and recent
 * activity, read in one go. Rules:
 *  - the balances come from the earning records (earnings module): the total is every share net
 *    of reversals; the pending figure is what no payout has taken yet (or a failed one gave
 *    back), so it goes below zero when a refund follows a paid-out sale;
 *  - ready for payout: payouts are set up and the pending figure has reached the threshold;
 *  - the next payout is the coming 1st of the month (UTC): the first day of the month after
 *    today's, as the run of the 1st is made early that day; none while payouts are not set up;
 *  - the last payout date is the latest paid payout's.
 * An earning names what was sold (product, video, a short order reference), never the buyer.
 */
import type { Kysely } from 'kysely';
import {
  PORTAL_RECENT_EARNINGS,
  PORTAL_RECENT_PAYOUTS,
  type PaymentPortal,
  type PayoutSetup,
  type PortalEarning,
  type PortalPayout,
} from '../../../shared/schemas/payouts.ts';
import type { DB } from '../../platform/db/schema.ts';
import { latestLedger, ledgerBalance, type LedgerEntry } from '../earnings/index.ts';
import * as repo from './repository.ts';
import { payoutSetup } from './service.ts';

/** A payouts row's date column as YYYY-MM-DD (the driver answers date columns as text). */
export function dayText(value: Date | string): string {
  return typeof value === 'string' ? value.slice(0, 10) : value.toISOString().slice(0, 10);
}

/** The first day of the month after `now`'s (UTC), as YYYY-MM-DD. */
export function comingFirstOfMonth(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString().slice(0, 10);
}

/** Payouts can go out: switched on, with the chosen method's details saved. */
export function isPayoutSetUp(setup: PayoutSetup): boolean {
  if (!setup.payout_enabled) return false;
  switch (setup.preferred_payment_method) {
    case 'paypal':
      return setup.paypal_email !== null;
    case 'ach':
      return setup.ach !== null;
    case 'stripe_connect':
      return setup.stripe_connect !== null;
    case null:
      return false;
  }
}

/** An order's short reference: the first 8 characters of its id, upper case. */
export function orderRef(orderId: string | null): string | null {
  return orderId ? orderId.replace(/-/g, '').slice(0, 8).toUpperCase() : null;
}

export function toPortalEarning(entry: LedgerEntry): PortalEarning {
  return {
    date: entry.createdAt.toISOString(),
    kind: entry.kind,
    source: entry.source,
    product_name: entry.productName,
    video_title: entry.videoTitle,
    order_ref: orderRef(entry.orderId),
    creator_share_cents: entry.creatorShareCents,
  };
}

type PayoutRow = Awaited<ReturnType<typeof repo.latestPayouts>>[number];

export function toPortalPayout(row: PayoutRow): PortalPayout {
  return {
    date: dayText(row.payout_date),
    period: dayText(row.period).slice(0, 7),
    amount_cents: Number(row.amount_cents),
    fee_cents: Number(row.fee_cents),
    method: row.method,
    status: row.status,
  };
}

/** The signed-in creator's portal; 404 'User not found in database' when the row has gone. */
export async function paymentPortal(db: Kysely<DB>, userId: string, now: Date = new Date()): Promise<PaymentPortal> {
  const setup = await payoutSetup(db, userId);
  // One after another: the embedded database serves one query at a time anyway.
  const balance = await ledgerBalance(db, userId);
  const earnings = await latestLedger(db, userId, PORTAL_RECENT_EARNINGS);
  const payouts = await repo.latestPayouts(db, userId, PORTAL_RECENT_PAYOUTS);
  const lastPayoutDate = await repo.lastPaidPayoutDate(db, userId);
  const setUp = isPayoutSetUp(setup);
  const ready = setUp && balance.pendingCents >= setup.payout_threshold_cents;
  return {
    setup,
    total_earnings_cents: balance.totalCents,
    pending_payout_cents: balance.pendingCents,
    payout_threshold_cents: setup.payout_threshold_cents,
    ready_for_payout: ready,
    last_payout_date: lastPayoutDate,
    // A payout is scheduled only for a balance the run of the 1st would pay; below the minimum it is not.
    next_payout_date: ready ? comingFirstOfMonth(now) : null,
    recent_earnings: earnings.map(toPortalEarning),
    recent_payouts: payouts.map(toPortalPayout),
  };
}
