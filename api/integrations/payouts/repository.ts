/**
 * Every SQL statement of the payout adapters: the embedded payout provider's own state
 * (embedded_payouts, embedded_payout_events, embedded_connect_accounts) and the ACH entries of
 * the NACHA files (nacha_entries). Nothing here reads the app's tables.
 */
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { DB, EmbeddedConnectAccountsTable, EmbeddedPayoutsTable, NachaEntriesTable } from '../../platform/db/schema.ts';

type Db = Kysely<DB> | Transaction<DB>;

/* ---- The embedded payout provider's payouts ---- */

export type EmbeddedPayoutRow = Selectable<EmbeddedPayoutsTable>;

export interface NewEmbeddedPayout {
  reference: string;
  method: EmbeddedPayoutRow['method'];
  idempotency_key: string;
  payout_id: string;
  user_id: string;
  amount_cents: number;
  destination: string;
  outcome: 'paid' | 'failed';
  failure_reason: string | null;
  settle_at: Date;
}

/** Takes a payout, or answers the one already taken under its idempotency key. */
export async function insertEmbeddedPayout(db: Kysely<DB>, row: NewEmbeddedPayout): Promise<{ row: EmbeddedPayoutRow; created: boolean }> {
  const inserted = await db
    .insertInto('embedded_payouts')
    .values(row)
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return { row: inserted, created: true };
  const existing = await embeddedPayoutByKey(db, row.idempotency_key);
  if (!existing) throw new Error(`embedded payout ${row.idempotency_key} vanished`);
  return { row: existing, created: false };
}

export function embeddedPayoutByKey(db: Db, idempotencyKey: string): Promise<EmbeddedPayoutRow | undefined> {
  return db.selectFrom('embedded_payouts').selectAll().where('idempotency_key', '=', idempotencyKey).executeTakeFirst();
}

export function embeddedPayoutByReference(db: Db, reference: string): Promise<EmbeddedPayoutRow | undefined> {
  return db.selectFrom('embedded_payouts').selectAll().where('reference', '=', reference).executeTakeFirst();
}

/** The payout most overdue at `now` (the provider's clock), locked; payouts another process holds are skipped. */
export async function lockDueEmbeddedPayout(trx: Transaction<DB>, now: Date): Promise<EmbeddedPayoutRow | undefined> {
  return trx
    .selectFrom('embedded_payouts')
    .selectAll()
    .where('status', '=', 'processing')
    .where('settle_at', '<=', now)
    .orderBy('settle_at')
    .limit(1)
    .forUpdate()
    .skipLocked()
    .executeTakeFirst();
}

export async function settleEmbeddedPayout(trx: Transaction<DB>, reference: string, status: 'paid' | 'failed', at: Date): Promise<void> {
  await trx.updateTable('embedded_payouts').set({ status, settled_at: at }).where('reference', '=', reference).where('status', '=', 'processing').execute();
}

/* ---- The events it owes the app ---- */

export async function insertPayoutEvent(trx: Transaction<DB>, event: { id: string; format: 'paypal' | 'stripe' | 'ach'; type: string; payload: string }): Promise<void> {
  await trx.insertInto('embedded_payout_events').values(event).execute();
}

export interface ClaimedPayoutEvent {
  id: string;
  format: 'paypal' | 'stripe' | 'ach';
  payload: Record<string, unknown>;
  attempts: number;
}

/**
 * Claims the undelivered events that are due (all, or only `onlyId`) for `claimMs`, so two
 * processes never send one at the same moment.
 */
export async function claimDuePayoutEvents(db: Kysely<DB>, onlyId: string | null, limit: number, claimMs: number): Promise<ClaimedPayoutEvent[]> {
  const claimed = await sql<ClaimedPayoutEvent>`
      UPDATE embedded_payout_events SET next_attempt_at = now() + ${`${claimMs} milliseconds`}::interval
      WHERE id IN (
        SELECT id FROM embedded_payout_events
        WHERE delivered_at IS NULL AND next_attempt_at <= now() ${onlyId === null ? sql`` : sql`AND id = ${onlyId}`}
        ORDER BY next_attempt_at, created_at
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED
      )
      RETURNING id, format, payload, attempts`.execute(db);
  return claimed.rows;
}

export async function markPayoutEventDelivered(db: Kysely<DB>, id: string, attempts: number): Promise<void> {
  await db.updateTable('embedded_payout_events').set({ delivered_at: sql<Date>`now()`, attempts, last_error: null }).where('id', '=', id).execute();
}

export async function schedulePayoutEventRetry(db: Kysely<DB>, id: string, attempts: number, error: string, waitMs: number): Promise<void> {
  await db
    .updateTable('embedded_payout_events')
    .set({ attempts, last_error: error, next_attempt_at: sql<Date>`now() + ${`${waitMs} milliseconds`}::interval` })
    .where('id', '=', id)
    .execute();
}

export function payoutEventsOf(db: Kysely<DB>, options: { undeliveredOnly?: boolean } = {}) {
  let q = db.selectFrom('embedded_payout_events').select(['id', 'format', 'type', 'payload', 'delivered_at', 'attempts', 'last_error']).orderBy('created_at').orderBy('id');
  if (options.undeliveredOnly) q = q.where('delivered_at', 'is', null);
  return q.execute();
}

/* ---- Its Stripe Connect accounts ---- */

export type ConnectAccountRow = Selectable<EmbeddedConnectAccountsTable>;

/** The user's account (made now, or the one they have) with a fresh onboarding link and the email given now. */
export async function upsertConnectAccount(
  db: Kysely<DB>,
  row: { id: string; user_id: string; email: string; link_token: string; return_url: string; refresh_url: string },
): Promise<ConnectAccountRow> {
  return db
    .insertInto('embedded_connect_accounts')
    .values(row)
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet((eb) => ({
        email: eb.ref('excluded.email'),
        link_token: eb.ref('excluded.link_token'),
        return_url: eb.ref('excluded.return_url'),
        refresh_url: eb.ref('excluded.refresh_url'),
        updated_at: sql<Date>`now()`,
      })),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function connectAccountByToken(db: Db, token: string): Promise<ConnectAccountRow | undefined> {
  return db.selectFrom('embedded_connect_accounts').selectAll().where('link_token', '=', token).executeTakeFirst();
}

export function connectAccountById(db: Db, id: string): Promise<ConnectAccountRow | undefined> {
  return db.selectFrom('embedded_connect_accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

export function lockConnectAccountByToken(trx: Transaction<DB>, token: string): Promise<ConnectAccountRow | undefined> {
  return trx.selectFrom('embedded_connect_accounts').selectAll().where('link_token', '=', token).forUpdate().executeTakeFirst();
}

export function setConnectAccountStatus(trx: Transaction<DB>, id: string, status: ConnectAccountRow['status']): Promise<ConnectAccountRow> {
  return trx
    .updateTable('embedded_connect_accounts')
    .set({ status, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/* ---- ACH entries of the NACHA files ---- */

export type NachaEntryRow = Omit<Selectable<NachaEntriesTable>, 'period'> & { period: string };

const NACHA_COLUMNS = [
  'trace_number',
  'payout_id',
  'user_id',
  'idempotency_key',
  'transaction_code',
  'amount_cents',
  'receiver_name',
  'destination_sealed',
  'account_last4',
  'status',
  'created_at',
  'confirmed_at',
] as const;

/** The next trace sequence number of this ODFI's entries. */
export async function nextTraceSequence(db: Kysely<DB>): Promise<number> {
  const res = await sql<{ n: string | number }>`select nextval('nacha_trace_seq') as n`.execute(db);
  return Number(res.rows[0]!.n);
}

export type NewNachaEntry = Omit<NachaEntryRow, 'status' | 'created_at' | 'confirmed_at'>;

/** Records an entry, or answers the one already recorded under its idempotency key. */
export async function insertNachaEntry(db: Kysely<DB>, entry: NewNachaEntry): Promise<{ row: NachaEntryRow; created: boolean }> {
  const inserted = await db
    .insertInto('nacha_entries')
    .values(entry)
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .returning([...NACHA_COLUMNS, sql<string>`to_char(period, 'YYYY-MM-DD')`.as('period')])
    .executeTakeFirst();
  if (inserted) return { row: inserted, created: true };
  const existing = await db
    .selectFrom('nacha_entries')
    .select([...NACHA_COLUMNS, sql<string>`to_char(period, 'YYYY-MM-DD')`.as('period')])
    .where('idempotency_key', '=', entry.idempotency_key)
    .executeTakeFirst();
  if (!existing) throw new Error(`NACHA entry ${entry.idempotency_key} vanished`);
  return { row: existing, created: false };
}

/** A period's entries in trace order (those already confirmed too: the file is the same file). */
export function nachaEntriesOfPeriod(db: Db, period: string): Promise<NachaEntryRow[]> {
  return db
    .selectFrom('nacha_entries')
    .select([...NACHA_COLUMNS, sql<string>`to_char(period, 'YYYY-MM-DD')`.as('period')])
    .where('period', '=', sql<Date>`${period}::date`)
    .orderBy('trace_number')
    .execute();
}

/** Marks an entry still processing paid; answers whether this call did (false when another already had). */
export async function markNachaEntryPaid(db: Db, traceNumber: string, at: Date): Promise<boolean> {
  const r = await db
    .updateTable('nacha_entries')
    .set({ status: 'paid', confirmed_at: at })
    .where('trace_number', '=', traceNumber)
    .where('status', '=', 'processing')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
