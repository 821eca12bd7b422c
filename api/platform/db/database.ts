/**
 * Opens the database: PostgreSQL when a URL is given, otherwise the embedded PGlite under the
 * data directory (or in memory). Both speak the same SQL and share every query and migration.
 */
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { embeddedNotifications, serverNotifications, type Notifications } from './notifications.ts';
import { PGliteDialect } from './pglite-dialect.ts';
import { createDatabase, dropDatabase, ping } from './repository.ts';
import type { DB } from './schema.ts';

export type DatabaseKind = 'pglite' | 'postgres';

export interface Database {
  kind: DatabaseKind;
  db: Kysely<DB>;
  /** Messages between the processes on this database (LISTEN/NOTIFY): platform/db/notifications.ts. */
  notifications: Notifications;
  /**
   * Runs `work` where a session lasts as long as its connection: on the direct URL when one is
   * given (DATABASE_URL then goes through a transaction-mode pooler, where a session-level
   * advisory lock would not hold), else on the database itself. The migrations run here.
   */
  session<T>(work: (db: Kysely<DB>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const INT8 = 20;
const DATE = 1082;

/** Numbers for bigint counts and sums, dates as their text (PGlite gets the same parsers below). */
const SERVER_TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === INT8) return (v: string) => Number(v);
    if (oid === DATE) return (v: string) => v;
    return pg.types.getTypeParser(oid, format);
  }) as typeof pg.types.getTypeParser,
};

/** `directUrl`: the same server without a pooler in between, for what needs a session (LISTEN, the migrations' lock). */
export type DatabaseTarget = { url: string; directUrl?: string } | { dataDir: string } | { memory: true };

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if ('url' in target) {
    const pool = new pg.Pool({
      connectionString: target.url,
      max: 10,
      // Connections stay open through a minute of quiet (pg's default closes them after 10 s), so
      // a burst of checkouts after a lull finds them ready, their server-side caches warm, rather
      // than opening ten new ones while it queues.
      idleTimeoutMillis: 60_000,
      types: SERVER_TYPES,
    });
    // pool.end() resolves before its clients have finished closing; close() waits for them,
    // so a database dropped right after close() never kills a connection still saying goodbye.
    const closing = new Set<Promise<void>>();
    pool.on('connect', (client) => {
      const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
      closing.add(ended);
      void ended.then(() => closing.delete(ended));
    });
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    await ping(db);
    const direct = target.directUrl;
    const notifications = serverNotifications(direct ?? target.url, db);
    return {
      kind: 'postgres',
      db,
      notifications,
      session: async (work) => {
        if (!direct) return work(db);
        const once = new Kysely<DB>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: direct, max: 1, types: SERVER_TYPES }) }) });
        try {
          return await work(once);
        } finally {
          await once.destroy();
        }
      },
      close: async () => {
        await notifications.close();
        await db.destroy();
        await Promise.all([...closing]);
      },
    };
  }

  if ('dataDir' in target) await mkdir(target.dataDir, { recursive: true });
  // One options object: PGlite reads its second argument only when the first is a data
  // directory, and an in-memory database must get the same parsers and extensions.
  // pg_trgm: the trigram indexes of the admin lists' searches (0016_admin_indexes.sql).
  const pglite = new PGlite({
    ...('dataDir' in target ? { dataDir: target.dataDir } : {}),
    parsers: { [INT8]: (v: string) => Number(v), [DATE]: (v: string) => v },
    extensions: { pg_trgm },
  });
  await pglite.waitReady;
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite) });
  const notifications = embeddedNotifications(pglite, db);
  return {
    kind: 'pglite',
    db,
    notifications,
    session: (work) => work(db),
    close: async () => {
      await notifications.close();
      await db.destroy();
    },
  };
}

/**
 * Creates an empty database with a unique name on the PostgreSQL server of `serverUrl`, for a
 * test run or a benchmark; `drop` removes it again, even with connections still open.
 */
export async function createScratchDatabase(serverUrl: string, prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = async (statement: (client: pg.Client, name: string) => Promise<void>) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await statement(client, name);
    } finally {
      await client.end();
    }
  };
  await admin(createDatabase);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(dropDatabase) };
}
