import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../../shared/schemas/auth.ts';
import { createSession, SESSION_COOKIE } from '../../platform/sessions/sessions.ts';
import { ORIGIN } from '../../test/browser.ts';
import type { TestApp } from '../../test/harness.ts';
import { seededApp } from '../../test/seeded.ts';

let t: TestApp;
beforeAll(async () => {
  t = await seededApp();
});
afterAll(async () => t?.close());

async function as(userId: string) {
  const { token } = await createSession(t.db, userId, 1, {});
  return (method: 'GET' | 'DELETE' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, cookies: { [SESSION_COOKIE]: token }, headers: { origin: ORIGIN, host: 'localhost:3000' }, ...(payload ? { payload } : {}) });
}

async function creator(username: string) {
  return t.db.selectFrom('users').select(['id', 'email']).where('username', '=', username).executeTakeFirstOrThrow();
}

describe('DELETE /api/users/:id/delete-account', () => {
  it('deletes a creator who asks: sessions, videos and their files, payout details; keeps orders without personal data', async () => {
    const pete = await creator('pixelpete');
    const videos = await t.db.selectFrom('videos').select(['id', 'video_key', 'thumbnail_key']).where('user_id', '=', pete.id).execute();
    expect(videos.length).toBeGreaterThan(0);
    const order = await t.db
      .insertInto('orders')
      .values({ customer_user_id: pete.id, customer_email: pete.email, shipping_name: 'Pete', shipping_zip: '10001', shipping_country: 'US', subtotal_cents: 100, shipping_cents: 0, total_cents: 100 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const payout = await t.db
      .insertInto('payouts')
      .values({ user_id: pete.id, amount_cents: 5000, method: 'paypal', period: '2026-10-01', payout_date: '2026-10-01' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const call = await as(pete.id);

    const res = await call('DELETE', `/api/users/${pete.id}/delete-account`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: AUTH_MESSAGES.accountDeleted });

    expect((await call('GET', '/api/auth/me')).json()).toEqual({ success: true, user: null });
    expect(await t.db.selectFrom('users').select('id').where('id', '=', pete.id).executeTakeFirst()).toBeUndefined();
    const feed = (await t.app.inject({ method: 'GET', url: '/api/videos?limit=100' })).json().videos as Array<{ id: string }>;
    for (const v of videos) {
      expect(feed.map((f) => f.id)).not.toContain(v.id);
      expect(await t.storage.stat('videos', v.video_key)).toBeNull();
      expect(await t.storage.stat('thumbnails', v.thumbnail_key!)).toBeNull();
      expect((await t.app.inject({ method: 'GET', url: `/media/videos/${v.video_key}` })).statusCode).toBe(404);
    }
    const kept = await t.db.selectFrom('orders').selectAll().where('id', '=', order.id).executeTakeFirstOrThrow();
    expect(kept).toMatchObject({ customer_user_id: null, customer_email: null, shipping_name: null, total_cents: 100 });
    expect(await t.db.selectFrom('payouts').select('user_id').where('id', '=', payout.id).executeTakeFirstOrThrow()).toEqual({ user_id: null });
    const creators = (await t.app.inject({ method: 'GET', url: '/api/creators/newest' })).json().creators as Array<{ username: string }>;
    expect(creators.map((c) => c.username)).not.toContain('pixelpete');
  });

  it('lets a customer delete their account, after which they cannot sign in', async () => {
    const signup = await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email: 'leaving@example.com', password: 'a long and unusual one' } });
    const id = signup.json().user.id as string;
    const token = (signup.cookies as Array<{ name: string; value: string }>).find((c) => c.name === SESSION_COOKIE)!.value;
    const del = await t.app.inject({ method: 'DELETE', url: `/api/users/${id}/delete-account`, cookies: { [SESSION_COOKIE]: token }, headers: { origin: ORIGIN, host: 'localhost:3000' } });
    expect(del.statusCode).toBe(200);
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'leaving@example.com', password: 'a long and unusual one' } });
    expect(login.statusCode).toBe(401);
    expect(login.json().error).toBe(AUTH_MESSAGES.badCredentials);
  });

  it("refuses to delete someone else's account, unless an admin asks; the admin's action is logged", async () => {
    const luna = await creator('lunatunes');
    const trail = await creator('trailmix');
    const asTrail = await as(trail.id);
    const refused = await asTrail('DELETE', `/api/users/${luna.id}/delete-account`);
    expect(refused.statusCode).toBe(403);
    expect(await t.db.selectFrom('users').select('id').where('id', '=', luna.id).executeTakeFirst()).toBeDefined();

    const admin = await t.db.selectFrom('users').select('id').where('is_admin', '=', true).executeTakeFirstOrThrow();
    const asAdmin = await as(admin.id);
    expect((await asAdmin('DELETE', `/api/users/${luna.id}/delete-account`)).statusCode).toBe(200);
    expect(await t.db.selectFrom('users').select('id').where('id', '=', luna.id).executeTakeFirst()).toBeUndefined();
    const log = await t.db.selectFrom('admin_logs').selectAll().where('target_id', '=', luna.id).executeTakeFirstOrThrow();
    expect(log).toMatchObject({ admin_user_id: admin.id, action_type: 'delete_user', target_type: 'user' });
    expect((await asAdmin('GET', '/api/auth/me')).statusCode).toBe(200);
  });
});
