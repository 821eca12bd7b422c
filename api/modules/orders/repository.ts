/**
 * Every SQL statement of the orders domain: the order row and its status history, the print
 * shop's reference on it, and the record of processed provider events. Functions that change
 * an order take the caller's transaction, so a change commits with its effects.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB, OrderStatus } from '../../platform/db/schema.ts';

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
  return trx.selectFrom('orders').select(['status', 'tracking_number', 'tracking_url']).where('id', '=', orderId).forUpdate().executeTakeFirst();
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
