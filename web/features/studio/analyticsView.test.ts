import { describe, expect, it } from 'vitest';
import { analyticsFigures, videoSourcePath } from './analyticsView.ts';

describe('the Analytics tab', () => {
  it('shows the six figures, money in dollars and cents', () => {
    const figures = analyticsFigures({
      total_sales: 3,
      total_revenue_cents: 7007,
      products_sold_count: 4,
      videos_with_sales_count: 2,
      avg_order_value_cents: 2336,
      earnings_cents: 1505,
      products_sold: [],
    });
    expect(figures).toEqual([
      { label: 'Total Sales', value: '3' },
      { label: 'Total Revenue', value: '$70.07' },
      { label: 'Products Sold', value: '4' },
      { label: 'Videos With Sales', value: '2' },
      { label: 'Average Order Value', value: '$23.36' },
      { label: 'Earnings', value: '$15.05' },
    ]);
  });

  it('links a sale to its video page, when the video still exists', () => {
    expect(videoSourcePath({ id: 'abc', category_id: 4 })).toBe('/video/4/abc');
    expect(videoSourcePath({ id: 'abc' })).toBe('/video/0/abc');
    expect(videoSourcePath({ id: null })).toBeNull();
  });
});
