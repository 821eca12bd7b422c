/** SQL of the HTTP layer: the health check's round trip and the rate limiters' shared counts. */
import type { Kysely, Transaction } from 'kysely';
import { sql } from 'kysely';
import type { DB } from '../db/schema.ts';

export async function pingDatabase(db: Kysely<DB>): Promise<void> {
  await sql`select 1`.execute(db);
}

/** The rate limiters' hits (platform/http/rate-limit.ts): one row per counted request. */
export interface HitWindow {
  bucket: string;
  key: string;
  /** Hits at or before this time have left the window. */
  since: Date;
}

/** Times of a key's hits still inside its window, oldest first. */
export async function recentHits(db: Kysely<DB>, w: HitWindow): Promise<Date[]> {
  const rows = await db
    .selectFrom('rate_limit_hits')
    .select('at')
    .where('bucket', '=', w.bucket)
    .where('key', '=', w.key)
    .where('at', '>', w.since)
    .orderBy('at')
    .execute();
  return rows.map((r) => r.at);
}

/**
 * Records `count` hits at `at` when the key has fewer than `max` inside its window; answers
 * whether it did. A transaction-scoped advisory lock on the key makes the count and the insert
 * one step across every process, so concurrent requests cannot all slip under the limit; the
 * key's rows past their window go in the same transaction.
 */
export async function takeHits(db: Kysely<DB>, w: HitWindow, hit: { at: Date; expiresAt: Date; count: number; max: number }): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`${w.bucket}:${w.key}`}, 0))`.execute(trx);
    await trx.deleteFrom('rate_limit_hits').where('bucket', '=', w.bucket).where('key', '=', w.key).where('at', '<=', w.since).execute();
    const row = await trx
      .selectFrom('rate_limit_hits')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('bucket', '=', w.bucket)
      .where('key', '=', w.key)
      .executeTakeFirstOrThrow();
    if (Number(row.n) >= hit.max) return false;
    await insertHits(trx, w, hit);
    return true;
  });
}

/** Records `count` hits at `at`, whatever the count already is (a failure that happened). */
export async function insertHits(db: Kysely<DB> | Transaction<DB>, w: HitWindow, hit: { at: Date; expiresAt: Date; count: number }): Promise<void> {
  if (hit.count <= 0) return;
  await db
    .insertInto('rate_limit_hits')
    .values(Array.from({ length: hit.count }, () => ({ bucket: w.bucket, key: w.key, at: hit.at, expires_at: hit.expiresAt })))
    .execute();
}

export async function clearHits(db: Kysely<DB>, bucket: string, key: string): Promise<void> {
  await db.deleteFrom('rate_limit_hits').where('bucket', '=', bucket).where('key', '=', key).execute();
}

/** Removes every hit past its window (keys that are not used again); answers how many. */
export async function sweepExpiredHits(db: Kysely<DB>, now: Date): Promise<number> {
  const res = await db.deleteFrom('rate_limit_hits').where('expires_at', '<', now).executeTakeFirst();
  return Number(res.numDeletedRows);
}
