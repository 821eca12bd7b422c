/** The Analytics tab's figures, from the server's sales analytics. */
import { formatCents } from '../../../shared/money.ts';
import type { SalesAnalytics } from '../../../shared/schemas/checkout.ts';
import { videoPath } from '../../lib/paths.ts';

export function analyticsFigures(a: SalesAnalytics): { label: string; value: string }[] {
  return [
    { label: 'Total Sales', value: String(a.total_sales) },
    { label: 'Total Revenue', value: formatCents(a.total_revenue_cents) },
    { label: 'Products Sold', value: String(a.products_sold_count) },
    { label: 'Videos With Sales', value: String(a.videos_with_sales_count) },
    { label: 'Average Order Value', value: formatCents(a.avg_order_value_cents) },
    { label: 'Earnings', value: formatCents(a.earnings_cents) },
  ];
}

/**
 * The video page a sale came from. The page is found by the video id; the category in its
 * address is only for reading, so it is left as 0 when the reply does not give it.
 */
export function videoSourcePath(source: { id: string | null; category_id?: number | null }): string | null {
  return source.id ? videoPath(source.category_id ?? 0, source.id) : null;
}
