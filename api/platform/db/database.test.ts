/**
 * A direct URL beside a pooled one: the migrations and the notifications' LISTEN use a session
 * on the direct URL, everything else the pool. Needs a PostgreSQL server: TEST_DATABASE_URL's, else
 * this machine's on 127.0.0.1:5432.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, openDatabase, type Database } from './database.ts';
import { migrate } from './migrate.ts';

const SERVER = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let database: Database;

const named = (url: string, app: string) => {
  const u = new URL(url);
  u.searchParams.set('application_name', app);
  return u.toString();
};
const appName = (db: Database['db']) => sql<{ name: string }>`select current_setting('application_name') as name`.execute(db).then((r) => r.rows[0]!.name);

beforeAll(async () => {
  scratch = await createScratchDatabase(SERVER, 'framemerch_direct');
  database = await openDatabase({ url: named(scratch.url, 'fm-pooled'), directUrl: named(scratch.url, 'fm-direct') });
});

afterAll(async () => {
  await database?.close();
  await scratch?.drop();
});

describe('a database with a direct URL', () => {
  it('runs the migrations and LISTEN on the direct connection, and queries on the pool', async () => {
    expect(await appName(database.db)).toBe('fm-pooled');
    expect(await database.session(appName)).toBe('fm-direct');
    const applied = await database.session((db) => migrate(db));
    expect(applied.length).toBeGreaterThan(0);
    expect(await database.session((db) => migrate(db))).toEqual([]);

    const heard: Array<string | null> = [];
    const stop = await database.notifications.listen('framemerch_direct_test', (payload) => heard.push(payload));
    const listeners = () =>
      sql<{ name: string }>`select application_name as name from pg_stat_activity where datname = current_database() and query ilike 'listen%'`
        .execute(database.db)
        .then((r) => r.rows.map((row) => row.name));
    await expect.poll(listeners).toEqual(['fm-direct']);
    await database.notifications.notify('framemerch_direct_test', 'hello');
    await expect.poll(() => heard).toEqual(['hello']);
    await stop();
  });

  it('leaves no session connection open once the work is done', async () => {
    await database.session(appName);
    // The notifications' connection aside (its last statement a LISTEN or an UNLISTEN).
    const sessions = () =>
      sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and application_name = 'fm-direct' and query not ilike '%listen%'`
        .execute(database.db)
        .then((r) => r.rows[0]!.n);
    await expect.poll(sessions).toBe(0);
  });
});
