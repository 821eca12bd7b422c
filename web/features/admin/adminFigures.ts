/** The dashboard's cards and the admin log's lines, as text: pure, so tests read what an admin reads. */
import { formatCents } from '../../../shared/money.ts';
import { ADMIN_ACTION_LABELS, type AdminActionType, type AdminLogEntry, type DashboardStats } from '../../../shared/schemas/admin.ts';

export interface StatCard {
  id: keyof DashboardStats;
  title: string;
  value: string;
  note?: string;
}

const count = (n: number) => n.toLocaleString('en-US');

/** Every figure of the dashboard (spec section 2), money as dollars and cents. */
export function dashboardCards(stats: DashboardStats): StatCard[] {
  return [
    { id: 'total_users', title: 'Total users', value: count(stats.total_users) },
    { id: 'active_users', title: 'Active users', value: count(stats.active_users) },
    { id: 'suspended_users', title: 'Suspended users', value: count(stats.suspended_users) },
    { id: 'total_videos', title: 'Total videos', value: count(stats.total_videos) },
    { id: 'pending_videos', title: 'Pending videos', value: count(stats.pending_videos), note: 'Waiting for moderation' },
    { id: 'approved_videos', title: 'Approved videos', value: count(stats.approved_videos) },
    { id: 'total_subscriptions', title: 'Total subscriptions', value: count(stats.total_subscriptions) },
    { id: 'active_subscriptions', title: 'Active subscriptions', value: count(stats.active_subscriptions) },
    { id: 'premium_subscriptions', title: 'Premium subscriptions', value: count(stats.premium_subscriptions) },
    { id: 'creator_network_subscriptions', title: 'Creator network', value: count(stats.creator_network_subscriptions) },
    { id: 'total_orders', title: 'Orders', value: count(stats.total_orders), note: `${count(stats.paid_orders)} paid` },
    { id: 'revenue_cents', title: 'Revenue', value: formatCents(stats.revenue_cents), note: 'Paid orders, items and shipping' },
    { id: 'pending_payouts_cents', title: 'Pending payouts', value: formatCents(stats.pending_payouts_cents), note: 'Owed to creators' },
    { id: 'failed_jobs', title: 'Failed jobs', value: count(stats.failed_jobs) },
  ];
}

export interface LogLine {
  key: number;
  time: string;
  /** ISO time, for <time dateTime>. */
  iso: string;
  admin: string;
  action: string;
  target: string;
  details: string;
}

/** The portal's words for an action ("suspend_user" -> "User suspended"); an unknown one as its words. */
export function actionLabel(actionType: string): string {
  if (Object.hasOwn(ADMIN_ACTION_LABELS, actionType)) return ADMIN_ACTION_LABELS[actionType as AdminActionType];
  const words = actionType.replace(/_/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : actionType;
}

/** Details as one line of JSON; none as a dash. */
export function compactDetails(details: Record<string, unknown>): string {
  return Object.keys(details).length === 0 ? '—' : JSON.stringify(details);
}

export function logLine(entry: AdminLogEntry, locale?: string): LogLine {
  return {
    key: entry.id,
    time: new Date(entry.created_at).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' }),
    iso: entry.created_at,
    admin: entry.admin_display_name ?? (entry.admin_user_id ? 'Unknown admin' : 'Deleted admin'),
    action: actionLabel(entry.action_type),
    target: `${entry.target_type} ${entry.target_id}`,
    details: compactDetails(entry.details),
  };
}
