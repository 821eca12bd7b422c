/**
 * GET /api/admin/dashboard-stats: every figure against rows this file makes in a fresh database
 * (users, videos, subscriptions, orders, payouts, jobs, admin log), in integer cents; the 10
 * newest admin log entries with their admins' names; admins only (the user_id parameter decides
 * nothing).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../../shared/schemas/auth.ts';
import { job, order, person, send, subscription, video, type Person } from '../../test/admin-support.ts';
import { ORIGIN } from '../../test/browser.ts';
import { testApp, testConfig, type TestApp } from '../../test/harness.ts';
import { recordAdminAction } from './index.ts';

let t: TestApp;
let admin: Person;
let creator: Person;
let customer: Person;

beforeAll(async () => {
  t = await testApp({ config: await testConfig({ PUBLIC_URL: ORIGIN }) });
  admin = await person(t, { admin: true, name: 'Ada Admin' });
  creator = await person(t, { name: 'Cora Creator' });
  customer = await person(t, { role: 'customer', name: 'Cus Tomer' });
});
afterAll(async () => t?.close());

const stats = async (as: Person = admin) => {
  const res = await send(t, as, { url: '/api/admin/dashboard-stats' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('GET /api/admin/dashboard-stats', () => {
  it('counts exactly what is in the database, money in integer cents', async () => {
    const c2 = await person(t, { name: 'Second Creator' });
    const c3 = await person(t, { name: 'Suspended Creator' });
    await t.db.updateTable('users').set({ status: 'suspended' }).where('id', '=', c3.id).execute();

    // Videos: approved counts both 'approved' and uploads verified at sign-in; pending is 'pending'.
    await video(t, creator.id, 'verified_via_supabase_auth');
    await video(t, creator.id, 'approved');
    await video(t, creator.id, 'pending');
    await video(t, c2.id, 'pending');
    await video(t, c2.id, 'rejected');

    // Subscriptions: live = trialing, active, past_due (any tier); premium = live Pro.
    await subscription(t, creator.id, 'pro', 'trialing');
    await subscription(t, c2.id, 'pro', 'canceled');
    await subscription(t, c3.id, 'free', 'active', true);
    await subscription(t, customer.id, 'pro', 'past_due');

    // Orders: paid and onward count as revenue (items and shipping); pending, cancelled, refunded do not.
    await order(t, 'paid', 1000, 500);
    await order(t, 'shipped', 2000, 0);
    await order(t, 'delivered', 1234, 99);
    await order(t, 'refunded', 700, 100);
    await order(t, 'pending', 300, 50);
    await order(t, 'cancelled', 100, 0);

    // Owed to creators: positive balances (a negative one, a refund after a payout, offsets nothing)
    // plus payouts made and not settled.
    await t.db.updateTable('users').set({ pending_payout_cents: 2500 }).where('id', '=', creator.id).execute();
    await t.db.updateTable('users').set({ pending_payout_cents: -300 }).where('id', '=', c2.id).execute();
    const payout = (userId: string, status: 'pending' | 'processing' | 'paid' | 'failed', cents: number, period: string) =>
      t.db.insertInto('payouts').values({ user_id: userId, amount_cents: cents, method: 'paypal', period, payout_date: period, status }).execute();
    await payout(creator.id, 'pending', 4000, '2026-09-01');
    await payout(creator.id, 'processing', 1500, '2026-10-01');
    await payout(c2.id, 'paid', 9999, '2026-09-01');
    await payout(c2.id, 'failed', 700, '2026-10-01');

    await job(t, 'failed');
    await job(t, 'failed');
    await job(t, 'done');
    await job(t, 'queued');

    const body = await stats();
    expect(body.stats).toEqual({
      total_users: 5,
      active_users: 4,
      suspended_users: 1,
      total_videos: 5,
      pending_videos: 2,
      approved_videos: 2,
      total_subscriptions: 4,
      active_subscriptions: 3,
      premium_subscriptions: 2,
      creator_network_subscriptions: 1,
      total_orders: 6,
      paid_orders: 3,
      revenue_cents: 1500 + 2000 + 1333,
      pending_payouts_cents: 2500 + 4000 + 1500,
      failed_jobs: 2,
    });
    for (const v of Object.values(body.stats)) expect(Number.isInteger(v)).toBe(true);

    // A change shows at once (nothing is cached).
    await video(t, c2.id, 'pending');
    await order(t, 'submitted', 1, 0);
    const after = (await stats()).stats;
    expect([after.pending_videos, after.total_videos, after.paid_orders, after.revenue_cents]).toEqual([3, 6, 4, 4834]);
  });

  it('lists the 10 newest admin log entries, newest first, with the admin’s name', async () => {
    const other = await person(t, { admin: true, name: 'Otto Admin' });
    for (let i = 0; i < 12; i++) {
      await recordAdminAction(t.db, { adminUserId: i % 2 ? admin.id : other.id, actionType: 'update_setting', targetType: 'user', targetId: `target-${i}`, details: { i } });
    }
    const { recent_activity } = await stats();
    expect(recent_activity).toHaveLength(10);
    expect(recent_activity.map((e: { target_id: string }) => e.target_id)).toEqual(Array.from({ length: 10 }, (_, k) => `target-${11 - k}`));
    expect(recent_activity[0]).toMatchObject({ admin_user_id: admin.id, admin_display_name: 'Ada Admin', action_type: 'update_setting', target_type: 'user', details: { i: 11 } });
    expect(recent_activity[1]).toMatchObject({ admin_user_id: other.id, admin_display_name: 'Otto Admin' });
    expect(new Date(recent_activity[0].created_at).getTime()).toBeGreaterThan(0);
  });

  it('ignores user_id: the session decides who asks', async () => {
    const res = await send(t, admin, { url: `/api/admin/dashboard-stats?user_id=${creator.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const refused = await send(t, creator, { url: `/api/admin/dashboard-stats?user_id=${admin.id}` });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ success: false, error: AUTH_MESSAGES.adminRequired, code: 'FORBIDDEN' });
  });

  it("answers 401 'Not authenticated.' signed out and 403 to customers and creators", async () => {
    const anon = await send(t, null, { url: '/api/admin/dashboard-stats' });
    expect(anon.statusCode).toBe(401);
    expect(anon.json()).toEqual({ success: false, error: 'Not authenticated.', code: 'UNAUTHENTICATED' });
    for (const p of [creator, customer]) {
      const res = await send(t, p, { url: '/api/admin/dashboard-stats' });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('Access denied. Admin privileges required.');
    }
  });
});
