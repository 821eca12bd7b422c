/**
 * Decorates the app with its technology parts (database, storage, catalogue, sealed values, clock),
 * created outside so the server and the tests choose them, and with which background loops run;
 * the app closes the database with itself.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Catalogue } from '../../../shared/catalogue/parse.ts';
import type { Config } from '../config/config.ts';
import type { Database } from '../db/database.ts';
import type { DB } from '../db/schema.ts';
import { CACHE_CHANNEL, ReadCache } from '../cache/read-cache.ts';
import { AppClock } from '../clock/app-clock.ts';
import { openSealedValues } from '../crypto/key-file.ts';
import type { SealedValues } from '../crypto/sealed-values.ts';
import type { ObjectStorage } from '../storage/object-storage.ts';
import { sweepRateLimitsEvery } from './rate-limit.ts';

/** How often expired rate-limit hits are removed. */
const RATE_LIMIT_SWEEP_MS = 10 * 60_000;

export interface AppContext {
  config: Config;
  database: Database;
  storage: ObjectStorage;
  catalogue: Catalogue;
  /**
   * Seals and opens bank details (bootstrap's prepare() and the test harness make it); when
   * absent it is opened from the configured keys as the app starts.
   */
  sealedValues?: SealedValues;
  /** Close the database when the app closes (the server does; tests that share one don't). */
  ownsDatabase: boolean;
}

/**
 * The loops that work beside the requests, each run while the app serves unless switched off:
 * the job runner, the mail sender, the embedded payment provider's expiry and delivery loop,
 * and the embedded print shop's clock.
 */
export interface BackgroundLoops {
  jobs: boolean;
  mail: boolean;
  payments: boolean;
  printShop: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    background: BackgroundLoops;
    database: Database;
    db: Kysely<DB>;
    storage: ObjectStorage;
    catalogue: Catalogue;
    readCache: ReadCache;
    sealedValues: SealedValues;
    /** The app's clock (see platform/clock): the system's, or a test clock an admin moves forward. */
    clock: AppClock;
  }
}

async function context(app: FastifyInstance, ctx: AppContext & { background: BackgroundLoops }) {
  const sealedValues = ctx.sealedValues ?? (await openSealedValues(ctx.config));
  app.decorate('config', ctx.config);
  app.decorate('background', ctx.background);
  app.decorate('database', ctx.database);
  app.decorate('db', ctx.database.db);
  app.decorate('storage', ctx.storage);
  app.decorate('catalogue', ctx.catalogue);
  const { notifications } = ctx.database;
  const logError = (msg: string) => (err: unknown) => app.log.error({ err }, msg);
  const readCache = new ReadCache(ctx.config.readCacheMs, 1000, Date.now, (namespace) => {
    void notifications.notify(CACHE_CHANNEL, namespace).catch(logError('could not tell other processes of a cache change'));
  });
  const stopListening = await notifications.listen(CACHE_CHANNEL, (namespace) => readCache.forget(namespace));
  app.addHook('onClose', async () => stopListening());
  app.decorate('readCache', readCache);
  app.decorate('sealedValues', sealedValues);
  app.decorate('clock', new AppClock(ctx.config.testClock));
  if (ctx.background.jobs) {
    const stop = sweepRateLimitsEvery(ctx.database.db, RATE_LIMIT_SWEEP_MS, logError('could not sweep the rate limits'));
    app.addHook('onClose', async () => stop());
  }
  if (ctx.ownsDatabase) app.addHook('onClose', async () => ctx.database.close());
}

export default fp(context, { name: 'context' });
