/**
 * Test harness: a fresh database for each test file (in-memory PGlite, or a new database on
 * the PostgreSQL server named by TEST_DATABASE_URL), migrated, with the catalogue loaded and
 * storage in a temporary folder; the app built around it with its background loops off (tests
 * drive them by hand) and driven through inject().
 */
import type { FastifyInstance, InjectOptions } from 'fastify';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp, type AppOptions } from '../app.ts';
import { loadConfig, type Config } from '../platform/config/config.ts';
import { openSealedValues } from '../platform/crypto/key-file.ts';
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

/**
 * The payout key every test app seals bank details with (a fixed key, so no key file is made);
 * a test of the key file passes PAYOUT_ENCRYPTION_KEYS: '' to testConfig.
 */
export const TEST_PAYOUT_KEYS = 'test:ZnJhbWVtZXJjaC10ZXN0LXBheW91dC1rZXktMzJieXQ=';

export async function testConfig(overrides: Record<string, string> = {}): Promise<Config> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'framemerch-test-'));
  // Reads are not cached unless a test asks for it, so a row a test writes is seen at once.
  // Every request comes from loopback unless a test names another address, so loopback is not
  // held to the per-address checkout and sign-in limits.
  return loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIST: 'none',
    READ_CACHE_MS: '0',
    CHECKOUT_LIMIT_LOOPBACK: 'false',
    AUTH_LIMIT_LOOPBACK: 'false',
    PAYOUT_ENCRYPTION_KEYS: TEST_PAYOUT_KEYS,
    ...overrides,
  });
}

/**
 * inject() addresses the app as localhost:80 unless told otherwise, where a browser uses
 * PUBLIC_URL's host, and the app redirects a read that arrives by any other host. So a test's
 * request goes to PUBLIC_URL's host unless it names a host (or a full URL) itself.
 */
function addressPublicHost(app: Pick<FastifyInstance, 'inject'>, publicUrl: string): void {
  const host = new URL(publicUrl).host;
  const inject = app.inject.bind(app) as (...args: unknown[]) => unknown;
  const withHost = (given: InjectOptions | string): InjectOptions => {
    const opts = typeof given === 'string' ? { url: given } : given;
    const headers = (opts.headers ?? {}) as Record<string, unknown>;
    const named = opts.authority || typeof opts.url === 'object' || /^https?:/i.test(String(opts.url ?? ''));
    if (named || Object.keys(headers).some((k) => k.toLowerCase() === 'host')) return opts;
    return { ...opts, headers: { ...headers, host } };
  };
  Object.assign(app, {
    inject: (...args: unknown[]) => (args.length === 0 ? inject() : inject(withHost(args[0] as InjectOptions | string), ...args.slice(1))),
  });
}

export async function testApp(opts: { config?: Config } = {}) {
  const config = opts.config ?? (await testConfig());
  const tdb = await freshDatabase();
  const storage = await openStorage(config);
  const catalogue = await readCatalogue();
  await syncCatalogue(tdb.database.db, catalogue);
  const sealedValues = await openSealedValues(config);
  const app = await buildApp({ config, database: tdb.database, storage, catalogue, sealedValues, ownsDatabase: false }, NO_BACKGROUND);
  addressPublicHost(app, config.publicUrl);
  return {
    app,
    config,
    db: tdb.database.db,
    database: tdb.database,
    storage,
    sealedValues,
    async close() {
      await app.close();
      await tdb.drop();
      await rm(config.dataDir, { recursive: true, force: true });
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof testApp>>;
