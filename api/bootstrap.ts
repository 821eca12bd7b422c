/**
 * Everything that must be in place before the app serves: the payout keys (the sealed values),
 * the database (opened and migrated), object storage, the catalogue loaded into the database,
 * and on an empty database the demo content. Shared by the server, the tests and the benchmarks.
 */
import path from 'node:path';
import type { Catalogue } from '../shared/catalogue/parse.ts';
import { ConfigError, type Config } from './platform/config/config.ts';
import { KeyFileError, openSealedValues } from './platform/crypto/key-file.ts';
import type { SealedValues } from './platform/crypto/sealed-values.ts';
import { openDatabase, type Database, type DatabaseTarget } from './platform/db/database.ts';
import { migrate } from './platform/db/migrate.ts';
import { readCatalogue, syncCatalogue } from './modules/merch/index.ts';
import { findMediaTools } from './platform/media/ffmpeg.ts';
import { seedDemo, type SeedResult } from './seed/seed-demo.ts';
import { openStorage } from './integrations/s3/index.ts';
import type { ObjectStorage } from './platform/storage/object-storage.ts';

export interface Prepared {
  database: Database;
  storage: ObjectStorage;
  catalogue: Catalogue;
  sealedValues: SealedValues;
  seed: SeedResult;
}

export function databaseTarget(config: Pick<Config, 'databaseUrl' | 'databaseDirectUrl' | 'dataDir'>): DatabaseTarget {
  if (!config.databaseUrl) return { dataDir: path.join(config.dataDir, 'pglite') };
  return config.databaseDirectUrl ? { url: config.databaseUrl, directUrl: config.databaseDirectUrl } : { url: config.databaseUrl };
}

export async function prepare(
  config: Config,
  opts: { target?: DatabaseTarget; log?: (m: string) => void; mediaCache?: string | null } = {},
): Promise<Prepared> {
  const log = opts.log ?? (() => {});
  // The keys first: a key file that cannot be used stops the start before anything is opened.
  let sealedValues: SealedValues;
  try {
    sealedValues = await openSealedValues(config);
  } catch (err) {
    throw err instanceof KeyFileError ? new ConfigError([err.message]) : err;
  }
  const database = await openDatabase(opts.target ?? databaseTarget(config));
  try {
    const applied = await database.session((db) => migrate(db));
    if (applied.length > 0) log(`Applied migrations ${applied.join(', ')}`);
    const storage = await openStorage(config);
    const catalogue = await readCatalogue();
    await syncCatalogue(database.db, catalogue);
    let seed: SeedResult = { seeded: false };
    if (config.seedDemo) {
      const tools = await findMediaTools(config);
      seed = await seedDemo({
        db: database.db,
        storage,
        tools,
        adminPassword: config.adminPassword,
        mediaCache: opts.mediaCache ?? process.env.DEMO_MEDIA_CACHE ?? null,
        log,
      });
    }
    return { database, storage, catalogue, sealedValues, seed };
  } catch (err) {
    await database.close();
    throw err;
  }
}
