/**
 * The admin portal's rules: the dashboard's figures, the user list and its actions (suspend,
 * activate, delete) and the admin log's list. Each action runs in one transaction with its
 * admin log entry, so an action that fails leaves no entry and an entry never lacks its action.
 *
 * An action on users first locks the active admins' rows and the target's (repository.ts
 * lockAdminsAndUser): the refusals that keep at least one active admin (never oneself, never the
 * last) are decided under those locks.
 */
import type { Kysely, Transaction } from 'kysely';
import { ADMIN_MESSAGES, RECENT_ACTIVITY_COUNT, type AdminLogEntry, type AdminUserRow, type DashboardStats } from '../../../shared/schemas/admin.ts';
import { AUTH_MESSAGES } from '../../../shared/schemas/auth.ts';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import type { DB } from '../../platform/db/schema.ts';
import { AppError } from '../../platform/http/errors.ts';
import { containsPattern, decodeCursor, KEYSET_IDS, keysetPage } from '../../platform/http/keyset.ts';
import type { ObjectStorage } from '../../platform/storage/object-storage.ts';
import * as repo from './repository.ts';

/**
 * Account deletion as the accounts module does it (handed in by the composition root, since
 * accounts itself writes the admin log through this module): `guard` runs first in its
 * transaction, before the user's row is locked, and `record` once it is known what goes.
 */
export type AccountDeleter = (
  db: Kysely<DB>,
  storage: ObjectStorage,
  userId: string,
  hooks: { guard: (trx: Transaction<DB>) => Promise<void>; record: (trx: Transaction<DB>, filesToRemove: number) => Promise<void> },
) => Promise<{ filesRemoved: number }>;

/* ---- The dashboard and the log ---- */

type LogRow = Awaited<ReturnType<typeof repo.listLogs>>[number];

function toLogEntry(r: LogRow): AdminLogEntry {
  return {
    id: Number(r.id),
    admin_user_id: r.admin_user_id,
    admin_display_name: r.admin_display_name,
    action_type: r.action_type,
    target_type: r.target_type,
    target_id: r.target_id,
    details: r.details,
    created_at: r.created_at.toISOString(),
  };
}

export async function dashboard(db: Kysely<DB>): Promise<{ stats: DashboardStats; recent_activity: AdminLogEntry[] }> {
  const [figures, recent] = [await repo.dashboardFigures(db), await repo.listLogs(db, { before: null, limit: RECENT_ACTIVITY_COUNT })];
  const stats = Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, Number(v)])) as unknown as DashboardStats;
  return { stats, recent_activity: recent.map(toLogEntry) };
}

export interface LogQuery {
  action_type?: string;
  target_type?: repo.AdminTargetType;
  admin_id?: string;
  limit: number;
  cursor?: string;
}

export async function logPage(db: Kysely<DB>, q: LogQuery): Promise<{ logs: AdminLogEntry[]; next_cursor: string | null }> {
  const rows = await repo.listLogs(db, {
    actionType: q.action_type,
    targetType: q.target_type,
    adminId: q.admin_id,
    before: q.cursor ? decodeCursor(q.cursor, KEYSET_IDS.bigint, ADMIN_MESSAGES.badCursor) : null,
    limit: q.limit + 1,
  });
  const { shown, next_cursor } = keysetPage(rows, q.limit);
  return { logs: shown.map(toLogEntry), next_cursor };
}

/* ---- Users ---- */

type UserRow = NonNullable<Awaited<ReturnType<typeof repo.findUserRow>>>;

function toUserRow(r: UserRow): AdminUserRow {
  return {
    id: r.id,
    email: r.email,
    username: r.username,
    display_name: r.display_name,
    role: r.role,
    is_admin: r.is_admin,
    status: r.status,
    created_at: r.created_at.toISOString(),
    videos_count: Number(r.videos_count ?? 0),
  };
}

export interface UserQuery {
  q?: string;
  status?: 'active' | 'suspended';
  limit: number;
  cursor?: string;
}

export async function userPage(db: Kysely<DB>, q: UserQuery): Promise<{ users: AdminUserRow[]; next_cursor: string | null }> {
  const text = q.q?.trim() ?? '';
  const rows = await repo.listUsers(db, {
    pattern: text ? containsPattern(text) : null,
    status: q.status,
    before: q.cursor ? decodeCursor(q.cursor, KEYSET_IDS.uuid, ADMIN_MESSAGES.badCursor) : null,
    limit: q.limit + 1,
  });
  const { shown, next_cursor } = keysetPage(rows, q.limit);
  return { users: shown.map(toUserRow), next_cursor };
}

/**
 * Under the admins' and the target's locks: the acting admin must still be an active admin and,
 * for an action that takes an account away (one with a `selfMessage`), the target must not be
 * them nor the last active admin. Answers the locked target.
 */
async function lockForAction(trx: Transaction<DB>, adminId: string, targetId: string, selfMessage: string | null) {
  if (selfMessage && adminId === targetId) throw AppError.badRequest(selfMessage);
  const rows = await repo.lockAdminsAndUser(trx, targetId);
  const admins = rows.filter((r) => r.is_admin && r.status === 'active').map((r) => r.id);
  if (!admins.includes(adminId)) throw new AppError(403, ERROR_CODES.FORBIDDEN, AUTH_MESSAGES.adminRequired);
  const target = rows.find((r) => r.id === targetId);
  if (!target) throw AppError.notFound(ADMIN_MESSAGES.userNotFound);
  if (selfMessage && admins.includes(targetId) && admins.length < 2) throw AppError.badRequest(ADMIN_MESSAGES.lastAdmin);
  return target;
}

async function reread(trx: Transaction<DB>, userId: string): Promise<AdminUserRow> {
  const row = await repo.findUserRow(trx, userId);
  if (!row) throw AppError.notFound(ADMIN_MESSAGES.userNotFound);
  return toUserRow(row);
}

/** Suspends the user and ends their sessions, in one transaction with its log entry. */
export async function suspendUser(db: Kysely<DB>, adminId: string, userId: string): Promise<AdminUserRow> {
  return db.transaction().execute(async (trx) => {
    const target = await lockForAction(trx, adminId, userId, ADMIN_MESSAGES.suspendSelf);
    if (target.status === 'suspended') throw new AppError(409, ERROR_CODES.CONFLICT, ADMIN_MESSAGES.alreadySuspended);
    await repo.setUserStatus(trx, userId, 'suspended');
    const sessionsEnded = await repo.deleteUserSessions(trx, userId);
    await repo.recordAdminAction(trx, {
      adminUserId: adminId,
      actionType: 'suspend_user',
      targetType: 'user',
      targetId: userId,
      details: { email: target.email, username: target.username, sessions_ended: sessionsEnded },
    });
    return reread(trx, userId);
  });
}

/** Makes a suspended user active again, in one transaction with its log entry. */
export async function activateUser(db: Kysely<DB>, adminId: string, userId: string): Promise<AdminUserRow> {
  return db.transaction().execute(async (trx) => {
    // Activating takes nothing from anyone: oneself (already active) answers 409 below.
    const target = await lockForAction(trx, adminId, userId, null);
    if (target.status === 'active') throw new AppError(409, ERROR_CODES.CONFLICT, ADMIN_MESSAGES.alreadyActive);
    await repo.setUserStatus(trx, userId, 'active');
    await repo.recordAdminAction(trx, {
      adminUserId: adminId,
      actionType: 'activate_user',
      targetType: 'user',
      targetId: userId,
      details: { email: target.email, username: target.username },
    });
    return reread(trx, userId);
  });
}

/**
 * Deletes the user through the accounts module's deletion, its log entry in the same transaction.
 * Only when confirmed: the route's body schema asks for {"confirm": true}, and the rule is kept
 * here too so no other caller of the service deletes without it.
 */
export async function deleteUser(
  deps: { db: Kysely<DB>; storage: ObjectStorage; deleteAccount: AccountDeleter },
  adminId: string,
  userId: string,
  confirmed: boolean,
): Promise<{ filesRemoved: number }> {
  if (!confirmed) throw AppError.badRequest(ADMIN_MESSAGES.confirmDelete);
  let username = '';
  return deps.deleteAccount(deps.db, deps.storage, userId, {
    guard: async (trx) => {
      username = (await lockForAction(trx, adminId, userId, ADMIN_MESSAGES.deleteSelf)).username;
    },
    record: (trx, filesToRemove) =>
      repo.recordAdminAction(trx, {
        adminUserId: adminId,
        actionType: 'delete_user',
        targetType: 'user',
        targetId: userId,
        details: { username, files_removed: filesToRemove },
      }),
  });
}
