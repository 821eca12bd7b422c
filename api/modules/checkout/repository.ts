/**
 * Every SQL statement of checkout: the merch a cart names, the pending order it becomes, the
 * payment session noted on it, the order page's read, and the order a payment event is about.
 */
import { sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import type { CheckoutCountry } from '../../../shared/constants.ts';
import type { DB, OrderItemsTable, OrderStatus } from '../../platform/db/schema.ts';

/** The stored merch products a cart names and their screenshots, in order. */
export async function merchForCart(db: Kysely<DB>, productIds: string[]) {
  const products = await db.selectFrom('merch_products').select(['id', 'video_id', 'creator_id']).where('id', 'in', productIds).execute();
  const shots = await db
    .selectFrom('merch_screenshots')
    .select(['id', 'merch_product_id', 'position', 'kind', 'storage_key'])
    .where('merch_product_id', 'in', productIds)
    .orderBy('merch_product_id')
    .orderBy('position')
    .execute();
  return { products, shots };
}

export async function orderIdByIdempotencyKey(db: Kysely<DB>, key: string): Promise<string | null> {
  const row = await db.selectFrom('orders').select('id').where('idempotency_key', '=', key).executeTakeFirst();
  return row?.id ?? null;
}

export interface NewOrder {
  customer_user_id: string | null;
  customer_email: string | null;
  shipping_zip: string;
  shipping_country: CheckoutCountry;
  shipping_method: string;
  subtotal_cents: number;
  shipping_cents: number;
  total_cents: number;
  sms_consent: boolean;
  idempotency_key: string | null;
}

/** An item of a new order, as checkout priced it. */
export type NewOrderItem = Omit<Insertable<OrderItemsTable>, 'id' | 'order_id' | 'print_file_key'>;

/** A pending order; null when its idempotency key is taken (nothing written). */
export async function insertPendingOrder(trx: Transaction<DB>, order: NewOrder): Promise<string | null> {
  const row = await trx
    .insertInto('orders')
    .values({ ...order, status: 'pending' })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? null;
}

export async function insertOrderItems(trx: Transaction<DB>, orderId: string, items: NewOrderItem[]): Promise<void> {
  await trx
    .insertInto('order_items')
    .values(items.map((i) => ({ ...i, order_id: orderId })))
    .execute();
}

/** What a payment session is opened with: the stored order and its items with their pictures. */
export async function orderForSession(db: Kysely<DB>, orderId: string) {
  const order = await db
    .selectFrom('orders')
    .select(['id', 'shipping_cents', 'shipping_method', 'shipping_country', 'shipping_zip', 'total_cents', 'customer_email'])
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  const items = await db
    .selectFrom('order_items as i')
    .leftJoin('merch_screenshots as s', 's.id', 'i.screenshot_id')
    .select(['i.product_name', 'i.colour', 'i.handle_colour', 'i.size', 'i.quantity', 'i.unit_price_cents', 'i.size_surcharge_cents', 's.storage_key'])
    .where('i.order_id', '=', orderId)
    .orderBy('i.position')
    .execute();
  return { order, items };
}

export async function notePaymentSession(db: Kysely<DB>, orderId: string, provider: 'stripe' | 'embedded', sessionId: string): Promise<void> {
  await db
    .updateTable('orders')
    .set({ payment_provider: provider, payment_session_id: sessionId, updated_at: sql<Date>`now()` })
    .where('id', '=', orderId)
    .execute();
}

export function orderBySession(db: Kysely<DB>, sessionId: string) {
  return db.selectFrom('orders').select(['id', 'status', 'tracking_url']).where('payment_session_id', '=', sessionId).executeTakeFirst();
}

/** The order page: the order, its items as bought, and its status history. */
export async function orderPage(db: Kysely<DB>, orderId: string) {
  const order = await db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirst();
  if (!order) return null;
  const items = await db
    .selectFrom('order_items as i')
    .leftJoin('merch_screenshots as s', 's.id', 'i.screenshot_id')
    .leftJoin('merch_products as p', 'p.id', 'i.merch_product_id')
    .select([
      'i.product_name',
      'i.sku',
      'i.colour',
      'i.handle_colour',
      'i.size',
      'i.quantity',
      'i.unit_price_cents',
      'i.size_surcharge_cents',
      'i.line_total_cents',
      's.storage_key',
      'p.video_title',
    ])
    .where('i.order_id', '=', orderId)
    .orderBy('i.position')
    .execute();
  const history = await db.selectFrom('order_status_history').select(['to_status', 'created_at']).where('order_id', '=', orderId).orderBy('id').execute();
  return { order, items, history };
}

export interface LockedOrder {
  id: string;
  status: OrderStatus;
  /** Set once the order has been sent to the print shop. */
  fulfilment_order_id: string | null;
  payment_session_id: string | null;
  payment_intent_id: string | null;
  customer_email: string | null;
  total_cents: number;
}

/** The order a payment event is about, its row locked until the transaction ends. */
export function lockOrder(trx: Transaction<DB>, where: { id: string } | { sessionId: string } | { paymentIntentId: string }) {
  let q = trx
    .selectFrom('orders')
    .select(['id', 'status', 'payment_session_id', 'payment_intent_id', 'customer_email', 'total_cents', 'fulfilment_order_id']);
  if ('id' in where) q = q.where('id', '=', where.id);
  else if ('sessionId' in where) q = q.where('payment_session_id', '=', where.sessionId);
  else q = q.where('payment_intent_id', '=', where.paymentIntentId);
  return q.forUpdate().executeTakeFirst() as Promise<LockedOrder | undefined>;
}

/**
 * The order a payment belongs to. Before the payment's completion is seen the order does not
 * hold the payment intent yet; the embedded provider's own session does.
 */
export async function orderIdForIntent(trx: Transaction<DB>, intentId: string): Promise<string | null> {
  const order = await trx.selectFrom('orders').select('id').where('payment_intent_id', '=', intentId).executeTakeFirst();
  if (order) return order.id;
  const session = await trx.selectFrom('embedded_payment_sessions').select('order_id').where('payment_intent_id', '=', intentId).executeTakeFirst();
  return session?.order_id ?? null;
}
