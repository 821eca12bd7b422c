/**
 * GET /api/studio/analytics: a creator's own sales, from the earning records the payment
 * webhook writes. Orders are paid (and one refunded) through the webhook itself, so the
 * figures are those a creator sees after real checkouts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession, SESSION_COOKIE } from '../../platform/sessions/sessions.ts';
import { createUser } from '../accounts/index.ts';
import { testApp, type TestApp } from '../../test/harness.ts';
import { completedEvent, deliver, makeOrder, makeVideo, refundedEvent } from '../../test/webhook-support.ts';

let t: TestApp;
const people: Record<'a' | 'b' | 'idle' | 'customer', { id: string; cookie: string }> = {} as never;
const videos: Record<'a1' | 'a2' | 'b1', string> = {} as never;

async function person(email: string, role: 'creator' | 'customer') {
  const user = await createUser(t.db, { email, displayName: email.split('@')[0]!, role, emailVerified: true });
  const session = await createSession(t.db, user.id, 1, {});
  return { id: user.id, cookie: `${SESSION_COOKIE}=${session.token}` };
}

async function paid(lines: Parameters<typeof makeOrder>[1]) {
  const order = await makeOrder(t.db, lines);
  const res = await deliver(t, completedEvent(order));
  expect(res.statusCode, res.body).toBe(200);
  return order;
}

beforeAll(async () => {
  t = await testApp();
  people.a = await person('alice@example.com', 'creator');
  people.b = await person('bob@example.com', 'creator');
  people.idle = await person('idle@example.com', 'creator');
  people.customer = await person('carol@example.com', 'customer');
  videos.a1 = await makeVideo(t.db, people.a.id, 'Sunset timelapse');
  videos.a2 = await makeVideo(t.db, people.a.id, 'Harbour at night');
  videos.b1 = await makeVideo(t.db, people.b.id, 'Mountain pass');
  const a1 = { creatorId: people.a.id, videoId: videos.a1 };
  const a2 = { creatorId: people.a.id, videoId: videos.a2 };
  const b1 = { creatorId: people.b.id, videoId: videos.b1 };

  // Two creators in one order.
  await paid([
    { sku: 'unisex-tshirt', size: 'M', quantity: 1, ...a1 },
    { sku: 'white-glossy-mug', size: '11oz', quantity: 2, ...a1 },
    { sku: 'unisex-tshirt', size: 'L', quantity: 1, ...b1 },
  ]);
  await paid([{ sku: 'unisex-tshirt', size: '2XL', quantity: 2, ...a1 }]);
  await paid([{ sku: 'unisex-tshirt', size: 'L', quantity: 1, ...a2 }]);
  await paid([{ sku: 'kiss-cut-stickers', size: '4x4', quantity: 1, ...a2 }]);
  // Paid, then refunded: not a sale, and its earning is reversed.
  const refunded = await paid([{ sku: 'kiss-cut-stickers', size: '3x3', quantity: 3, ...a2 }]);
  expect((await deliver(t, refundedEvent(refunded))).statusCode).toBe(200);
  // Never paid: no earning, no sale.
  await makeOrder(t.db, [{ sku: 'unisex-tshirt', size: 'M', quantity: 5, ...a2 }]);
});
afterAll(async () => t?.close());

const analytics = (cookie?: string) => t.app.inject({ method: 'GET', url: '/api/studio/analytics', headers: cookie ? { cookie } : {} });

describe('GET /api/studio/analytics', () => {
  it("sums the creator's paid, unrefunded sales: items at their prices with surcharges, no shipping", async () => {
    const res = await analytics(people.a.cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toContain('no-store');
    // Shirt M 21.69; mugs 2 x 16.95 = 33.90; shirts 2XL 2 x 23.34 = 46.68; shirt L 21.69; sticker 4x4 4.29 + 0.20 = 4.49.
    const revenue = 2169 + 3390 + 4668 + 2169 + 449;
    expect(res.json()).toEqual({
      success: true,
      analytics: {
        total_sales: 4,
        total_revenue_cents: revenue,
        products_sold_count: 1 + 2 + 2 + 1 + 1,
        videos_with_sales_count: 2,
        // 12845 / 4 = 3211.25
        avg_order_value_cents: 3211,
        // 7.00 + 14.00 + 14.00 + 7.00 + 1.20; the refunded stickers' 3 x 1.72 x 70 % = 3.61 came and went.
        earnings_cents: 700 + 1400 + 1400 + 700 + 120,
        products_sold: [
          { product: 'Unisex T-Shirt', quantity: 3, revenue_cents: 2169 + 4668, video_source: { id: videos.a1, title: 'Sunset timelapse' } },
          { product: 'White Glossy Mug', quantity: 2, revenue_cents: 3390, video_source: { id: videos.a1, title: 'Sunset timelapse' } },
          { product: 'Unisex T-Shirt', quantity: 1, revenue_cents: 2169, video_source: { id: videos.a2, title: 'Harbour at night' } },
          { product: 'Kiss-Cut Stickers', quantity: 1, revenue_cents: 449, video_source: { id: videos.a2, title: 'Harbour at night' } },
        ],
      },
    });
  });

  it("shows another creator only their own items of a shared order", async () => {
    const res = await analytics(people.b.cookie);
    expect(res.json().analytics).toEqual({
      total_sales: 1,
      total_revenue_cents: 2169,
      products_sold_count: 1,
      videos_with_sales_count: 1,
      avg_order_value_cents: 2169,
      earnings_cents: 700,
      products_sold: [{ product: 'Unisex T-Shirt', quantity: 1, revenue_cents: 2169, video_source: { id: videos.b1, title: 'Mountain pass' } }],
    });
  });

  it('is all zeros for a creator with no sales', async () => {
    const res = await analytics(people.idle.cookie);
    expect(res.json().analytics).toEqual({
      total_sales: 0,
      total_revenue_cents: 0,
      products_sold_count: 0,
      videos_with_sales_count: 0,
      avg_order_value_cents: 0,
      earnings_cents: 0,
      products_sold: [],
    });
  });

  it('agrees with the earning records and the creator totals', async () => {
    const rows = await t.db.selectFrom('earnings').select(['kind', 'creator_share_cents']).where('user_id', '=', people.a.id).execute();
    expect(rows.filter((r) => r.kind === 'reversal').map((r) => r.creator_share_cents)).toEqual([-361]);
    const user = await t.db.selectFrom('users').select(['total_earnings_cents', 'pending_payout_cents']).where('id', '=', people.a.id).executeTakeFirstOrThrow();
    expect(user).toEqual({ total_earnings_cents: 4320, pending_payout_cents: 4320 });
  });

  it('is for creators only', async () => {
    expect((await analytics()).statusCode).toBe(401);
    const customer = await analytics(people.customer.cookie);
    expect(customer.statusCode).toBe(403);
    expect(customer.json().code).toBe('FORBIDDEN');
  });
});
