/**
 * The admin portal's subscriptions list on the real database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL): its filters by tier, status and username or email text (% and _ taken
 * as typed), keyset pages newest first with nothing skipped or repeated; admins only.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_SUBSCRIPTION_MESSAGES, type AdminSubscriptionRow } from '../../../shared/schemas/admin-subscriptions.ts';
import { hex, person, send, subscription, type Person } from '../../test/admin-support.ts';
import { testApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
let admin: Person;
let someone: Person;

beforeAll(async () => {
  t = await testApp();
  admin = await person(t, { admin: true, name: 'Subs Admin' });
  someone = await person(t, { name: 'Not Admin' });
});
afterAll(async () => t?.close());

const get = (url: string, as: Person | null = admin) => send(t, as, { url });

async function allPages(url: string): Promise<AdminSubscriptionRow[]> {
  const rows: AdminSubscriptionRow[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 100; i++) {
    const res = await get(`${url}${url.includes('?') ? '&' : '?'}${cursor ? `cursor=${cursor}` : ''}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    rows.push(...body.subscriptions);
    cursor = body.next_cursor;
    if (!cursor) return rows;
  }
  throw new Error('too many pages');
}

type Tier = AdminSubscriptionRow['tier'];
type Status = AdminSubscriptionRow['status'];

describe('GET /api/admin/subscriptions', () => {
  it('answers 401 signed out and 403 to a non-admin; never cached', async () => {
    expect((await get('/api/admin/subscriptions', null)).statusCode).toBe(401);
    const denied = await get('/api/admin/subscriptions', someone);
    expect(denied.statusCode).toBe(403);
    const ok = await get('/api/admin/subscriptions');
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['cache-control']).toBe('private, no-store');
  });

  it('filters by tier, status and q over username and email, and pages newest first with ties in created_at', async () => {
    const tag = `subs${hex(3)}`;
    const plan: [Tier, Status, boolean][] = [
      ['pro', 'active', false],
      ['pro', 'trialing', false],
      ['pro', 'past_due', true],
      ['free', 'active', false],
      ['free', 'canceled', false],
      ['pro', 'canceled', false],
      ['free', 'pending_approval', false],
      ['pro', 'incomplete', false],
    ];
    const made: { userId: string; tier: Tier; status: Status }[] = [];
    for (const [i, [tier, status, third]] of plan.entries()) {
      const p = await person(t, { email: `${tag}-${i}${i === 2 ? '_under' : ''}@example.com`, name: `Sub ${i}` });
      await subscription(t, p.id, tier, status, third);
      made.push({ userId: p.id, tier, status });
    }
    // Three share one created_at to the microsecond: the id breaks the tie.
    const ids = made.map((m) => m.userId);
    await sql`update user_subscriptions set created_at = '2025-03-01T12:00:00.000Z'::timestamptz where user_id in (${sql.join(ids.slice(0, 3))})`.execute(t.db);
    await t.db
      .updateTable('user_subscriptions')
      .set({ trial_end: new Date('2025-03-08T12:00:00Z'), current_period_end: new Date('2025-03-08T12:00:00Z'), cancel_at_period_end: true })
      .where('user_id', '=', ids[1]!)
      .execute();

    const expected = await t.db
      .selectFrom('user_subscriptions')
      .select(['id', 'user_id'])
      .where('user_id', 'in', ids)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    const paged = await allPages(`/api/admin/subscriptions?q=${tag}&limit=3`);
    expect(paged.map((r) => r.id)).toEqual(expected.map((r) => r.id));
    // The default page holds them all (20).
    const first = (await get(`/api/admin/subscriptions?q=${tag.toUpperCase()}`)).json();
    expect(first.subscriptions.map((r: AdminSubscriptionRow) => r.id)).toEqual(expected.map((r) => r.id));
    expect(first.next_cursor).toBeNull();

    const byTier = (tier: Tier) => made.filter((m) => m.tier === tier).map((m) => m.userId).sort();
    for (const tier of ['free', 'pro'] as const) {
      const rows = await allPages(`/api/admin/subscriptions?q=${tag}&tier=${tier}&limit=2`);
      expect(rows.map((r) => r.user.id).sort(), tier).toEqual(byTier(tier));
      expect(rows.every((r) => r.tier === tier)).toBe(true);
    }
    for (const status of ['trialing', 'active', 'past_due', 'canceled', 'incomplete', 'pending_approval'] as const) {
      const rows = await allPages(`/api/admin/subscriptions?q=${tag}&status=${status}`);
      expect(rows.map((r) => r.user.id).sort(), status).toEqual(made.filter((m) => m.status === status).map((m) => m.userId).sort());
    }
    const proCanceled = await allPages(`/api/admin/subscriptions?q=${tag}&tier=pro&status=canceled`);
    expect(proCanceled.map((r) => r.user.id)).toEqual([ids[5]]);
    // Without q, a status's rows across everyone.
    const allActive = await allPages('/api/admin/subscriptions?status=active&limit=100');
    expect(allActive.every((r) => r.status === 'active')).toBe(true);
    expect(allActive.map((r) => r.user.id)).toEqual(expect.arrayContaining([ids[0], ids[3]]));

    // q: the email's _ and % are plain characters, the username is searched too.
    const under = await allPages(`/api/admin/subscriptions?q=${encodeURIComponent(`${tag}-2_`)}`);
    expect(under.map((r) => r.user.id)).toEqual([ids[2]]);
    expect(await allPages(`/api/admin/subscriptions?q=${encodeURIComponent(`${tag}-_`)}`)).toEqual([]);
    expect(await allPages(`/api/admin/subscriptions?q=${encodeURIComponent(`${tag}%`)}`)).toEqual([]);
    const u3 = await t.db.selectFrom('users').select(['username', 'email', 'display_name']).where('id', '=', ids[3]!).executeTakeFirstOrThrow();
    const byUsername = await allPages(`/api/admin/subscriptions?q=${u3.username}`);
    expect(byUsername.map((r) => r.user.id)).toContain(ids[3]);

    const one = paged.find((r) => r.user.id === ids[1])!;
    const u1 = await t.db.selectFrom('users').select(['username', 'email', 'display_name']).where('id', '=', ids[1]!).executeTakeFirstOrThrow();
    expect(one).toEqual({
      id: expected.find((e) => e.user_id === ids[1])!.id,
      user: { id: ids[1], username: u1.username, email: u1.email, display_name: u1.display_name },
      tier: 'pro',
      status: 'trialing',
      is_third_tier: false,
      trial_end: '2025-03-08T12:00:00.000Z',
      current_period_end: '2025-03-08T12:00:00.000Z',
      cancel_at_period_end: true,
      created_at: '2025-03-01T12:00:00.000Z',
    });
    expect(paged.find((r) => r.user.id === ids[2])!.is_third_tier).toBe(true);
  });

  it('refuses a filter or cursor it does not know (400)', async () => {
    for (const q of ['tier=gold', 'status=paused', 'limit=0', 'limit=101', `q=${'x'.repeat(101)}`]) {
      expect((await get(`/api/admin/subscriptions?${q}`)).statusCode, q).toBe(400);
    }
    const bad = await get('/api/admin/subscriptions?cursor=bm90LWEtY3Vyc29y');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ success: false, error: ADMIN_SUBSCRIPTION_MESSAGES.badCursor });
  });
});
