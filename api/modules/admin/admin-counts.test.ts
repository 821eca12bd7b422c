/**
 * The dashboard's counts of users and videos come from row_counts, kept by triggers
 * (0016_admin_indexes.sql): they must equal a count of the tables after every kind of write —
 * one row and many in one statement, status changes (and updates that change no status), a
 * user's deletion taking their videos with it, a rolled-back transaction, and writes from
 * several sessions at once.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hex, person, send, video, type Person } from '../../test/admin-support.ts';
import { ORIGIN } from '../../test/browser.ts';
import { testApp, testConfig, type TestApp } from '../../test/harness.ts';

let t: TestApp;
let admin: Person;

beforeAll(async () => {
  t = await testApp({ config: await testConfig({ PUBLIC_URL: ORIGIN }) });
  admin = await person(t, { admin: true, name: 'Ada Admin' });
});
afterAll(async () => t?.close());

const FIGURES = ['total_users', 'active_users', 'suspended_users', 'total_videos', 'pending_videos', 'approved_videos'] as const;

/** The dashboard's figures for users and videos, and the same counted from the tables. */
async function both() {
  const res = await send(t, admin, { url: '/api/admin/dashboard-stats' });
  expect(res.statusCode, res.body).toBe(200);
  const stats = res.json().stats as Record<string, number>;
  const { rows } = await sql<Record<(typeof FIGURES)[number], number | string>>`
    select (select count(*) from users) as total_users,
           (select count(*) from users where status = 'active') as active_users,
           (select count(*) from users where status = 'suspended') as suspended_users,
           (select count(*) from videos) as total_videos,
           (select count(*) from videos where verification_status = 'pending') as pending_videos,
           (select count(*) from videos where verification_status in ('approved', 'verified_via_supabase_auth')) as approved_videos`.execute(t.db);
  const counted = Object.fromEntries(FIGURES.map((k) => [k, Number(rows[0]![k])]));
  return { shown: Object.fromEntries(FIGURES.map((k) => [k, stats[k]])), counted };
}

async function expectExact() {
  const { shown, counted } = await both();
  expect(shown).toEqual(counted);
  return shown;
}

/** Many videos of the user in one INSERT statement. */
async function manyVideos(userId: string, n: number, status: string) {
  const tag = hex();
  await sql`
    insert into videos (user_id, title, video_key, content_type, size_bytes, verification_status)
    select ${userId}, 'Bulk ' || g, 'bulk/' || ${tag} || '/' || g || '.mp4', 'video/mp4', 1, ${status}
    from generate_series(1, ${n}::int) as g`.execute(t.db);
}

describe('the dashboard counts of users and videos', () => {
  it('stay exact through single and bulk inserts, status changes and other updates', async () => {
    const before = await expectExact();
    const a = await person(t, { name: 'Count Creator' });
    await video(t, a.id, 'pending');
    await manyVideos(a.id, 250, 'verified_via_supabase_auth');
    await manyVideos(a.id, 40, 'rejected');
    let now = await expectExact();
    expect(now.total_videos).toBe(before.total_videos! + 291);
    expect(now.total_users).toBe(before.total_users! + 1);

    // Moderation: one row, and many rows in one statement.
    await sql`update videos set verification_status = 'approved' where user_id = ${a.id} and verification_status = 'pending'`.execute(t.db);
    await sql`update videos set verification_status = 'pending' where user_id = ${a.id} and verification_status = 'rejected'`.execute(t.db);
    // Updates that change no status (views, titles) leave the counts alone.
    await sql`update videos set view_count = view_count + 1, title = title || '!' where user_id = ${a.id}`.execute(t.db);
    await sql`update videos set verification_status = verification_status where user_id = ${a.id}`.execute(t.db);
    await t.db.updateTable('users').set({ status: 'suspended' }).where('id', '=', a.id).execute();
    now = await expectExact();
    expect(now.pending_videos).toBe(before.pending_videos! + 40);
    expect(now.suspended_users).toBe(before.suspended_users! + 1);
  });

  it("stay exact when deleting a user deletes their videos, and when a transaction is rolled back", async () => {
    const b = await person(t, { name: 'Leaving Creator' });
    await manyVideos(b.id, 30, 'pending');
    await manyVideos(b.id, 20, 'approved');
    const before = await expectExact();

    await expect(
      t.db.transaction().execute(async (trx) => {
        await sql`delete from videos where user_id = ${b.id} and verification_status = 'pending'`.execute(trx);
        await sql`update users set status = 'suspended' where id = ${b.id}`.execute(trx);
        throw new Error('undone');
      }),
    ).rejects.toThrow('undone');
    expect(await expectExact()).toEqual(before);

    await sql`delete from users where id = ${b.id}`.execute(t.db);
    const after = await expectExact();
    expect(after.total_users).toBe(before.total_users! - 1);
    expect(after.total_videos).toBe(before.total_videos! - 50);
  });

  it('stay exact with several sessions writing at once', async () => {
    const c = await person(t, { name: 'Busy Creator' });
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        t.db.transaction().execute(async (trx) => {
          await sql`
            insert into videos (user_id, title, video_key, content_type, size_bytes, verification_status)
            values (${c.id}, 'Busy', ${`busy/${hex()}-${i}.mp4`}, 'video/mp4', 1, ${i % 2 === 0 ? 'pending' : 'approved'})`.execute(trx);
        }),
      ),
    );
    await expectExact();
  });
});
