/**
 * The admin's user list: its rows, search (any case, trimmed, %, _ and \ taken literally), the
 * status filter, and keyset paging that visits every row once while users keep signing up.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES } from '../../../shared/schemas/admin.ts';
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

interface Row {
  id: string;
  email: string;
  username: string;
  display_name: string;
  status: string;
  videos_count: number;
}

const list = async (query: string, as: Person = admin) => {
  const res = await send(t, as, { url: `/api/admin/users${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { users: Row[]; next_cursor: string | null };
};
const names = async (q: string) => (await list(`?q=${encodeURIComponent(q)}&limit=100`)).users.map((u) => u.display_name).sort();

describe('GET /api/admin/users', () => {
  it('answers each user with their fields and video count, newest first, 20 a page by default', async () => {
    const maker = await person(t, { name: 'Vid Maker' });
    await video(t, maker.id, 'approved');
    await video(t, maker.id, 'rejected');
    for (let i = 0; i < 20; i++) await person(t, { name: `Filler ${i}` });
    const first = await list('');
    expect(first.users).toHaveLength(20);
    expect(first.next_cursor).not.toBeNull();
    const second = await list(`?cursor=${first.next_cursor}`);
    expect(second.users).toHaveLength(2);
    expect(second.next_cursor).toBeNull();
    const all = [...first.users, ...second.users] as Array<Row & { created_at: string }>;
    // Newest first: the fillers signed up last (ties, within a clock tick, go by id).
    const times = all.map((u) => Date.parse(u.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(all.slice(0, 5).every((u) => u.display_name.startsWith('Filler'))).toBe(true);
    const row = all.find((u) => u.id === maker.id);
    expect(row).toEqual({
      id: maker.id,
      email: maker.email,
      username: maker.username,
      display_name: 'Vid Maker',
      role: 'creator',
      is_admin: false,
      status: 'active',
      created_at: expect.stringMatching(/Z$/),
      videos_count: 2,
    });
    expect(all.find((u) => u.id === admin.id)).toMatchObject({ is_admin: true, role: 'customer', videos_count: 0 });
  });

  it('searches name, username and email, in any case, trimmed; %, _ and \\ are plain characters', async () => {
    await person(t, { name: '100% Real', email: `pct-${hex()}@example.com` });
    await person(t, { name: '1000 Real', email: `nopct-${hex()}@example.com` });
    await person(t, { name: 'a_b Person', email: `under-${hex()}@example.com` });
    await person(t, { name: 'axb Person', email: `nounder-${hex()}@example.com` });
    await person(t, { name: 'Back\\slash', email: `back-${hex()}@example.com` });
    await person(t, { name: 'Zelda Quux', email: `zq-${hex()}@mail.example` });

    expect(await names('100%')).toEqual(['100% Real']);
    expect(await names('a_b')).toEqual(['a_b Person']);
    expect(await names('\\')).toEqual(['Back\\slash']);
    expect(await names('%')).toEqual(['100% Real']);
    expect(await names('  zELDA qU  ')).toEqual(['Zelda Quux']);
    // By email and by username (the slug made from the email).
    expect(await names('@MAIL.example')).toEqual(['Zelda Quux']);
    const zelda = (await list('?q=zelda')).users[0]!;
    expect(await names(zelda.username.toUpperCase())).toContain('Zelda Quux');
    expect(await names('no such person anywhere')).toEqual([]);
    // Blank text searches nothing out.
    expect((await list('?q=%20%20&limit=100')).users.length).toBe((await list('?limit=100')).users.length);
  });

  it('filters by status', async () => {
    const s = await person(t, { name: 'Status Suspended' });
    await t.db.updateTable('users').set({ status: 'suspended' }).where('id', '=', s.id).execute();
    const suspended = await list('?status=suspended&limit=100');
    expect(suspended.users.map((u) => u.id)).toEqual([s.id]);
    const active = await list('?status=active&limit=100');
    expect(active.users.map((u) => u.id)).not.toContain(s.id);
    expect(active.users.every((u) => u.status === 'active')).toBe(true);
    expect((await list('?status=suspended&q=status')).users.map((u) => u.id)).toEqual([s.id]);
  });

  it('visits every user exactly once across pages, with ties and microseconds, while others sign up', async () => {
    // Sign-up times that share a millisecond, and some exactly equal: the cursor must keep the
    // microseconds and break ties by id.
    const tied: string[] = [];
    for (let i = 0; i < 12; i++) {
      const p = await person(t, { name: `Tied ${i}` });
      tied.push(p.id);
      const micros = String(100 + (i % 4) * 100).padStart(6, '0');
      await sql`update users set created_at = ${`2020-05-05T10:00:00.${micros}Z`}::timestamptz where id = ${p.id}`.execute(t.db);
    }
    const before = (await t.db.selectFrom('users').select('id').execute()).map((r) => r.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { users: Row[]; next_cursor: string | null } = await list(`?limit=7${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.users.map((u) => u.id));
      cursor = page.next_cursor;
      // Someone signs up between every two pages.
      await person(t, { name: `Newcomer ${pages}` });
      pages++;
    } while (cursor && pages < 100);
    expect(seen.length).toBe(new Set(seen).size);
    expect(seen.filter((id) => before.includes(id)).sort()).toEqual([...before].sort());
    for (const id of tied) expect(seen).toContain(id);
  });

  it('refuses a cursor it did not make, a limit over 100 and an unknown status (400)', async () => {
    for (const q of ['?cursor=bm90LWEtY3Vyc29y', '?limit=101', '?limit=0', '?status=deleted']) {
      const res = await send(t, admin, { url: `/api/admin/users${q}` });
      expect(res.statusCode, q).toBe(400);
    }
    const bad = await send(t, admin, { url: '/api/admin/users?cursor=bm90LWEtY3Vyc29y' });
    expect(bad.json().error).toBe(ADMIN_MESSAGES.badCursor);
    expect((await list('?limit=100')).users.length).toBeLessThanOrEqual(100);
  });
});
