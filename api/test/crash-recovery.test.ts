/**
 * kill -9 of the real server process at random moments of its first start (migrations,
 * catalogue, demo media, the seed transaction, serving), then a restart: the database must
 * hold all the demo rows or none, never duplicates, and the next start completes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../platform/db/database.ts';
import { DEMO_CREATORS, DEMO_VIDEOS } from '../seed/demo-content.ts';
import { SEED_MARKER } from '../seed/seed-demo.ts';
import { freshDatabase, MEDIA_CACHE, type TestDatabase } from './harness.ts';
import { freePort } from './ports.ts';
import { exited, startServer, waitForHealth } from './server-process.ts';

let dataDir = '';
let pgdb: TestDatabase | null = null;

afterAll(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  await pgdb?.drop();
});

function start(port: number, databaseUrl: string | null) {
  return startServer({
    DATA_DIR: dataDir,
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    ADMIN_PASSWORD: 'crash test password',
    DEMO_MEDIA_CACHE: MEDIA_CACHE,
    DATABASE_URL: databaseUrl ?? '',
  });
}

async function state(databaseUrl: string | null) {
  const database = await openDatabase(databaseUrl ? { url: databaseUrl } : { dataDir: path.join(dataDir, 'pglite') });
  try {
    const migrated = await sql<{ t: string | null }>`select to_regclass('public.admin_settings')::text as t`.execute(database.db);
    if (!migrated.rows[0]?.t) return { creators: 0, videos: 0, admins: 0, marker: false };
    const { rows } = await sql<{ creators: number; videos: number; admins: number; marker: boolean }>`
      select (select count(*) from users where role = 'creator')::int as creators,
             (select count(*) from videos)::int as videos,
             (select count(*) from users where is_admin)::int as admins,
             exists (select 1 from admin_settings where key = ${SEED_MARKER}) as marker`.execute(database.db);
    return rows[0]!;
  } finally {
    await database.close();
  }
}

describe('kill -9 during the first start', () => {
  it('never leaves partial or duplicated demo content, and the next start completes', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'framemerch-crash-'));
    if (process.env.TEST_DATABASE_URL) {
      pgdb = await freshDatabase();
      await pgdb.database.close();
    }
    const url = pgdb?.url ?? null;
    const port = await freePort();
    const full = { creators: DEMO_CREATORS.length, videos: DEMO_VIDEOS.length, admins: 1, marker: true };
    const empty = { creators: 0, videos: 0, admins: 0, marker: false };
    // From a kill at once (nothing done yet) through kills across migrations, media and the seed
    // transaction; where each of those falls depends on the machine's speed.
    const delays = [50, 900, 1800, 2600, 3200, 3800, 4400, 4800, 5200, 5600, 6000, 9000];
    const seen: string[] = [];
    const killAndCheck = async (child: ReturnType<typeof start>, when: string) => {
      child.kill('SIGKILL');
      await exited(child);
      const s = await state(url);
      expect([empty, full], `after a kill ${when}`).toContainEqual(s);
      seen.push(s.marker ? 'full' : 'empty');
    };
    for (const delay of delays) {
      const child = start(port, url);
      await new Promise((r) => setTimeout(r, delay));
      await killAndCheck(child, `at ${delay} ms`);
    }
    // And once it serves: whatever the timings above hit, the seed has committed by then.
    const serving = start(port, url);
    await waitForHealth(port, serving);
    await killAndCheck(serving, 'once serving');
    // The kills landed both before the seed committed (the first) and after it (the last).
    expect(seen[0]).toBe('empty');
    expect(seen.at(-1)).toBe('full');
    // Once committed, it stays: no later kill finds it undone.
    expect(seen.slice(seen.indexOf('full'))).not.toContain('empty');
    const child = start(port, url);
    await waitForHealth(port, child);
    const feed = (await (await fetch(`http://127.0.0.1:${port}/api/videos?limit=100`)).json()) as { videos: unknown[] };
    expect(feed.videos).toHaveLength(DEMO_VIDEOS.length);
    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
    expect(await state(url)).toEqual(full);
  }, 240_000);
});
