/**
 * Test harness: a fresh database for each test file (in-memory PGlite, or a new database on
 * the PostgreSQL server named by TEST_DATABASE_URL), migrated, with the catalogue loaded and
 * storage in a temporary folder; the app built around it with its background loops off (tests
 * drive them by hand) and driven through inject().
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp, type AppOptions } from '../app.ts';
import { loadConfig, type Config } from '../platform/config/config.ts';
import { createScratchDatabase, openDatabase, type Database } from '../platform/db/database.ts';
import { migrate } from '../platform/db/migrate.ts';
import { readCatalogue, syncCatalogue } from '../modules/merch/index.ts';
import { openStorage } from '../integrations/s3/index.ts';

export const MEDIA_CACHE = path.resolve(import.meta.dirname, '../../.cache/demo-media');

/** No loop runs by itself: a test calls runDue(), runOnce(), deliverDue(), expireDue() or tick(). */
export const NO_BACKGROUND: AppOptions = { jobs: false, mail: false, payments: false, printShop: false };

export interface TestDatabase {
  database: Database;
  /** postgres:// URL when on PostgreSQL, for tests that start a server process. */
  url: string | null;
  drop(): Promise<void>;
}

/** A new, empty, migrated database. */
export async function freshDatabase(): Promise<TestDatabase> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) {
    const database = await openDatabase({ memory: true });
    await migrate(database.db);
    return { database, url: null, drop: () => database.close() };
  }
  const scratch = await createScratchDatabase(base, 'framemerch_test');
  const database = await openDatabase({ url: scratch.url });
  await migrate(database.db);
  return {
    database,
    url: scratch.url,
    drop: async () => {
      await database.close();
      await scratch.drop();
    },
  };
}

export async function testConfig(overrides: Record<string, string> = {}): Promise<Config> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'framemerch-test-'));
  // Reads are not cached unless a test asks for it, so a row a test writes is seen at once.
  // Every request comes from loopback, so loopback is not held to the checkout limits.
  return loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIST: 'none',
    READ_CACHE_MS: '0',
    CHECKOUT_LIMIT_LOOPBACK: 'false',
    ...overrides,
  });
}

export async function testApp(opts: { config?: Config } = {}) {
  const config = opts.config ?? (await testConfig());
  const tdb = await freshDatabase();
  const storage = await openStorage(config);
  const catalogue = await readCatalogue();
  await syncCatalogue(tdb.database.db, catalogue);
  const app = await buildApp({ config, database: tdb.database, storage, catalogue, ownsDatabase: false }, NO_BACKGROUND);
  return {
    app,
    config,
    db: tdb.database.db,
    database: tdb.database,
    storage,
    async close() {
      await app.close();
      await tdb.drop();
      await rm(config.dataDir, { recursive: true, force: true });
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof testApp>>;
