/**
 * Test harness: a fresh database for each test file (in-memory PGlite, or a new database on
 * the PostgreSQL server named by TEST_DATABASE_URL), migrated, with the catalogue loaded and
 * storage in a temporary folder; the app built around it and driven through inject().
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../app.ts';
import { loadConfig, type Config } from '../platform/config/config.ts';
import { createScratchDatabase, openDatabase, type Database } from '../platform/db/database.ts';
import { migrate } from '../platform/db/migrate.ts';
import { syncCatalogue } from '../modules/merch/repository.ts';
import { readCatalogue } from '../modules/merch/catalogue.ts';
import { LocalStorage } from '../integrations/s3/local-storage.ts';

export const MEDIA_CACHE = path.resolve(import.meta.dirname, '../../.cache/demo-media');

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
  return loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', WEB_DIST: 'none', READ_CACHE_MS: '0', ...overrides });
}

export async function testApp(opts: { config?: Config } = {}) {
  const config = opts.config ?? (await testConfig());
  const tdb = await freshDatabase();
  const storage = await LocalStorage.open(path.join(config.dataDir, 'storage'));
  const catalogue = await readCatalogue();
  await syncCatalogue(tdb.database.db, catalogue);
  const app = await buildApp({ config, database: tdb.database, storage, catalogue, ownsDatabase: false });
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
