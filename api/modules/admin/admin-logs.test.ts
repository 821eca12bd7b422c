/**
 * GET /api/admin/logs: newest first with the admin's name, 50 a page by default, by action type,
 * target type and admin, and keyset paging that visits every entry once while admins keep acting.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES, type AdminActionType } from '../../../shared/schemas/admin.ts';
import { person, send, type Person } from '../../test/admin-support.ts';
import { ORIGIN } from '../../test/browser.ts';
import { testApp, testConfig, type TestApp } from '../../test/harness.ts';
import { recordAdminAction, type AdminTargetType } from './index.ts';

let t: TestApp;
let ada: Person;
let bob: Person;

interface Entry {
  id: number;
  admin_user_id: string | null;
  admin_display_name: string | null;
  action_type: string;
  target_type: string;
  target_id: string;
  details: Record<string, unknown>;
  created_at: string;
}

const TYPES: Array<[AdminActionType, AdminTargetType]> = [
  ['approve_video', 'video'],
  ['reject_video', 'video'],
  ['update_setting', 'setting'],
  ['suspend_user', 'user'],
];

beforeAll(async () => {
  t = await testApp({ config: await testConfig({ PUBLIC_URL: ORIGIN }) });
  ada = await person(t, { admin: true, name: 'Ada Admin' });
  bob = await person(t, { admin: true, name: 'Bob Admin' });
  // 60 entries: Ada and Bob in turn, through the four kinds of action.
  for (let i = 0; i < 60; i++) {
    const [actionType, targetType] = TYPES[i % 4]!;
    await recordAdminAction(t.db, { adminUserId: i % 2 ? bob.id : ada.id, actionType, targetType, targetId: `t${i}`, details: { i } });
  }
});
afterAll(async () => t?.close());

const logs = async (query = '') => {
  const res = await send(t, ada, { url: `/api/admin/logs${query}` });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['cache-control']).toBe('private, no-store');
  return res.json() as { logs: Entry[]; next_cursor: string | null };
};

describe('GET /api/admin/logs', () => {
  it('answers 50 a page, newest first, each with its admin’s name', async () => {
    const first = await logs();
    expect(first.logs).toHaveLength(50);
    expect(first.logs.map((e) => e.target_id)).toEqual(Array.from({ length: 50 }, (_, k) => `t${59 - k}`));
    expect(first.logs[0]).toMatchObject({ admin_user_id: bob.id, admin_display_name: 'Bob Admin', action_type: 'suspend_user', target_type: 'user', details: { i: 59 } });
    expect(first.logs[1]).toMatchObject({ admin_user_id: ada.id, admin_display_name: 'Ada Admin' });
    const second = await logs(`?cursor=${first.next_cursor}`);
    expect(second.logs.map((e) => e.target_id)).toEqual(Array.from({ length: 10 }, (_, k) => `t${9 - k}`));
    expect(second.next_cursor).toBeNull();
  });

  it('filters by action type, target type and admin, alone or together', async () => {
    const rejects = await logs('?action_type=reject_video&limit=100');
    expect(rejects.logs).toHaveLength(15);
    expect(rejects.logs.every((e) => e.action_type === 'reject_video')).toBe(true);
    const videos = await logs('?target_type=video&limit=100');
    expect(videos.logs).toHaveLength(30);
    expect(new Set(videos.logs.map((e) => e.action_type))).toEqual(new Set(['approve_video', 'reject_video']));
    const bobs = await logs(`?admin_id=${bob.id}&limit=100`);
    expect(bobs.logs).toHaveLength(30);
    expect(bobs.logs.every((e) => e.admin_user_id === bob.id)).toBe(true);
    // Bob acts on odd i: reject_video (i % 4 = 1) and suspend_user (i % 4 = 3).
    expect((await logs(`?admin_id=${bob.id}&target_type=video&limit=100`)).logs.map((e) => e.action_type)).toEqual(Array(15).fill('reject_video'));
    expect((await logs(`?admin_id=${ada.id}&action_type=reject_video`)).logs).toEqual([]);
    const page = await logs('?target_type=video&limit=7');
    const rest = await logs(`?target_type=video&limit=100&cursor=${page.next_cursor}`);
    expect([...page.logs, ...rest.logs].map((e) => e.id)).toEqual(videos.logs.map((e) => e.id));
  });

  it('visits every entry exactly once across pages, with ties, while admins keep acting', async () => {
    // Twelve entries at the very same instant, and four more a microsecond apart.
    const ids = (await t.db.selectFrom('admin_logs').select('id').orderBy('id').limit(16).execute()).map((r) => r.id);
    for (const [k, id] of ids.entries()) {
      await sql`update admin_logs set created_at = ${`2021-01-01T00:00:00.00000${k < 12 ? 1 : k - 10}Z`}::timestamptz where id = ${id}`.execute(t.db);
    }
    const before = (await t.db.selectFrom('admin_logs').select('id').execute()).map((r) => Number(r.id));
    const seen: number[] = [];
    let cursor: string | null = null;
    let n = 0;
    do {
      const page: { logs: Entry[]; next_cursor: string | null } = await logs(`?limit=9${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.logs.map((e) => e.id));
      cursor = page.next_cursor;
      await recordAdminAction(t.db, { adminUserId: ada.id, actionType: 'update_setting', targetType: 'setting', targetId: `meanwhile${n++}` });
    } while (cursor && n < 100);
    expect(seen.length).toBe(new Set(seen).size);
    expect(seen.filter((id) => before.includes(id)).sort((a, b) => a - b)).toEqual([...before].sort((a, b) => a - b));
  });

  it("keeps a deleted admin's entries, without a name", async () => {
    const gone = await person(t, { admin: true, name: 'Gone Admin' });
    await recordAdminAction(t.db, { adminUserId: gone.id, actionType: 'activate_user', targetType: 'user', targetId: 'someone' });
    await t.db.deleteFrom('users').where('id', '=', gone.id).execute();
    const entry = (await logs('?action_type=activate_user')).logs.find((e) => e.target_id === 'someone');
    expect(entry).toMatchObject({ admin_user_id: null, admin_display_name: null });
  });

  it('refuses bad filters, limits and cursors (400)', async () => {
    const usersCursor = Buffer.from(`2021-01-01T00:00:00.000001Z|${ada.id}`).toString('base64url');
    for (const q of ['?limit=101', '?limit=0', '?action_type=Suspend', '?action_type=suspend_everyone', '?target_type=planet', '?admin_id=nobody', `?cursor=${usersCursor}`, '?cursor=bm9wZQ']) {
      const res = await send(t, ada, { url: `/api/admin/logs${q}` });
      expect(res.statusCode, q).toBe(400);
    }
    expect((await send(t, ada, { url: `/api/admin/logs?cursor=${usersCursor}` })).json().error).toBe(ADMIN_MESSAGES.badCursor);
  });
});
