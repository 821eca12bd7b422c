/** SQL for the embedded identity provider: its local accounts and its records (oidc-provider's models). */
import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';

export async function findIdpAccount(db: Kysely<DB>, subject: string) {
  return db.selectFrom('idp_accounts').selectAll().where('subject', '=', subject).executeTakeFirst();
}

/** A returning person keeps the subject of their email; only the name they type is updated. */
export async function saveIdpAccount(db: Kysely<DB>, account: { subject: string; email: string; name: string }): Promise<void> {
  await db
    .insertInto('idp_accounts')
    .values(account)
    .onConflict((oc) => oc.column('subject').doUpdateSet({ name: account.name }))
    .execute();
}

export interface IdpRecordValues {
  payload: string;
  grant_id: string | null;
  uid: string | null;
  user_code: string | null;
  expires_at: Date | null;
}

export async function upsertIdpRecord(db: Kysely<DB>, model: string, id: string, row: IdpRecordValues): Promise<void> {
  await db
    .insertInto('idp_records')
    .values({ model, id, ...row })
    .onConflict((oc) => oc.columns(['model', 'id']).doUpdateSet(row))
    .execute();
}

export async function deleteExpiredIdpRecords(db: Kysely<DB>, now: Date): Promise<void> {
  await db.deleteFrom('idp_records').where('expires_at', '<', now).execute();
}

export async function findIdpRecord(db: Kysely<DB>, model: string, column: 'id' | 'uid' | 'user_code', value: string) {
  return db
    .selectFrom('idp_records')
    .select(['payload', 'consumed_at', 'expires_at'])
    .where('model', '=', model)
    .where(column, '=', value)
    .executeTakeFirst();
}

export async function consumeIdpRecord(db: Kysely<DB>, model: string, id: string): Promise<void> {
  await db.updateTable('idp_records').set({ consumed_at: new Date() }).where('model', '=', model).where('id', '=', id).execute();
}

export async function deleteIdpRecord(db: Kysely<DB>, model: string, id: string): Promise<void> {
  await db.deleteFrom('idp_records').where('model', '=', model).where('id', '=', id).execute();
}

export async function deleteIdpGrant(db: Kysely<DB>, grantId: string): Promise<void> {
  await db.deleteFrom('idp_records').where('grant_id', '=', grantId).execute();
}
