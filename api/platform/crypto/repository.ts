/**
 * SQL for the sealed values kept in the database: walking them to seal them again under a new
 * key, and counting them by key. SEALED_COLUMNS names every column that holds sealed values,
 * with its table, the column that identifies a row, and how a row's associated data is derived
 * (associated-data.ts): a new sealed column is added there, or key rotation would retire keys
 * its values still need.
 */
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { DB } from '../db/schema.ts';
import { nachaDestinationSealedFor, userBankDetailsSealedFor } from './associated-data.ts';

/** The columns of `T` that hold text (a row id, a sealed value). */
type TextColumnOf<T extends keyof DB> = {
  [C in keyof Selectable<DB[T]> & string]: Selectable<DB[T]>[C] extends string | null ? C : never;
}[keyof Selectable<DB[T]> & string];

/** One column of sealed values. */
export interface SealedColumn {
  table: keyof DB & string;
  /** The row's primary key, in whose order the rows are walked (unique, never null). */
  idColumn: string;
  column: string;
  /** The associated data a row's value is sealed with, from the row's id. */
  associatedData: (rowId: string) => string;
}

/** A registry entry, its columns checked against the table's. */
function sealedColumn<T extends keyof DB & string>(spec: { table: T; idColumn: TextColumnOf<T>; column: TextColumnOf<T>; associatedData: (rowId: string) => string }): SealedColumn {
  return spec;
}

/** Every column that holds sealed values. */
export const SEALED_COLUMNS: readonly SealedColumn[] = [
  sealedColumn({ table: 'users', idColumn: 'id', column: 'ach_account_number_encrypted', associatedData: userBankDetailsSealedFor }),
  sealedColumn({ table: 'users', idColumn: 'id', column: 'ach_routing_number_encrypted', associatedData: userBankDetailsSealedFor }),
  sealedColumn({ table: 'nacha_entries', idColumn: 'trace_number', column: 'destination_sealed', associatedData: nachaDestinationSealedFor }),
];

/** One sealed value as the walk hands it over. */
export interface SealedCell {
  table: string;
  column: string;
  rowId: string;
  /** What the value is sealed for (the column's rule applied to the row id). */
  associatedData: string;
  sealed: string;
}

interface SealedTable {
  table: string;
  idColumn: string;
  columns: SealedColumn[];
}

/** The sealed columns grouped by table, in the order SEALED_COLUMNS names them. */
function sealedTables(): SealedTable[] {
  const tables: SealedTable[] = [];
  for (const c of SEALED_COLUMNS) {
    const t = tables.find((x) => x.table === c.table);
    if (!t) tables.push({ table: c.table, idColumn: c.idColumn, columns: [c] });
    else if (t.idColumn !== c.idColumn) throw new Error(`SEALED_COLUMNS: ${c.table} is walked by ${t.idColumn}, not ${c.idColumn}`);
    else t.columns.push(c);
  }
  return tables;
}

type Replace = (cell: SealedCell) => string | null;

/** A batch's rows, the rows it changed, and the last row's id (null: no row was left). */
interface BatchDone {
  rows: number;
  updated: number;
  lastId: string | null;
}

/**
 * One batch of a table's walk, in `trx`: the next `batchSize` rows holding a sealed value after
 * row id `from` (from the first when null), locked, and their values rewritten as `replace` says.
 */
async function rewriteBatch(
  trx: Transaction<DB>,
  { table, idColumn, columns }: SealedTable,
  from: string | null,
  batchSize: number,
  replace: Replace,
): Promise<BatchDone> {
  const id = sql.ref(idColumn);
  const { rows } = await sql<Record<string, string | null>>`
    SELECT ${id}::text AS row_id, ${sql.join(columns.map((c) => sql.ref(c.column)))}
    FROM ${sql.table(table)}
    WHERE (${sql.join(
      columns.map((c) => sql`${sql.ref(c.column)} IS NOT NULL`),
      sql` OR `,
    )})${from === null ? sql`` : sql` AND ${id} > ${from}`}
    ORDER BY ${id}
    LIMIT ${batchSize}
    FOR UPDATE`.execute(trx);
  let updated = 0;
  for (const row of rows) {
    const rowId = row.row_id!;
    const changes: [string, string][] = [];
    for (const c of columns) {
      const sealed = row[c.column];
      if (sealed === null || sealed === undefined) continue;
      const next = replace({ table, column: c.column, rowId, associatedData: c.associatedData(rowId), sealed });
      if (next !== null && next !== sealed) changes.push([c.column, next]);
    }
    if (changes.length === 0) continue;
    await sql`
      UPDATE ${sql.table(table)}
      SET ${sql.join(changes.map(([column, value]) => sql`${sql.ref(column)} = ${value}`))}
      WHERE ${id} = ${rowId}`.execute(trx);
    updated++;
  }
  return { rows: rows.length, updated, lastId: rows.at(-1)?.row_id ?? null };
}

/**
 * Walks every table that holds a sealed value, table by table, in row id order, `batchSize`
 * rows at a time, each batch in its own transaction with its rows locked: `replace` says, for
 * each value, what to write instead (or null to leave it), and the batch's changes are written
 * before it commits. A walk cut short leaves whole batches done, so running it again finishes
 * the job. `afterBatch` runs after each commit.
 */
export async function rewriteSealedValues(
  db: Kysely<DB>,
  replace: Replace,
  opts: { batchSize?: number; afterBatch?: (batch: { table: string; rows: number; updated: number; lastId: string }) => void | Promise<void> } = {},
): Promise<void> {
  const batchSize = opts.batchSize ?? 500;
  for (const sealedTable of sealedTables()) {
    let after: string | null = null;
    for (;;) {
      const from: string | null = after;
      const batch: BatchDone = await db.transaction().execute((trx) => rewriteBatch(trx, sealedTable, from, batchSize, replace));
      if (batch.lastId === null) break;
      await opts.afterBatch?.({ table: sealedTable.table, rows: batch.rows, updated: batch.updated, lastId: batch.lastId });
      if (batch.rows < batchSize) break;
      after = batch.lastId;
    }
  }
}

/** How many sealed values each key id seals, over every sealed column (the id read from each value's second field). */
export async function countSealedValuesByKey(db: Kysely<DB>): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const { table, column } of SEALED_COLUMNS) {
    const { rows } = await sql<{ key_id: string; n: number | string }>`
      SELECT split_part(${sql.ref(column)}, '.', 2) AS key_id, count(*) AS n
      FROM ${sql.table(table)}
      WHERE ${sql.ref(column)} IS NOT NULL
      GROUP BY 1`.execute(db);
    for (const row of rows) counts.set(row.key_id, (counts.get(row.key_id) ?? 0) + Number(row.n));
  }
  return counts;
}
