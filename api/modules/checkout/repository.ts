/**
 * Every SQL statement of checkout: the merch a cart names, the pending order it becomes, the
 * payment session noted on it, the order page's read, and the order a payment event is about.
 *
 * Opening a checkout is on the busiest path of the shop (a sale brings many buyers at once), so
 * it costs few round trips: one read (the idempotency key and the cart's merch together), one
 * statement that writes the order, its items and its first history row, and after the payment
 * provider the update that notes the session.
 */
import { sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { CheckoutCountry } from '../../../shared/constants.ts';
import type { DB, OrderItemsTable, OrderStatus } from '../../platform/db/schema.ts';

/** The order an idempotency key already made, with the digest of what the key was first used with. */
export interface KeyedOrder {
  id: string;
  fingerprint: string | null;
}

export interface CartMerch {
  /** The order a request with this idempotency key already made, if any. */
  existing: KeyedOrder | null;
  products: Array<{ id: string; video_id: string | null; creator_id: string | null }>;
  /** Their screenshots, by product and position. */
  shots: Array<{ id: string; merch_product_id: string; position: number; kind: 'thumbnail' | 'capture' | 'crop'; storage_key: string }>;
}

/**
 * In one round trip: the order an idempotency key already made, and the stored merch products a
 * cart names with their screenshots in order. Written as SQL, as insertPendingOrder is: on this
 * path the query builder's own work was a sizeable part of a checkout's CPU time.
 */
export async function cartMerch(db: Kysely<DB>, idempotencyKey: string | null, productIds: string[]): Promise<CartMerch> {
  const { rows } = await sql<{ existing: KeyedOrder | null; products: CartMerch['products']; shots: CartMerch['shots'] }>`
    SELECT
      (SELECT json_build_object('id', id, 'fingerprint', idempotency_fingerprint) FROM orders WHERE idempotency_key = ${idempotencyKey}::text) AS existing,
      (SELECT coalesce(json_agg(p), '[]') FROM (
        SELECT id, video_id, creator_id FROM merch_products WHERE id = ANY(${productIds}::uuid[])
      ) p) AS products,
      (SELECT coalesce(json_agg(s ORDER BY s.merch_product_id, s.position), '[]') FROM (
        SELECT id, merch_product_id, position, kind, storage_key FROM merch_screenshots WHERE merch_product_id = ANY(${productIds}::uuid[])
      ) s) AS shots`.execute(db);
  const row = rows[0]!;
  return { existing: row.existing, products: row.products, shots: row.shots };
}

export async function orderByIdempotencyKey(db: Kysely<DB>, key: string): Promise<KeyedOrder | null> {
  const row = await db.selectFrom('orders').select(['id', 'idempotency_fingerprint as fingerprint']).where('idempotency_key', '=', key).executeTakeFirst();
  return row ?? null;
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
  idempotency_fingerprint: string | null;
}

/** An item of a new order, as checkout priced it (every column given). */
export type NewOrderItem = Required<Omit<Insertable<OrderItemsTable>, 'id' | 'order_id' | 'print_file_key'>>;

/**
 * A pending order, its items and its first status-history row, in one statement (so in one
 * transaction of its own, all or nothing, and one round trip). Null when the idempotency key is
 * taken: then nothing is written (on PostgreSQL a concurrent insert of the same key waits for
 * the first to commit, then yields). The items travel as one JSON parameter.
 */
export async function insertPendingOrder(db: Kysely<DB>, order: NewOrder, items: NewOrderItem[], reason: string): Promise<string | null> {
  const o = order;
  const { rows } = await sql<{ id: string }>`
    WITH o AS (
      INSERT INTO orders (status, customer_user_id, customer_email, shipping_zip, shipping_country, shipping_method,
                          subtotal_cents, shipping_cents, total_cents, sms_consent, idempotency_key, idempotency_fingerprint)
      VALUES ('pending', ${o.customer_user_id}, ${o.customer_email}, ${o.shipping_zip}, ${o.shipping_country}, ${o.shipping_method},
              ${o.subtotal_cents}, ${o.shipping_cents}, ${o.total_cents}, ${o.sms_consent}, ${o.idempotency_key}, ${o.idempotency_fingerprint})
      ON CONFLICT (idempotency_key) DO NOTHING
      RETURNING id
    ), i AS (
      INSERT INTO order_items (order_id, position, sku, product_name, merch_product_id, screenshot_id, video_id, creator_id,
                               colour, handle_colour, size, quantity, unit_price_cents, size_surcharge_cents, base_cost_cents, line_total_cents)
      SELECT o.id, x.position, x.sku, x.product_name, x.merch_product_id, x.screenshot_id, x.video_id, x.creator_id,
             x.colour, x.handle_colour, x.size, x.quantity, x.unit_price_cents, x.size_surcharge_cents, x.base_cost_cents, x.line_total_cents
      FROM o, jsonb_to_recordset(${JSON.stringify(items)}::jsonb) AS x(
        position smallint, sku text, product_name text, merch_product_id uuid, screenshot_id uuid, video_id uuid, creator_id uuid,
        colour text, handle_colour text, size text, quantity integer, unit_price_cents integer, size_surcharge_cents integer,
        base_cost_cents integer, line_total_cents bigint)
    ), h AS (
      INSERT INTO order_status_history (order_id, from_status, to_status, reason)
      SELECT o.id, NULL, 'pending', ${reason}::text FROM o
    )
    SELECT id FROM o`.execute(db);
  return rows[0]?.id ?? null;
}

/** What a payment session is opened with: the stored order and its items with their pictures, in one round trip. */
export async function orderForSession(db: Kysely<DB>, orderId: string) {
  const row = await db
    .selectFrom('orders as o')
    .select((eb) => [
      'o.id',
      'o.shipping_cents',
      'o.shipping_method',
      'o.shipping_country',
      'o.shipping_zip',
      'o.total_cents',
      'o.customer_email',
      jsonArrayFrom(
        eb
          .selectFrom('order_items as i')
          .leftJoin('merch_screenshots as s', 's.id', 'i.screenshot_id')
          .select(['i.product_name', 'i.colour', 'i.handle_colour', 'i.size', 'i.quantity', 'i.unit_price_cents', 'i.size_surcharge_cents', 's.storage_key'])
          .whereRef('i.order_id', '=', 'o.id')
          .orderBy('i.position'),
      ).as('items'),
    ])
    .where('o.id', '=', orderId)
    .executeTakeFirstOrThrow();
  const { items, ...order } = row;
  return { order, items };
}

export async function notePaymentSession(db: Kysely<DB>, orderId: string, provider: 'stripe' | 'embedded', sessionId: string): Promise<void> {
  await sql`UPDATE orders SET payment_provider = ${provider}, payment_session_id = ${sessionId}, updated_at = now() WHERE id = ${orderId}`.execute(db);
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
  /** When a payment for it was first seen; null for an order never paid. */
  paid_at: Date | null;
}

/** The order a payment event is about, its row locked until the transaction ends. */
export function lockOrder(trx: Transaction<DB>, where: { id: string } | { sessionId: string } | { paymentIntentId: string }) {
  let q = trx
    .selectFrom('orders')
    .select(['id', 'status', 'payment_session_id', 'payment_intent_id', 'customer_email', 'total_cents', 'fulfilment_order_id', 'paid_at']);
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

/** The order a payment session was opened for, and where it stands. */
export function orderStateBySession(db: Kysely<DB>, sessionId: string) {
  return db.selectFrom('orders').select(['id', 'status']).where('payment_session_id', '=', sessionId).executeTakeFirst();
}

export interface ReconciliationRun {
  since: Date;
  provider: string;
  checked: number;
  inOrder: number;
  repaired: Array<{ session_id: string; order_id: string; effect: string }>;
  refunded: Array<{ session_id: string; order_id: string | null; why: string }>;
}

export async function insertReconciliation(db: Kysely<DB>, run: ReconciliationRun): Promise<void> {
  await db
    .insertInto('payment_reconciliations')
    .values({
      since: run.since,
      provider: run.provider,
      checked: run.checked,
      in_order: run.inOrder,
      repaired: JSON.stringify(run.repaired),
      refunded: JSON.stringify(run.refunded),
    })
    .execute();
}

/** The latest runs, newest first. */
export function latestReconciliations(db: Kysely<DB>, limit: number) {
  return db.selectFrom('payment_reconciliations').selectAll().orderBy('ran_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** How many of an order's items have no frame left to print (neither their screenshot nor a kept copy: the video was deleted). */
export async function itemsWithoutFrame(trx: Transaction<DB>, orderId: string): Promise<number> {
  const row = await trx
    .selectFrom('order_items')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('order_id', '=', orderId)
    .where('screenshot_id', 'is', null)
    .where('withheld_frame_key', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
