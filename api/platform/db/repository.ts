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

/* ---- Leases held across processes (platform/db/leases.ts) ---- */

/** `ttlMs` from the database's clock: every process measures expiry by one clock. */
const expiresIn = (ttlMs: number) => sql<Date>`now() + ${Math.ceil(ttlMs)}::integer * interval '1 millisecond'`;

/**
 * Takes the lease when nobody holds it or its holder let it expire; answers whether it did. Two
 * processes taking one key at once meet on its row: one inserts, the other finds it held.
 */
export async function takeLease(db: Kysely<DB>, lease: { key: string; holder: string; token: string; ttlMs: number }): Promise<boolean> {
  const { rows } = await sql<{ key: string }>`
    insert into leases (key, holder, token, expires_at)
    values (${lease.key}, ${lease.holder}, ${lease.token}::uuid, ${expiresIn(lease.ttlMs)})
    on conflict (key) do update set holder = excluded.holder, token = excluded.token, expires_at = excluded.expires_at
      where leases.expires_at < now()
    returning key`.execute(db);
  return rows.length > 0;
}

/** Pushes the lease's expiry on, if this taking still holds it; answers whether it does. */
export async function renewLease(db: Kysely<DB>, key: string, token: string, ttlMs: number): Promise<boolean> {
  const row = await db.updateTable('leases').set({ expires_at: expiresIn(ttlMs) }).where('key', '=', key).where('token', '=', token).returning('key').executeTakeFirst();
  return row !== undefined;
}

/** Lets the lease go, if this taking still holds it. */
export async function dropLease(db: Kysely<DB>, key: string, token: string): Promise<void> {
  await db.deleteFrom('leases').where('key', '=', key).where('token', '=', token).execute();
}

/** Whether the lease is held now (taken and not expired). */
export async function leaseHeld(db: Kysely<DB>, key: string): Promise<boolean> {
  const row = await db.selectFrom('leases').select('key').where('key', '=', key).where('expires_at', '>=', sql<Date>`now()`).executeTakeFirst();
  return row !== undefined;
}

/** Whether any lease whose key starts with `prefix` is held now. */
export async function leaseHeldUnder(db: Kysely<DB>, prefix: string): Promise<boolean> {
  const row = await db
    .selectFrom('leases')
    .select('key')
    .where(sql<boolean>`starts_with(key, ${prefix})`)
    .where('expires_at', '>=', sql<Date>`now()`)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Removes the leases nobody renewed (what stopped or dead processes left); answers how many. */
export async function forgetExpiredLeases(db: Kysely<DB>): Promise<number> {
  const result = await db.deleteFrom('leases').where('expires_at', '<', sql<Date>`now()`).executeTakeFirst();
  return Number(result.numDeletedRows);
}
