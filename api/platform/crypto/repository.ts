/**
 * SQL for the sealed values kept in the database: walking them to seal them again under a new
 * key, and counting them by key. Every sealed column is a users column sealed with the user id
 * as associated data; a new one is added to SEALED_USER_COLUMNS.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';

/** The users columns that hold sealed values (the user id is their associated data). */
export const SEALED_USER_COLUMNS = ['ach_account_number_encrypted', 'ach_routing_number_encrypted'] as const;

export type SealedUserColumn = (typeof SEALED_USER_COLUMNS)[number];

/** One sealed value as the walk hands it over. */
export interface SealedCell {
  userId: string;
  column: SealedUserColumn;
  sealed: string;
}

/**
 * Walks the users that hold a sealed value, in id order, `batchSize` rows at a time, each batch
 * in its own transaction with its rows locked: `replace` says, for each value, what to write
 * instead (or null to leave it), and the batch's changes are written before it commits. A walk
 * cut short leaves whole batches done, so running it again finishes the job. `afterBatch` runs
 * after each commit.
 */
export async function rewriteSealedUserValues(
  db: Kysely<DB>,
  replace: (cell: SealedCell) => string | null,
  opts: { batchSize?: number; afterBatch?: (batch: { rows: number; updated: number; lastId: string }) => void | Promise<void> } = {},
): Promise<void> {
  const batchSize = opts.batchSize ?? 500;
  let after: string | null = null;
  for (;;) {
    const from: string | null = after;
    const batch = await db.transaction().execute(async (trx) => {
      let query = trx
        .selectFrom('users')
        .select(['id', ...SEALED_USER_COLUMNS])
        .where((eb) => eb.or(SEALED_USER_COLUMNS.map((column) => eb(column, 'is not', null))));
      if (from !== null) query = query.where('id', '>', from);
      const rows = await query.orderBy('id').limit(batchSize).forUpdate().execute();
      let updated = 0;
      for (const row of rows) {
        const changes: Partial<Record<SealedUserColumn, string>> = {};
        for (const column of SEALED_USER_COLUMNS) {
          const sealed = row[column];
          if (sealed === null) continue;
          const next = replace({ userId: row.id, column, sealed });
          if (next !== null && next !== sealed) changes[column] = next;
        }
        if (Object.keys(changes).length === 0) continue;
        await trx.updateTable('users').set(changes).where('id', '=', row.id).execute();
        updated++;
      }
      return { rows: rows.length, updated, lastId: rows.at(-1)?.id ?? null };
    });
    if (batch.lastId === null) return;
    await opts.afterBatch?.({ rows: batch.rows, updated: batch.updated, lastId: batch.lastId });
    if (batch.rows < batchSize) return;
    after = batch.lastId;
  }
}

/** How many sealed values each key id seals, over every sealed column (the id read from each value's second field). */
export async function countSealedValuesByKey(db: Kysely<DB>): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const column of SEALED_USER_COLUMNS) {
    const keyId = sql<string>`split_part(${sql.ref(column)}, '.', 2)`;
    const rows = await db
      .selectFrom('users')
      .select([keyId.as('key_id'), (eb) => eb.fn.countAll<number>().as('n')])
      .where(column, 'is not', null)
      .groupBy(keyId)
      .execute();
    for (const row of rows) counts.set(row.key_id, (counts.get(row.key_id) ?? 0) + Number(row.n));
  }
  return counts;
}
