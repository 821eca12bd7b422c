/**
 * The admin log (admin_logs): every admin action is written with it, in the same transaction as
 * the action (pass the transaction as `db`), so the log holds exactly what was done.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';

export type AdminTargetType = 'user' | 'video' | 'subscription' | 'setting' | 'order' | 'payout';

export interface AdminAction {
  adminUserId: string;
  /** Lower-case words joined by underscores, e.g. `suspend_user`. */
  actionType: string;
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
