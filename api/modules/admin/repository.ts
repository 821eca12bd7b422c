/**
 * The admin module's SQL. The admin log (admin_logs): every admin action is written with
 * recordAdminAction, in the same transaction as the action (pass the transaction as `db`), so
 * the log holds exactly what was done. Besides it: the dashboard's figures, the user list, the
 * locks and writes of suspend and activate, and the log's list.
 *
 * Lists page by keyset (platform/http/keyset.ts).
 */
import { sql, type Kysely } from 'kysely';
import { cursorTs, keysetAfter, type KeysetCursor } from '../../platform/db/repository.ts';
import type { AdminActionType } from '../../../shared/schemas/admin.ts';
import type { DB } from '../../platform/db/schema.ts';

export type AdminTargetType = 'user' | 'video' | 'subscription' | 'setting' | 'order' | 'payout';

export interface AdminAction {
  adminUserId: string;
  /** One of ADMIN_ACTION_TYPES (shared/schemas/admin.ts), which the log's filter and labels know. */
  actionType: AdminActionType;
  targetType: AdminTargetType;
  targetId: string;
  details?: Record<string, unknown>;
}

export async function recordAdminAction(db: Kysely<DB>, entry: AdminAction): Promise<void> {
  await db
    .insertInto('admin_logs')
    .values({
      admin_user_id: entry.adminUserId,
      action_type: entry.actionType,
      target_type: entry.targetType,
      target_id: entry.targetId,
      details: JSON.stringify(entry.details ?? {}),
    })
    .execute();
}

/* ---- The dashboard ---- */

/** Orders that count as sold (the earnings module's SOLD_STATUSES). */
const PAID_ORDER_STATUSES = ['paid', 'submitted', 'in_production', 'shipped', 'delivered'] as const;
const LIVE_SUBSCRIPTION_STATUSES = ['trialing', 'active', 'past_due'] as const;

/**
 * Every figure in one statement, so all of them describe the same moment. Users and videos are
 * counted by row_counts, which triggers keep exact in the same transaction as every write of
 * those tables (0016_admin_indexes.sql): a sum of a few rows, not a count of a million.
 */
export async function dashboardFigures(db: Kysely<DB>) {
  const paid = sql.join(PAID_ORDER_STATUSES.map((s) => sql.lit(s)));
  const live = sql.join(LIVE_SUBSCRIPTION_STATUSES.map((s) => sql.lit(s)));
  const { rows } = await sql<{
    total_users: number;
    active_users: number;
    suspended_users: number;
    total_videos: number;
    pending_videos: number;
    approved_videos: number;
    total_subscriptions: number;
    active_subscriptions: number;
    premium_subscriptions: number;
    creator_network_subscriptions: number;
    total_orders: number;
    paid_orders: number;
    revenue_cents: number;
    pending_payouts_cents: number;
    failed_jobs: number;
  }>`
    select
      (select coalesce(sum(n), 0)::bigint from row_counts where table_name = 'users') as total_users,
      (select coalesce(sum(n), 0)::bigint from row_counts where table_name = 'users' and status = 'active') as active_users,
      (select coalesce(sum(n), 0)::bigint from row_counts where table_name = 'users' and status = 'suspended') as suspended_users,
      (select coalesce(sum(n), 0)::bigint from row_counts where table_name = 'videos') as total_videos,
      (select coalesce(sum(n), 0)::bigint from row_counts where table_name = 'videos' and status = 'pending') as pending_videos,
      (select coalesce(sum(n), 0)::bigint from row_counts where table_name = 'videos' and status in ('approved', 'verified_via_supabase_auth')) as approved_videos,
      (select count(*) from user_subscriptions) as total_subscriptions,
      (select count(*) from user_subscriptions where status in (${live})) as active_subscriptions,
      (select count(*) from user_subscriptions where tier = 'pro' and status in (${live})) as premium_subscriptions,
      (select count(*) from user_subscriptions where is_third_tier) as creator_network_subscriptions,
      (select count(*) from orders) as total_orders,
      (select count(*) from orders where status in (${paid})) as paid_orders,
      (select coalesce(sum(total_cents), 0)::bigint from orders where status in (${paid})) as revenue_cents,
      ((select coalesce(sum(pending_payout_cents), 0) from users where pending_payout_cents > 0)
        + (select coalesce(sum(amount_cents), 0) from payouts where status in ('pending', 'processing')))::bigint as pending_payouts_cents,
      (select count(*) from jobs where status = 'failed') as failed_jobs
  `.execute(db);
  return rows[0]!;
}

/* ---- The admin log ---- */

export interface LogFilter {
  actionType?: string;
  targetType?: AdminTargetType;
  adminId?: string;
  before: KeysetCursor | null;
  limit: number;
}

/** Admin log entries, newest first, with the admin's display name and each row's cursor. */
export async function listLogs(db: Kysely<DB>, f: LogFilter) {
  let q = db
    .selectFrom('admin_logs as l')
    .leftJoin('users as u', 'u.id', 'l.admin_user_id')
    .select(['l.id', 'l.admin_user_id', 'u.display_name as admin_display_name', 'l.action_type', 'l.target_type', 'l.target_id', 'l.details', 'l.created_at'])
    .select(cursorTs('l.created_at').as('cursor_ts'));
  if (f.actionType) q = q.where('l.action_type', '=', f.actionType);
  if (f.targetType) q = q.where('l.target_type', '=', f.targetType);
  if (f.adminId) q = q.where('l.admin_user_id', '=', f.adminId);
  if (f.before) q = q.where(keysetAfter('l.created_at', 'l.id', f.before, 'bigint'));
  return q.orderBy('l.created_at', 'desc').orderBy('l.id', 'desc').limit(f.limit).execute();
}

/* ---- Users ---- */

export interface UserFilter {
  /** A LIKE pattern already escaped (backslash), or null for everyone. */
  pattern: string | null;
  status?: 'active' | 'suspended';
  before: KeysetCursor | null;
  limit: number;
}

const userColumns = ['u.id', 'u.email', 'u.username', 'u.display_name', 'u.role', 'u.is_admin', 'u.status', 'u.created_at'] as const;

export async function listUsers(db: Kysely<DB>, f: UserFilter) {
  let q = db
    .selectFrom('users as u')
    .select(userColumns)
    .select((eb) => [
      eb.selectFrom('videos as v').whereRef('v.user_id', '=', 'u.id').select(eb.fn.countAll<number>().as('n')).as('videos_count'),
      cursorTs('u.created_at').as('cursor_ts'),
    ]);
  if (f.status) q = q.where('u.status', '=', f.status);
  if (f.pattern !== null) {
    const p = f.pattern;
    q = q.where(
      sql<boolean>`(u.display_name ilike ${p} escape '\\' or u.username ilike ${p} escape '\\' or u.email ilike ${p} escape '\\')`,
    );
  }
  if (f.before) q = q.where(keysetAfter('u.created_at', 'u.id', f.before));
  return q.orderBy('u.created_at', 'desc').orderBy('u.id', 'desc').limit(f.limit).execute();
}

/** One user as the list shows them. */
export async function findUserRow(db: Kysely<DB>, userId: string) {
  return db
    .selectFrom('users as u')
    .select(userColumns)
    .select((eb) => eb.selectFrom('videos as v').whereRef('v.user_id', '=', 'u.id').select(eb.fn.countAll<number>().as('n')).as('videos_count'))
    .where('u.id', '=', userId)
    .executeTakeFirst();
}

/**
 * Locks the active admins' rows and the target's, in one statement and in id order (the order
 * other writers that lock several users keep, so none of them waits on another crosswise), and
 * answers them. Every change that could leave no active admin takes these locks first, so two
 * admins suspending each other at once cannot both succeed.
 */
export async function lockAdminsAndUser(db: Kysely<DB>, userId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'username', 'is_admin', 'status'])
    .where((eb) => eb.or([eb.and([eb('is_admin', '=', true), eb('status', '=', 'active')]), eb('id', '=', userId)]))
    .orderBy('id')
    .forUpdate()
    .execute();
}

export async function setUserStatus(db: Kysely<DB>, userId: string, status: 'active' | 'suspended'): Promise<void> {
  await db.updateTable('users').set({ status, updated_at: sql<Date>`now()` }).where('id', '=', userId).execute();
}

/** Ends every session of the user; answers how many there were. */
export async function deleteUserSessions(db: Kysely<DB>, userId: string): Promise<number> {
  const res = await db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
  return Number(res.numDeletedRows);
}
