/**
 * Every SQL statement of earnings: the earning records (a sale per credited item, a reversal
 * per refunded sale), the creators' running totals, and the analytics read from them.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Cents } from '../../../shared/money.ts';
import type { DB, OrderStatus } from '../../platform/db/schema.ts';

/** The items of a paid order made from a creator's video, in order. */
export function creditableItems(trx: Transaction<DB>, orderId: string) {
  return trx
    .selectFrom('order_items')
    .select(['id', 'creator_id', 'unit_price_cents', 'base_cost_cents', 'quantity', 'line_total_cents'])
    .where('order_id', '=', orderId)
    .where('creator_id', 'is not', null)
    .orderBy('position')
    .execute();
}

/** The sale records of an order's items, in order. */
export function orderSales(trx: Transaction<DB>, orderId: string) {
  return trx
    .selectFrom('earnings')
    .innerJoin('order_items', 'order_items.id', 'earnings.order_item_id')
    .select(['earnings.user_id', 'earnings.order_item_id', 'earnings.amount_cents', 'earnings.margin_cents', 'earnings.creator_share_cents', 'earnings.source'])
    .where('order_items.order_id', '=', orderId)
    .where('earnings.kind', '=', 'sale')
    .orderBy('order_items.position')
    .execute();
}

export interface EarningRecord {
  user_id: string | null;
  order_item_id: string | null;
  kind: 'sale' | 'reversal';
  amount_cents: number;
  margin_cents: number;
  creator_share_cents: number;
  source: string;
}

/** Writes the record unless the item already has one of its kind; answers whether it was written. */
export async function insertEarning(trx: Transaction<DB>, record: EarningRecord): Promise<boolean> {
  const inserted = await trx
    .insertInto('earnings')
    .values(record)
    .onConflict((oc) => oc.columns(['order_item_id', 'kind']).doNothing())
    .returning('id')
    .execute();
  return inserted.length > 0;
}

/**
 * Adds to a creator's total and pending earnings. The pending figure may go below zero: a refund
 * after its sale was paid out takes back what was paid, and later earnings pay that off first.
 * (The total is the sum of every sale and its reversal, so it never does.)
 */
export async function addToCreatorTotal(trx: Transaction<DB>, userId: string, delta: Cents): Promise<void> {
  await trx
    .updateTable('users')
    .set({
      total_earnings_cents: sql<number>`greatest(0, total_earnings_cents + ${delta})`,
      pending_payout_cents: sql<number>`pending_payout_cents + ${delta}`,
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', userId)
    .execute();
}

const SOLD_STATUSES: OrderStatus[] = ['paid', 'submitted', 'in_production', 'shipped', 'delivered'];

function soldItems(db: Kysely<DB>, creatorId: string) {
  return db
    .selectFrom('earnings as e')
    .innerJoin('order_items as oi', 'oi.id', 'e.order_item_id')
    .innerJoin('orders as o', 'o.id', 'oi.order_id')
    .leftJoin('videos as v', 'v.id', 'oi.video_id')
    .leftJoin('merch_products as mp', 'mp.id', 'oi.merch_product_id')
    .where('e.user_id', '=', creatorId)
    .where('e.kind', '=', 'sale')
    .where('o.status', 'in', SOLD_STATUSES)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('earnings as r')
            .select('r.id')
            .whereRef('r.order_item_id', '=', 'e.order_item_id')
            .where('r.kind', '=', 'reversal'),
        ),
      ),
    );
}

/** A creator's sales figures as the database sums them (bigint sums come back as numbers or strings). */
export async function salesFigures(db: Kysely<DB>, creatorId: string) {
  const totals = await soldItems(db, creatorId)
    .select([
      sql<number>`count(distinct oi.order_id)::bigint`.as('sales'),
      sql<number>`coalesce(sum(e.amount_cents), 0)::bigint`.as('revenue'),
      sql<number>`coalesce(sum(oi.quantity), 0)::bigint`.as('quantity'),
      sql<number>`count(distinct oi.video_id)::bigint`.as('videos'),
    ])
    .executeTakeFirstOrThrow();

  const net = { cents: (await creatorBalance(db, creatorId)).total };

  const title = sql<string>`coalesce(v.title, mp.video_title, '')`;
  const products = await soldItems(db, creatorId)
    .select([
      'oi.product_name as product',
      'oi.video_id as video_id',
      title.as('video_title'),
      sql<number>`sum(oi.quantity)::bigint`.as('quantity'),
      sql<number>`sum(e.amount_cents)::bigint`.as('revenue'),
    ])
    .groupBy(['oi.product_name', 'oi.video_id', title])
    .orderBy('revenue', 'desc')
    .orderBy('quantity', 'desc')
    .orderBy('product')
    .orderBy('video_title')
    .execute();

  return { totals, net, products };
}

/* ---- The creator's ledger, for the payment portal and the monthly statement ---- */

/**
 * A creator's share of every sale net of reversals (total), and the part of it not yet in a
 * payout, or in a failed one (pending: what the next payout run would pay; negative when a
 * refund came after its sale was paid out). Bigint sums come back as numbers or strings.
 */
export function creatorBalance(db: Kysely<DB>, creatorId: string) {
  return db
    .selectFrom('earnings as e')
    .leftJoin('payouts as p', 'p.id', 'e.payout_id')
    .select([
      sql<number>`coalesce(sum(e.creator_share_cents), 0)::bigint`.as('total'),
      sql<number>`coalesce(sum(e.creator_share_cents) filter (where e.payout_id is null or p.status = 'failed'), 0)::bigint`.as('pending'),
    ])
    .where('e.user_id', '=', creatorId)
    .executeTakeFirstOrThrow();
}

/** A creator's earning records with what was sold (product, video, order); nothing about the buyer. */
function ledgerEntries(db: Kysely<DB>, creatorId: string) {
  return db
    .selectFrom('earnings as e')
    .leftJoin('order_items as oi', 'oi.id', 'e.order_item_id')
    .leftJoin('videos as v', 'v.id', 'oi.video_id')
    .leftJoin('merch_products as mp', 'mp.id', 'oi.merch_product_id')
    .select([
      'e.id',
      'e.created_at',
      'e.kind',
      'e.source',
      'e.creator_share_cents',
      'oi.order_id',
      'oi.product_name',
      sql<string | null>`coalesce(v.title, mp.video_title)`.as('video_title'),
    ])
    .where('e.user_id', '=', creatorId);
}

/** The latest `limit` records, newest first. */
export function latestLedgerEntries(db: Kysely<DB>, creatorId: string, limit: number) {
  return ledgerEntries(db, creatorId).orderBy('e.created_at', 'desc').orderBy('e.id', 'desc').limit(limit).execute();
}

/** The records written in [from, to), oldest first. */
export function ledgerEntriesBetween(db: Kysely<DB>, creatorId: string, from: Date, to: Date) {
  return ledgerEntries(db, creatorId).where('e.created_at', '>=', from).where('e.created_at', '<', to).orderBy('e.created_at').orderBy('e.id').execute();
}
