/** SQL for admin_settings and app_secrets. */
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';

/**
 * Returns the setting, creating it with make() when absent. Two processes starting at once
 * agree on one value: the first insert wins and both read it back.
 */
export async function ensureSetting<T extends object>(db: Kysely<DB>, key: string, make: () => T): Promise<T> {
  const existing = await db.selectFrom('admin_settings').select('value').where('key', '=', key).executeTakeFirst();
  if (existing) return existing.value as unknown as T;
  await db
    .insertInto('admin_settings')
    .values({ key, value: JSON.stringify(make()) })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('admin_settings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
  return row.value as unknown as T;
}

/** Returns the named secret, storing value first when it has none; the first insert wins. */
export async function ensureSecret(db: Kysely<DB>, name: string, value: string): Promise<string> {
  await db
    .insertInto('app_secrets')
    .values({ name, value })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('app_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return row.value;
}
