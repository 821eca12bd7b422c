/**
 * The admin lists' pure rules: which buttons a row enables, the query each filter set sends, and
 * the payout threshold's dollars shown for the cents stored.
 */
import { formatCents, parseUsdToCents } from '../../../shared/money.ts';
import { ADMIN_PAGE_SIZE, ADMIN_SEARCH_MAX_CHARS, type AdminActionType, type AdminTargetType, type AdminUserRow, type UserStatus } from '../../../shared/schemas/admin.ts';
import {
  MODERATION_PAGE_SIZE,
  PAYOUT_THRESHOLD_SETTING_MAX_CENTS,
  PAYOUT_THRESHOLD_SETTING_MIN_CENTS,
  type ModerationFilter,
  type ModerationVideo,
} from '../../../shared/schemas/moderation.ts';
import type { AdminOrderRow } from '../../../shared/schemas/admin-orders.ts';
import { ADMIN_PAYOUT_RUNS_PAGE_SIZE, type AdminPayoutRow } from '../../../shared/schemas/admin-payouts.ts';
import type { PayoutStatus } from '../../../shared/schemas/payouts.ts';
import type { AdminSubscriptionStatus } from '../../../shared/schemas/admin-subscriptions.ts';
import type { OrderStatusName } from '../../../shared/schemas/checkout.ts';

/** The page sizes User Management offers (spec section 9: 20 by default, 100 at most). */
export const USER_PAGE_SIZES = [ADMIN_PAGE_SIZE, 50, 100] as const;
export const SEARCH_DEBOUNCE_MS = 300;

export interface ActionState {
  shown: boolean;
  disabled: boolean;
}

/**
 * Spec section 4: suspend is disabled when suspended, activate when active. An admin's own row has
 * no Suspend and no Delete (the server refuses both anyway).
 */
export function userActions(row: Pick<AdminUserRow, 'id' | 'status'>, selfId: string | null, busy = false) {
  const self = row.id === selfId;
  return {
    suspend: { shown: !self, disabled: busy || row.status === 'suspended' },
    activate: { shown: true, disabled: busy || row.status === 'active' },
    remove: { shown: !self, disabled: busy },
  } satisfies Record<string, ActionState>;
}

/** The moderation filter's meaning of approved: also uploads verified at sign-in. */
export function isApproved(status: ModerationVideo['verification_status']): boolean {
  return status === 'approved' || status === 'verified_via_supabase_auth';
}

/** Spec section 4: approve disabled if already approved, reject disabled if already rejected. */
export function videoActions(video: Pick<ModerationVideo, 'verification_status'>, busy = false) {
  return {
    approve: { shown: true, disabled: busy || isApproved(video.verification_status) },
    reject: { shown: true, disabled: busy || video.verification_status === 'rejected' },
    remove: { shown: true, disabled: busy },
  } satisfies Record<string, ActionState>;
}

export function videoStatusLabel(status: ModerationVideo['verification_status']): string {
  if (status === 'verified_via_supabase_auth') return 'Approved (verified at sign-in)';
  return status === 'pending' ? 'Pending' : status === 'approved' ? 'Approved' : 'Rejected';
}

const trimmed = (text: string, max: number) => text.trim().slice(0, max) || undefined;

export interface UserFilters {
  q: string;
  status: UserStatus | 'all';
  limit: number;
}

export function usersQuery(filters: UserFilters, cursor?: string) {
  return {
    q: trimmed(filters.q, ADMIN_SEARCH_MAX_CHARS),
    status: filters.status === 'all' ? undefined : filters.status,
    limit: filters.limit,
    cursor,
  };
}

export interface VideoFilters {
  status: ModerationFilter | 'all';
  q: string;
}

export const VIDEO_SEARCH_MAX_CHARS = 200;

export function videosQuery(filters: VideoFilters, cursor?: string) {
  return {
    status: filters.status === 'all' ? undefined : filters.status,
    q: trimmed(filters.q, VIDEO_SEARCH_MAX_CHARS),
    limit: MODERATION_PAGE_SIZE,
    cursor,
  };
}

export interface LogFilters {
  actionType: AdminActionType | 'all';
  targetType: AdminTargetType | 'all';
}

export function logsQuery(filters: LogFilters, limit: number, cursor?: string) {
  return {
    action_type: filters.actionType === 'all' ? undefined : filters.actionType,
    target_type: filters.targetType === 'all' ? undefined : filters.targetType,
    limit,
    cursor,
  };
}

export interface OrderFilters {
  q: string;
  status: OrderStatusName | 'all';
}

export function ordersQuery(filters: OrderFilters, limit: number, cursor?: string) {
  return { q: trimmed(filters.q, ADMIN_SEARCH_MAX_CHARS), status: filters.status === 'all' ? undefined : filters.status, limit, cursor };
}

/** The order number buyers see: the id's first 8 hex digits, upper case. */
export function shortOrderId(id: string): string {
  return id.replace(/-/g, '').slice(0, 8).toUpperCase();
}

const FULFILMENT_LABELS: Record<AdminOrderRow['fulfilment'], string> = {
  none: 'Not sent',
  queued: 'Queued',
  running: 'Sending',
  done: 'Sent to the print shop',
  failed: 'Failed',
};

export function fulfilmentLabel(state: AdminOrderRow['fulfilment']): string {
  return FULFILMENT_LABELS[state];
}

export interface SubscriptionFilters {
  q: string;
  tier: 'free' | 'pro' | 'all';
  status: AdminSubscriptionStatus | 'all';
}

export function subscriptionsQuery(filters: SubscriptionFilters, limit: number, cursor?: string) {
  return {
    q: trimmed(filters.q, ADMIN_SEARCH_MAX_CHARS),
    tier: filters.tier === 'all' ? undefined : filters.tier,
    status: filters.status === 'all' ? undefined : filters.status,
    limit,
    cursor,
  };
}

const SUBSCRIPTION_STATUS_LABELS: Record<AdminSubscriptionStatus, string> = {
  trialing: 'Trial',
  active: 'Active',
  past_due: 'Payment retrying',
  canceled: 'Cancelled',
  incomplete: 'Incomplete',
  pending_approval: 'Awaiting approval',
};

export function subscriptionStatusLabel(status: AdminSubscriptionStatus): string {
  return SUBSCRIPTION_STATUS_LABELS[status];
}

/** Runs a page: a year of months. */
export const PAYOUT_RUNS_PAGE_SIZE = ADMIN_PAYOUT_RUNS_PAGE_SIZE;

export interface PayoutFilters {
  period: string | 'all';
  status: PayoutStatus | 'all';
}

export function payoutsQuery(filters: PayoutFilters, limit: number, cursor?: string) {
  return { period: filters.period === 'all' ? undefined : filters.period, status: filters.status === 'all' ? undefined : filters.status, limit, cursor };
}

const PAYOUT_STATUS_LABELS: Record<PayoutStatus, string> = { pending: 'Pending', processing: 'Processing', paid: 'Paid', failed: 'Failed' };
export const PAYOUT_STATUSES = Object.keys(PAYOUT_STATUS_LABELS) as PayoutStatus[];

export function payoutStatusLabel(status: PayoutStatus): string {
  return PAYOUT_STATUS_LABELS[status];
}

export const PAYOUT_METHOD_LABELS: Record<AdminPayoutRow['method'], string> = { paypal: 'PayPal', ach: 'ACH', stripe_connect: 'Stripe Connect' };

/** This month as YYYY-MM (UTC, as payout periods are), for the run form. */
export function currentPeriod(now = new Date()): string {
  return now.toISOString().slice(0, 7);
}

/** A list's key: everything its first page depends on, so a change starts again from page one. */
export function listKey(query: object, attempt: number): string {
  return `${JSON.stringify(query)}#${attempt}`;
}

/** 5000 -> "50.00": the threshold as typed in dollars. */
export function centsToDollars(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** "50", "50.5", "$1,000.00" -> cents; null when it is not an amount of dollars and cents. */
export function dollarsToCents(text: string): number | null {
  const plain = text.trim().replace(/^\$/, '').replace(/,/g, '');
  try {
    return parseUsdToCents(plain);
  } catch (error) {
    if ((error as { name?: unknown }).name === 'MoneyFormatError') return null;
    throw error;
  }
}

export const THRESHOLD_RANGE_MESSAGE = `Enter an amount from ${formatCents(PAYOUT_THRESHOLD_SETTING_MIN_CENTS)} to ${formatCents(PAYOUT_THRESHOLD_SETTING_MAX_CENTS)}.`;

/** The threshold field's own check before saving: an amount in range, or the message to show. */
export function checkThreshold(text: string): { cents: number } | { error: string } {
  const cents = dollarsToCents(text);
  if (cents === null) return { error: 'Enter an amount in dollars, like 50.00.' };
  if (cents < PAYOUT_THRESHOLD_SETTING_MIN_CENTS || cents > PAYOUT_THRESHOLD_SETTING_MAX_CENTS) return { error: THRESHOLD_RANGE_MESSAGE };
  return { cents };
}
