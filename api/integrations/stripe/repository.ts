/**
 * The embedded payment provider's own state: its hosted sessions (embedded_payment_sessions) and
 * the events it owes the app's webhook (embedded_payment_events); and its subscriptions'
 * (0009_embedded_subscriptions.sql): customers, subscription-mode sessions, subscriptions,
 * invoices and manage-page links. Nothing here reads the app's tables.
 */
import { sql, type Insertable, type Kysely, type Selectable, type Transaction, type Updateable } from 'kysely';
import type {
  DB,
  EmbeddedCustomersTable,
  EmbeddedInvoicesTable,
  EmbeddedPortalSessionsTable,
  EmbeddedSubscriptionSessionsTable,
  EmbeddedSubscriptionsTable,
} from '../../platform/db/schema.ts';

export interface SessionRow {
  id: string;
  order_id: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid' | 'refunded';
  amount_total: number;
  currency: string;
  line_items: Array<Record<string, unknown>>;
  metadata: Record<string, string>;
  customer_email: string | null;
  payment_intent_id: string | null;
  success_url: string;
  cancel_url: string;
  declined_attempts: number;
  expires_at: Date;
  shipping_details: ShippingDetails | null;
  created_at: Date;
}

/** Stripe's shipping_details: the name and address collected at checkout. */
export interface ShippingDetails {
  name: string;
  address: { line1: string; line2: string | null; city: string; state: string | null; postal_code: string; country: string };
}

export interface NewSession {
  id: string;
  order_id: string;
  amount_total: number;
  line_items: string;
  metadata: string;
  customer_email: string | null;
  success_url: string;
  cancel_url: string;
  expires_at: Date;
}

/**
 * The order's session: the new one, or the one the order already has (one session per order).
 * A new one costs one round trip; only when the order has one already is it read. Written as
 * SQL: it is on the path of every checkout, where the query builder's own work showed.
 */
export async function insertSession(db: Kysely<DB>, session: NewSession): Promise<string> {
  const s = session;
  const { rows } = await sql<{ id: string }>`
    INSERT INTO embedded_payment_sessions (id, order_id, amount_total, line_items, metadata, customer_email, success_url, cancel_url, expires_at)
    VALUES (${s.id}, ${s.order_id}, ${s.amount_total}, ${s.line_items}, ${s.metadata}, ${s.customer_email}, ${s.success_url}, ${s.cancel_url}, ${s.expires_at})
    ON CONFLICT (order_id) DO NOTHING
    RETURNING id`.execute(db);
  if (rows[0]) return rows[0].id;
  const row = await db.selectFrom('embedded_payment_sessions').select('id').where('order_id', '=', session.order_id).executeTakeFirstOrThrow();
  return row.id;
}

export async function findSession(db: Kysely<DB>, sessionId: string): Promise<SessionRow | null> {
  const row = await db.selectFrom('embedded_payment_sessions').selectAll().where('id', '=', sessionId).executeTakeFirst();
  return (row as SessionRow | undefined) ?? null;
}

/** The session, its row locked until the transaction ends. */
export async function lockSession(trx: Transaction<DB>, where: { id: string } | { paymentIntentId: string }): Promise<SessionRow | undefined> {
  const q = trx.selectFrom('embedded_payment_sessions').selectAll();
  const row = await ('id' in where ? q.where('id', '=', where.id) : q.where('payment_intent_id', '=', where.paymentIntentId)).forUpdate().executeTakeFirst();
  return row as SessionRow | undefined;
}

/** Expires an open session; undefined when it was not open. */
export async function expireSession(trx: Transaction<DB>, sessionId: string): Promise<SessionRow | undefined> {
  return (await trx
    .updateTable('embedded_payment_sessions')
    .set({ status: 'expired', updated_at: sql<Date>`now()` })
    .where('id', '=', sessionId)
    .where('status', '=', 'open')
    .returningAll()
    .executeTakeFirst()) as SessionRow | undefined;
}

export async function countDecline(trx: Transaction<DB>, sessionId: string): Promise<void> {
  await trx
    .updateTable('embedded_payment_sessions')
    .set({ declined_attempts: sql<number>`declined_attempts + 1`, updated_at: sql<Date>`now()` })
    .where('id', '=', sessionId)
    .execute();
}

export async function completeSession(
  trx: Transaction<DB>,
  sessionId: string,
  paid: { paymentIntentId: string; email: string; shipping: ShippingDetails },
): Promise<SessionRow> {
  return (await trx
    .updateTable('embedded_payment_sessions')
    .set({
      status: 'complete',
      payment_status: 'paid',
      payment_intent_id: paid.paymentIntentId,
      customer_email: paid.email,
      shipping_details: JSON.stringify(paid.shipping),
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', sessionId)
    .returningAll()
    .executeTakeFirstOrThrow()) as SessionRow;
}

/** Payment-mode sessions paid (or paid and refunded) and last changed since `since`. */
export function paidSessionsSince(db: Kysely<DB>, since: Date) {
  return db
    .selectFrom('embedded_payment_sessions')
    .select(['id', 'payment_intent_id', 'order_id', 'amount_total', 'currency', 'payment_status'])
    .where('payment_status', 'in', ['paid', 'refunded'])
    .where('updated_at', '>=', since)
    .orderBy('updated_at')
    .execute();
}

export async function markRefunded(trx: Transaction<DB>, sessionId: string): Promise<void> {
  await trx.updateTable('embedded_payment_sessions').set({ payment_status: 'refunded', updated_at: sql<Date>`now()` }).where('id', '=', sessionId).execute();
}

/** Open sessions (payment-mode or subscription-mode) whose time is up, on the database's clock. */
export async function dueSessionIds(db: Kysely<DB>, table: 'embedded_payment_sessions' | 'embedded_subscription_sessions', limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom(table)
    .select('id')
    .where('status', '=', 'open')
    .where('expires_at', '<=', sql<Date>`now()`)
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

export async function insertEvent(trx: Transaction<DB>, event: { id: string; type: string; payload: string }): Promise<void> {
  await trx.insertInto('embedded_payment_events').values(event).execute();
}

/**
 * Claims the undelivered events that are due (all, or only `onlyId`) for `claimMs`, so two
 * processes never send one at the same moment.
 */
export async function claimDueEvents(db: Kysely<DB>, onlyId: string | null, limit: number, claimMs: number) {
  const claimed = await sql<{ id: string; payload: Record<string, unknown>; attempts: number }>`
      UPDATE embedded_payment_events SET next_attempt_at = now() + ${`${claimMs} milliseconds`}::interval
      WHERE id IN (
        SELECT id FROM embedded_payment_events
        WHERE delivered_at IS NULL AND next_attempt_at <= now() ${onlyId === null ? sql`` : sql`AND id = ${onlyId}`}
        ORDER BY next_attempt_at, created_at
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED
      )
      RETURNING id, payload, attempts`.execute(db);
  return claimed.rows;
}

export async function markDelivered(db: Kysely<DB>, eventId: string, attempts: number): Promise<void> {
  await db
    .updateTable('embedded_payment_events')
    .set({ delivered_at: sql<Date>`now()`, attempts, last_error: null })
    .where('id', '=', eventId)
    .execute();
}

export async function scheduleRetry(db: Kysely<DB>, eventId: string, attempts: number, error: string, waitMs: number): Promise<void> {
  await db
    .updateTable('embedded_payment_events')
    .set({ attempts, last_error: error, next_attempt_at: sql<Date>`now() + ${`${waitMs} milliseconds`}::interval` })
    .where('id', '=', eventId)
    .execute();
}

/* ---- Subscriptions (embedded-billing.ts) ---- */

type Db = Kysely<DB> | Transaction<DB>;

export type CustomerRow = Selectable<EmbeddedCustomersTable>;
export type SubscriptionSessionRow = Selectable<EmbeddedSubscriptionSessionsTable>;
export type SubscriptionRow = Selectable<EmbeddedSubscriptionsTable>;
export type InvoiceRow = Selectable<EmbeddedInvoicesTable>;
export type PortalSessionRow = Selectable<EmbeddedPortalSessionsTable>;

export async function insertCustomer(trx: Transaction<DB>, row: Insertable<EmbeddedCustomersTable>): Promise<CustomerRow> {
  return trx.insertInto('embedded_customers').values(row).returningAll().executeTakeFirstOrThrow();
}

export function findCustomer(db: Db, id: string): Promise<CustomerRow | undefined> {
  return db.selectFrom('embedded_customers').selectAll().where('id', '=', id).executeTakeFirst();
}

export function lockCustomer(trx: Transaction<DB>, id: string): Promise<CustomerRow | undefined> {
  return trx.selectFrom('embedded_customers').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export function updateCustomer(trx: Transaction<DB>, id: string, patch: Updateable<EmbeddedCustomersTable>): Promise<CustomerRow> {
  return trx
    .updateTable('embedded_customers')
    .set({ ...patch, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The session for its idempotency key: the new one, or the one the key already made. */
export async function insertSubscriptionSession(db: Kysely<DB>, row: Insertable<EmbeddedSubscriptionSessionsTable>): Promise<SubscriptionSessionRow> {
  await db
    .insertInto('embedded_subscription_sessions')
    .values(row)
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .execute();
  return db.selectFrom('embedded_subscription_sessions').selectAll().where('idempotency_key', '=', row.idempotency_key).executeTakeFirstOrThrow();
}

export function findSubscriptionSession(db: Db, id: string): Promise<SubscriptionSessionRow | undefined> {
  return db.selectFrom('embedded_subscription_sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

export function lockSubscriptionSession(trx: Transaction<DB>, id: string): Promise<SubscriptionSessionRow | undefined> {
  return trx.selectFrom('embedded_subscription_sessions').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export function updateSubscriptionSession(
  trx: Transaction<DB>,
  id: string,
  patch: Updateable<EmbeddedSubscriptionSessionsTable>,
): Promise<SubscriptionSessionRow> {
  return trx
    .updateTable('embedded_subscription_sessions')
    .set({ ...patch, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function countSubscriptionDecline(trx: Transaction<DB>, id: string): Promise<void> {
  await trx
    .updateTable('embedded_subscription_sessions')
    .set({ declined_attempts: sql<number>`declined_attempts + 1`, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .execute();
}

export function insertSubscription(trx: Transaction<DB>, row: Insertable<EmbeddedSubscriptionsTable>): Promise<SubscriptionRow> {
  return trx.insertInto('embedded_subscriptions').values(row).returningAll().executeTakeFirstOrThrow();
}

export function findSubscription(db: Db, id: string): Promise<SubscriptionRow | undefined> {
  return db.selectFrom('embedded_subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The customer's newest subscription (the one the manage page shows), locked when in a transaction that asks. */
export function latestSubscriptionOf(db: Db, customerId: string, lock = false): Promise<SubscriptionRow | undefined> {
  const q = db.selectFrom('embedded_subscriptions').selectAll().where('customer_id', '=', customerId).orderBy('created', 'desc').orderBy('id', 'desc').limit(1);
  return (lock ? q.forUpdate() : q).executeTakeFirst();
}

/** One subscription whose next step is due at `now` (the provider's clock), locked; others' holders are skipped. */
export function lockDueSubscription(trx: Transaction<DB>, now: Date): Promise<SubscriptionRow | undefined> {
  return trx
    .selectFrom('embedded_subscriptions')
    .selectAll()
    .where('next_action_at', 'is not', null)
    .where('next_action_at', '<=', now)
    .orderBy('next_action_at')
    .limit(1)
    .forUpdate()
    .skipLocked()
    .executeTakeFirst();
}

export function updateSubscription(trx: Transaction<DB>, id: string, patch: Updateable<EmbeddedSubscriptionsTable>): Promise<SubscriptionRow> {
  return trx
    .updateTable('embedded_subscriptions')
    .set({ ...patch, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The invoice for its period; undefined when that period was billed already. */
export function insertInvoice(trx: Transaction<DB>, row: Insertable<EmbeddedInvoicesTable>): Promise<InvoiceRow | undefined> {
  return trx
    .insertInto('embedded_invoices')
    .values(row)
    .onConflict((oc) => oc.columns(['subscription_id', 'line_period_start']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

export function findInvoice(db: Db, id: string): Promise<InvoiceRow | undefined> {
  return db.selectFrom('embedded_invoices').selectAll().where('id', '=', id).executeTakeFirst();
}

export function invoicesOf(db: Db, subscriptionId: string): Promise<InvoiceRow[]> {
  return db.selectFrom('embedded_invoices').selectAll().where('subscription_id', '=', subscriptionId).orderBy('created').orderBy('id').execute();
}

export function updateInvoice(trx: Transaction<DB>, id: string, patch: Updateable<EmbeddedInvoicesTable>): Promise<InvoiceRow> {
  return trx.updateTable('embedded_invoices').set(patch).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function insertPortalSession(db: Kysely<DB>, row: Insertable<EmbeddedPortalSessionsTable>): Promise<void> {
  await db.insertInto('embedded_portal_sessions').values(row).execute();
}

/** The manage page's link, while it has not expired (on the database's clock). */
export function findPortalSession(db: Db, token: string): Promise<PortalSessionRow | undefined> {
  return db.selectFrom('embedded_portal_sessions').selectAll().where('token', '=', token).where('expires_at', '>', sql<Date>`now()`).executeTakeFirst();
}
