/**
 * A creator's sales analytics, read from the earning records: an item counts as sold when it
 * has a sale record, its order is paid (or further along, not refunded or cancelled) and no
 * reversal followed. Revenue is what buyers paid for the creator's items (surcharges in,
 * shipping out); earnings are the creator's shares, net of reversals.
 */
import type { Kysely } from 'kysely';
import type { SalesAnalytics } from '../../../shared/schemas/checkout.ts';
import type { DB } from '../../platform/db/schema.ts';
import { salesFigures } from './repository.ts';

/** a / b rounded half up, for non-negative whole numbers; 0 when b is 0. */
export function divideHalfUp(a: number, b: number): number {
  if (b === 0) return 0;
  return Math.floor((2 * a + b) / (2 * b));
}

export async function salesAnalytics(db: Kysely<DB>, creatorId: string): Promise<SalesAnalytics> {
  const { totals, net, products } = await salesFigures(db, creatorId);
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
