/**
 * Every SQL statement of the orders domain: the order row and its status history, the print
 * shop's reference on it, the record of processed provider events, and the admin portal's list,
 * detail and refund mark. Functions that change an order take the caller's transaction, so a
 * change commits with its effects.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { cursorTs, keysetAfter, type KeysetCursor } from '../../platform/db/repository.ts';
import type { DB, OrderStatus } from '../../platform/db/schema.ts';
import { FULFIL_ORDER_KEY_PREFIX, JOB_KINDS } from '../../platform/jobs/enqueue.ts';

/** Order columns set together with a status change (tracking, payment ids...). */
export type OrderUpdate = Partial<{
  payment_intent_id: string | null;
  customer_email: string | null;
  fulfilment_provider: 'printful' | 'embedded';
  fulfilment_order_id: string;
  tracking_url: string | null;
  tracking_number: string | null;
  paid_at: Date;
  refunded_at: Date;
  shipping_name: string | null;
  shipping_address: string | null;
}>;

/**
 * Records a provider's event as processed; false when it was recorded before (a redelivery).
 * Runs in the transaction that applies the event, so the record and the effect commit together.
 */
export async function recordProviderEvent(trx: Transaction<DB>, provider: 'stripe' | 'printful', eventId: string, eventType: string): Promise<boolean> {
  const recorded = await trx
    .insertInto('processed_webhook_events')
    .values({ provider, event_id: eventId, event_type: eventType })
    .onConflict((oc) => oc.columns(['provider', 'event_id']).doNothing())
    .returning('event_id')
    .execute();
  return recorded.length > 0;
}

/** The order's status, its row locked until the transaction ends. */
export function lockOrderStatus(trx: Transaction<DB>, orderId: string) {
  return trx.selectFrom('orders').select(['status', 'tracking_number', 'tracking_url', 'payment_intent_id']).where('id', '=', orderId).forUpdate().executeTakeFirst();
}

export async function setOrderStatus(trx: Transaction<DB>, orderId: string, to: OrderStatus, set: OrderUpdate = {}): Promise<void> {
  await trx
    .updateTable('orders')
    .set({ ...set, status: to, updated_at: sql<Date>`now()` })
    .where('id', '=', orderId)
    .execute();
}

export async function addStatusHistory(
  trx: Kysely<DB>,
  row: { orderId: string; from: OrderStatus | null; to: OrderStatus; reason: string; eventId?: string | null },
): Promise<void> {
  await trx
    .insertInto('order_status_history')
    .values({ order_id: row.orderId, from_status: row.from, to_status: row.to, reason: row.reason, event_id: row.eventId ?? null })
    .execute();
}

/** What the fulfil job needs of an order. */
export function orderToFulfil(db: Kysely<DB>, orderId: string) {
  return db
    .selectFrom('orders')
    .select(['id', 'status', 'fulfilment_order_id', 'shipping_zip', 'shipping_country', 'shipping_name', 'shipping_address'])
    .where('id', '=', orderId)
    .executeTakeFirst();
}

/** Notes the print shop's order on an order that has none yet (the order moved on meanwhile). */
export async function keepFulfilmentOrder(
  trx: Transaction<DB>,
  orderId: string,
  set: { fulfilment_provider: 'printful' | 'embedded'; fulfilment_order_id: string },
): Promise<void> {
  await trx.updateTable('orders').set(set).where('id', '=', orderId).where('fulfilment_order_id', 'is', null).execute();
}

export function orderFulfilment(db: Kysely<DB>, orderId: string) {
  return db.selectFrom('orders').select(['status', 'fulfilment_provider', 'fulfilment_order_id']).where('id', '=', orderId).executeTakeFirst();
}

/** The order and its items as the confirmation email tells them. */
export async function orderForConfirmation(db: Kysely<DB>, orderId: string) {
  const order = await db
    .selectFrom('orders')
    .select(['id', 'customer_email', 'subtotal_cents', 'shipping_cents', 'total_cents', 'shipping_method', 'shipping_zip', 'shipping_country', 'shipping_name', 'shipping_address'])
    .where('id', '=', orderId)
    .executeTakeFirst();
  if (!order) return null;
  const items = await db
    .selectFrom('order_items')
    .select(['product_name', 'colour', 'handle_colour', 'size', 'quantity', 'line_total_cents'])
    .where('order_id', '=', orderId)
    .orderBy('position')
    .execute();
  return { order, items };
}

export function orderForShippedMail(db: Kysely<DB>, orderId: string) {
  return db.selectFrom('orders').select(['id', 'customer_email', 'tracking_number', 'tracking_url']).where('id', '=', orderId).executeTakeFirst();
}

/* ---- The admin portal's orders (admin-service.ts) ---- */

/** What an admin's search matches: any of these (an exact id, a range of ids, an email LIKE pattern). */
export interface AdminOrderMatch {
  id?: string;
  /** The ids starting with a prefix: from the prefix padded with 0s to it padded with fs. */
  idRange?: { lo: string; hi: string };
  /** A LIKE pattern already escaped (backslash), matched against the email in any case. */
  emailPattern?: string;
}

export interface AdminOrderFilter {
  /** null lists every order; a match with nothing in it lists none. */
  match: AdminOrderMatch | null;
  status?: OrderStatus;
  before: KeysetCursor | null;
  limit: number;
}

/** The orders with their fulfil job (dedupe key fulfil:<order id>), if any. */
function ordersWithFulfilJob(db: Kysely<DB>) {
  return db
    .selectFrom('orders as o')
    .leftJoin('jobs as j', (join) =>
      join.on(sql<boolean>`j.dedupe_key = ${FULFIL_ORDER_KEY_PREFIX} || o.id::text`).on('j.kind', '=', JOB_KINDS.fulfilOrder),
    )
    .select(['o.id', 'o.customer_email', 'o.status', 'o.total_cents', 'o.created_at', 'o.paid_at', 'o.refunded_at', 'j.status as job_status'])
    .select((eb) =>
      eb
        .selectFrom('order_items as i')
        .whereRef('i.order_id', '=', 'o.id')
        .select(sql<number>`coalesce(sum(i.quantity), 0)`.as('n'))
        .as('item_count'),
    );
}

/** Orders newest first, as the admin's list shows them, with each row's cursor. */
export async function listAdminOrders(db: Kysely<DB>, f: AdminOrderFilter) {
  let q = ordersWithFulfilJob(db).select(cursorTs('o.created_at').as('cursor_ts'));
  if (f.status) q = q.where('o.status', '=', f.status);
  if (f.match) {
    const m = f.match;
    q = q.where((eb) => {
      const any = [];
      if (m.id) any.push(eb('o.id', '=', m.id));
      if (m.idRange) any.push(eb.and([eb('o.id', '>=', m.idRange.lo), eb('o.id', '<=', m.idRange.hi)]));
      if (m.emailPattern) any.push(sql<boolean>`o.customer_email ilike ${m.emailPattern} escape '\\'`);
      return any.length > 0 ? eb.or(any) : sql<boolean>`false`;
    });
  }
  if (f.before) q = q.where(keysetAfter('o.created_at', 'o.id', f.before));
  return q.orderBy('o.created_at', 'desc').orderBy('o.id', 'desc').limit(f.limit).execute();
}

/** One order as the admin's detail shows it, with its fulfil job's error and whether a refund is on its way. */
export function findAdminOrder(db: Kysely<DB>, orderId: string, refundPendingMinutes: number) {
  return ordersWithFulfilJob(db)
    .select([
      'o.subtotal_cents',
      'o.shipping_cents',
      'o.shipping_country',
      'o.shipping_method',
      'o.payment_provider',
      'o.payment_intent_id',
      'o.fulfilment_provider',
      'o.fulfilment_order_id',
      'o.tracking_url',
      'o.refund_requested_at',
      'j.last_error as job_last_error',
    ])
    .select(refundPending(refundPendingMinutes).as('refund_pending'))
    .where('o.id', '=', orderId)
    .executeTakeFirst();
}

/** A refund request younger than the given minutes, on the database's clock. */
function refundPending(minutes: number) {
  return sql<boolean>`coalesce(o.refund_requested_at > now() - make_interval(mins => ${minutes}::int), false)`;
}

/** The order's items in order, with their creator's username (null once the creator is gone). */
export function adminOrderItems(db: Kysely<DB>, orderId: string) {
  return db
    .selectFrom('order_items as i')
    .leftJoin('users as u', 'u.id', 'i.creator_id')
    .select(['i.product_name', 'i.colour', 'i.handle_colour', 'i.size', 'i.quantity', 'i.unit_price_cents', 'i.size_surcharge_cents', 'u.username as creator_username'])
    .where('i.order_id', '=', orderId)
    .orderBy('i.position')
    .execute();
}

/** The order's status history, oldest first. */
export function orderHistory(db: Kysely<DB>, orderId: string) {
  return db
    .selectFrom('order_status_history')
    .select(['from_status', 'to_status', 'reason', 'created_at'])
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute();
}

/** What an admin action decides on, the order row locked until the transaction ends. */
export function lockOrderForAdmin(trx: Transaction<DB>, orderId: string, refundPendingMinutes: number) {
  return trx
    .selectFrom('orders as o')
    .select(['o.id', 'o.status', 'o.total_cents', 'o.payment_provider', 'o.payment_intent_id', 'o.paid_at', 'o.fulfilment_order_id'])
    .select(refundPending(refundPendingMinutes).as('refund_pending'))
    .where('o.id', '=', orderId)
    .forUpdate()
    .executeTakeFirst();
}

/** Notes that a refund was sent to the payment provider (cleared again if the provider refuses it). */
export async function markRefundRequested(trx: Transaction<DB>, orderId: string): Promise<void> {
  await trx.updateTable('orders').set({ refund_requested_at: sql<Date>`now()` }).where('id', '=', orderId).execute();
}

export async function clearRefundRequest(db: Kysely<DB>, orderId: string): Promise<void> {
  await db.updateTable('orders').set({ refund_requested_at: null }).where('id', '=', orderId).where('status', '<>', 'refunded').execute();
}
