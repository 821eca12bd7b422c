/**
 * Opens the database: PostgreSQL when a URL is given, otherwise the embedded PGlite under the
 * data directory (or in memory). Both speak the same SQL and share every query and migration.
 */
import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { PGliteDialect } from './pglite-dialect.ts';
import type { DB } from './schema.ts';

export type DatabaseKind = 'pglite' | 'postgres';

export interface Database {
  kind: DatabaseKind;
  db: Kysely<DB>;
  close(): Promise<void>;
}

const INT8 = 20;
const DATE = 1082;

export type DatabaseTarget = { url: string } | { dataDir: string } | { memory: true };

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if ('url' in target) {
    const pool = new pg.Pool({
      connectionString: target.url,
      max: 10,
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
          if (oid === INT8) return (v: string) => Number(v);
          if (oid === DATE) return (v: string) => v;
          return pg.types.getTypeParser(oid, format);
        }) as typeof pg.types.getTypeParser,
      },
    });
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    await sql`select 1`.execute(db);
    return { kind: 'postgres', db, close: () => db.destroy() };
  }

  if ('dataDir' in target) await mkdir(target.dataDir, { recursive: true });
  const pglite = new PGlite('dataDir' in target ? target.dataDir : undefined, {
    parsers: { [INT8]: (v: string) => Number(v), [DATE]: (v: string) => v },
  });
  await pglite.waitReady;
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite) });
  return { kind: 'pglite', db, close: () => db.destroy() };
}
