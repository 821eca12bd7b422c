/**
 * A creator's sales analytics, read from the earning records: an item counts as sold when it
 * has a sale record, its order is paid (or further along, not refunded or cancelled) and no
 * reversal followed. Revenue is what buyers paid for the creator's items (surcharges in,
 * shipping out); earnings are the creator's shares, net of reversals.
 */
import { sql, type Kysely } from 'kysely';
import type { SalesAnalytics } from '../../../shared/schemas/checkout.ts';
import type { DB, OrderStatus } from '../../platform/db/schema.ts';

const SOLD_STATUSES: OrderStatus[] = ['paid', 'submitted', 'in_production', 'shipped', 'delivered'];

/** a / b rounded half up, for non-negative whole numbers; 0 when b is 0. */
export function divideHalfUp(a: number, b: number): number {
  if (b === 0) return 0;
  return Math.floor((2 * a + b) / (2 * b));
}

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

export async function salesAnalytics(db: Kysely<DB>, creatorId: string): Promise<SalesAnalytics> {
  const totals = await soldItems(db, creatorId)
    .select([
      sql<number>`count(distinct oi.order_id)::bigint`.as('sales'),
      sql<number>`coalesce(sum(e.amount_cents), 0)::bigint`.as('revenue'),
      sql<number>`coalesce(sum(oi.quantity), 0)::bigint`.as('quantity'),
      sql<number>`count(distinct oi.video_id)::bigint`.as('videos'),
    ])
    .executeTakeFirstOrThrow();

  const net = await db
    .selectFrom('earnings')
    .select(sql<number>`coalesce(sum(creator_share_cents), 0)::bigint`.as('cents'))
    .where('user_id', '=', creatorId)
    .executeTakeFirstOrThrow();

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

  const sales = Number(totals.sales);
  const revenue = Number(totals.revenue);
  return {
    total_sales: sales,
    total_revenue_cents: revenue,
    products_sold_count: Number(totals.quantity),
    videos_with_sales_count: Number(totals.videos),
    avg_order_value_cents: divideHalfUp(revenue, sales),
    earnings_cents: Number(net.cents),
    products_sold: products.map((p) => ({
      product: p.product,
      quantity: Number(p.quantity),
      revenue_cents: Number(p.revenue),
      video_source: { id: p.video_id, title: p.video_title },
    })),
  };
}
