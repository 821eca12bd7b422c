/**
 * SQL of the database layer itself: the connection check, the migrator's bookkeeping
 * (schema_migrations, under an advisory lock) and the scratch databases of tests and benchmarks.
 */
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type pg from 'pg';
import type { DB } from './schema.ts';

export async function ping(db: Kysely<DB>): Promise<void> {
  await sql`select 1`.execute(db);
}

export async function lockMigrations(conn: Kysely<DB>, lockId: number): Promise<void> {
  await sql`select pg_advisory_lock(${lockId})`.execute(conn);
}

export async function unlockMigrations(conn: Kysely<DB>, lockId: number): Promise<void> {
  await sql`select pg_advisory_unlock(${lockId})`.execute(conn);
}

export async function ensureMigrationsTable(conn: Kysely<DB>): Promise<void> {
  await sql`
    create table if not exists schema_migrations (
      version integer primary key,
      name text not null,
      checksum text not null,
      applied_at timestamptz not null default now()
    )`.execute(conn);
}

/** Applied migrations: version to checksum. */
export async function appliedMigrations(conn: Kysely<DB>): Promise<Map<number, string>> {
  const rows = await conn.selectFrom('schema_migrations').select(['version', 'checksum']).execute();
  return new Map(rows.map((r) => [r.version, r.checksum]));
}

/** Runs one migration file's statements and records it, in the caller's transaction. */
export async function applyMigration(trx: Transaction<DB>, m: { version: number; name: string; sql: string; checksum: string }): Promise<void> {
  await sql.raw(m.sql).execute(trx);
  await trx.insertInto('schema_migrations').values({ version: m.version, name: m.name, checksum: m.checksum }).execute();
}

/** On a server connection (not a pool): scratch databases for tests and benchmarks. */
export async function createDatabase(client: pg.Client, name: string): Promise<void> {
  await client.query(`CREATE DATABASE ${name}`);
}

export async function dropDatabase(client: pg.Client, name: string): Promise<void> {
  await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

/* ---- Notifications between processes (platform/db/notifications.ts) ---- */

/** Channel names are this app's own constants: [a-z_]+ only, so they need no quoting. */
const CHANNEL = /^[a-z_]+$/;

export async function listenOn(client: pg.Client, channel: string): Promise<void> {
  if (!CHANNEL.test(channel)) throw new Error(`Bad channel name ${channel}`);
  await client.query(`LISTEN ${channel}`);
}

export async function unlistenOn(client: pg.Client, channel: string): Promise<void> {
  if (!CHANNEL.test(channel)) throw new Error(`Bad channel name ${channel}`);
  await client.query(`UNLISTEN ${channel}`);
}

/** Sent when the transaction that runs it commits (at once outside one). */
export async function notifyOn(db: Kysely<DB>, channel: string, payload: string): Promise<void> {
  await sql`select pg_notify(${channel}, ${payload})`.execute(db);
}

/* ---- Keyset paging (the codec and the page: platform/http/keyset.ts) ---- */

/** A keyset position: created_at as timestamptz text (microseconds, UTC) and the row's id. */
export interface KeysetCursor {
  ts: string;
  id: string;
}

/** The column as UTC text to the microsecond, e.g. 2026-11-26T15:04:05.123456Z (a Date would keep milliseconds only). */
export function cursorTs(column: string): RawBuilder<string> {
  return sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

/** The rows strictly after the cursor in (created_at desc, id desc) order; `idType` is the id column's SQL type. */
export function keysetAfter(createdAt: string, id: string, cursor: KeysetCursor, idType: 'uuid' | 'bigint' = 'uuid'): RawBuilder<boolean> {
  return sql<boolean>`(${sql.ref(createdAt)}, ${sql.ref(id)}) < (${cursor.ts}::timestamptz, ${cursor.id}::${sql.raw(idType)})`;
}
