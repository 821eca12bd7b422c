/** SQL for the typed system settings (rows of admin_settings keyed by the setting's name). */
import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';

/** The stored values of these keys (a key never saved has no row). */
export async function readSettingValues(db: Kysely<DB>, keys: readonly string[]): Promise<Map<string, unknown>> {
  const rows = await db.selectFrom('admin_settings').select(['key', 'value']).where('key', 'in', keys).execute();
  return new Map(rows.map((r) => [r.key, r.value as unknown]));
}

/** The stored value, read with its row locked (undefined when never saved). */
export async function lockSettingValue(db: Kysely<DB>, key: string): Promise<unknown> {
  const row = await db.selectFrom('admin_settings').select('value').where('key', '=', key).forUpdate().executeTakeFirst();
  return row ? (row.value as unknown) : undefined;
}

export async function writeSettingValue(db: Kysely<DB>, key: string, value: unknown, adminUserId: string): Promise<void> {
  const json = JSON.stringify(value);
  const now = new Date();
  await db
    .insertInto('admin_settings')
    .values({ key, value: json, updated_by: adminUserId, updated_at: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: json, updated_by: adminUserId, updated_at: now }))
    .execute();
}
