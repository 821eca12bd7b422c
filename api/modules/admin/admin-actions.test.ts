/**
 * The admin's user actions: suspend (the user's sessions end at once), activate, delete (through
 * account deletion, files included); 409 when an action would change nothing; never oneself, and
 * never leaving no active admin; one admin log entry written with each action and none when it
 * fails; non-admins refused with no effect.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES } from '../../../shared/schemas/admin.ts';
import { createSession, SESSION_COOKIE } from '../../platform/sessions/sessions.ts';
import { person, send, video, type Person } from '../../test/admin-support.ts';
import { ORIGIN } from '../../test/browser.ts';
import { testApp, testConfig, type TestApp } from '../../test/harness.ts';

let t: TestApp;
let admin: Person;

beforeAll(async () => {
  t = await testApp({ config: await testConfig({ PUBLIC_URL: ORIGIN }) });
  admin = await person(t, { admin: true, name: 'Ada Admin' });
});
afterAll(async () => t?.close());

const logsAbout = (id: string) => t.db.selectFrom('admin_logs').selectAll().where('target_id', '=', id).orderBy('id').execute();
const userRow = (id: string) => t.db.selectFrom('users').select(['id', 'status', 'is_admin']).where('id', '=', id).executeTakeFirst();
const sessionsOf = async (id: string) => (await t.db.selectFrom('sessions').select('token_hash').where('user_id', '=', id).execute()).length;
const act = (as: Person | null, id: string, action: 'suspend' | 'activate') => send(t, as, { method: 'POST', url: `/api/admin/users/${id}/${action}` });
/** null sends no body at all. */
const remove = (as: Person | null, id: string, payload: Record<string, unknown> | null = { confirm: true }) =>
  send(t, as, { method: 'DELETE', url: `/api/admin/users/${id}`, ...(payload ? { payload } : {}) });
/** A second session of the same user (another browser). */
const secondBrowser = async (p: Person): Promise<Person> => {
  const { token } = await createSession(t.db, p.id, 1, {});
  return { ...p, cookies: { [SESSION_COOKIE]: token } };
};

describe('suspend and activate', () => {
  it("suspends: the user's sessions stop working at once, and the action is logged with it", async () => {
    const x = await person(t, { name: 'Xavier Creator' });
    const xOther = await secondBrowser(x);
    const v = await video(t, x.id, 'approved');
    expect((await send(t, x, { url: '/api/subscriptions/me' })).statusCode).toBe(200);
    expect(((await send(t, null, { url: '/api/videos' })).json().videos as Array<{ id: string }>).map((r) => r.id)).toContain(v);

    const res = await act(admin, x.id, 'suspend');
    const at = Date.now();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: ADMIN_MESSAGES.userSuspended, user: { id: x.id, status: 'suspended', videos_count: 1 } });

    for (const browser of [x, xOther]) {
      expect((await send(t, browser, { url: '/api/subscriptions/me' })).statusCode).toBe(401);
      const me = await send(t, browser, { url: '/api/auth/me' });
      expect(me.json()).toEqual({ success: true, user: null });
    }
    expect(Date.now() - at).toBeLessThan(1000);
    expect(await sessionsOf(x.id)).toBe(0);
    expect(((await send(t, null, { url: '/api/videos' })).json().videos as Array<{ id: string }>).map((r) => r.id)).not.toContain(v);

    const logs = await logsAbout(x.id);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ admin_user_id: admin.id, action_type: 'suspend_user', target_type: 'user', target_id: x.id, details: { email: x.email, sessions_ended: 2 } });

    // Again: nothing to do (409), nothing logged.
    const again = await act(admin, x.id, 'suspend');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ success: false, error: ADMIN_MESSAGES.alreadySuspended, code: 'CONFLICT' });
    expect(await logsAbout(x.id)).toHaveLength(1);

    // Activate: active again, logged; the sessions that were ended stay ended.
    const back = await act(admin, x.id, 'activate');
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json()).toMatchObject({ success: true, message: ADMIN_MESSAGES.userActivated, user: { status: 'active' } });
    expect((await send(t, x, { url: '/api/subscriptions/me' })).statusCode).toBe(401);
    expect((await logsAbout(x.id)).map((l) => l.action_type)).toEqual(['suspend_user', 'activate_user']);
    const fresh = await secondBrowser(x);
    expect((await send(t, fresh, { url: '/api/subscriptions/me' })).statusCode).toBe(200);

    const twice = await act(admin, x.id, 'activate');
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error).toBe(ADMIN_MESSAGES.alreadyActive);
    expect(await logsAbout(x.id)).toHaveLength(2);
  });

  it('never suspends or deletes oneself (400), and logs nothing', async () => {
    const s = await act(admin, admin.id, 'suspend');
    expect(s.statusCode).toBe(400);
    expect(s.json()).toEqual({ success: false, error: ADMIN_MESSAGES.suspendSelf, code: 'VALIDATION_FAILED' });
    const d = await remove(admin, admin.id);
    expect(d.statusCode).toBe(400);
    expect(d.json().error).toBe(ADMIN_MESSAGES.deleteSelf);
    expect(await userRow(admin.id)).toMatchObject({ status: 'active', is_admin: true });
    expect(await logsAbout(admin.id)).toEqual([]);
  });

  it('answers 404 for a user who does not exist, and logs nothing', async () => {
    const none = '00000000-0000-4000-8000-000000000000';
    for (const res of [await act(admin, none, 'suspend'), await act(admin, none, 'activate'), await remove(admin, none)]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe(ADMIN_MESSAGES.userNotFound);
    }
    expect(await logsAbout(none)).toEqual([]);
  });

  it('two admins suspending each other at once: one wins, an active admin remains', async () => {
    const a = await person(t, { admin: true, name: 'Admin A' });
    const b = await person(t, { admin: true, name: 'Admin B' });
    // Only a and b are active admins for this race.
    await t.db.updateTable('users').set({ status: 'suspended' }).where('id', '=', admin.id).execute();
    try {
      const [ra, rb] = await Promise.all([act(a, b.id, 'suspend'), act(b, a.id, 'suspend')]);
      expect([ra.statusCode, rb.statusCode].filter((s) => s === 200)).toHaveLength(1);
      for (const r of [ra, rb]) if (r.statusCode !== 200) expect([401, 403]).toContain(r.statusCode);
      const active = await t.db.selectFrom('users').select('id').where('is_admin', '=', true).where('status', '=', 'active').execute();
      expect(active).toHaveLength(1);
      const logs = [...(await logsAbout(a.id)), ...(await logsAbout(b.id))];
      expect(logs).toHaveLength(1);
    } finally {
      await t.db.updateTable('users').set({ status: 'active' }).where('id', '=', admin.id).execute();
    }
  });
});

describe('DELETE /api/admin/users/:id', () => {
  it('needs {"confirm": true}: without it nothing is deleted or logged (400)', async () => {
    const y = await person(t, { name: 'Yara Keep' });
    for (const payload of [null, {}, { confirm: false }]) {
      const res = await remove(admin, y.id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await remove(admin, y.id, null)).json()).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
    expect(await userRow(y.id)).toBeDefined();
    expect(await logsAbout(y.id)).toEqual([]);
  });

  it('deletes through account deletion (videos, files, sessions), logged in the same transaction', async () => {
    const z = await person(t, { name: 'Zed Gone' });
    const v = await video(t, z.id, 'approved');
    const { video_key } = await t.db.selectFrom('videos').select('video_key').where('id', '=', v).executeTakeFirstOrThrow();
    await t.storage.put('videos', video_key, Buffer.from('not really a video'));
    const res = await remove(admin, z.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, message: ADMIN_MESSAGES.userDeleted, files_removed: 1 });
    expect(await userRow(z.id)).toBeUndefined();
    expect(await t.storage.stat('videos', video_key)).toBeNull();
    expect((await send(t, z, { url: '/api/subscriptions/me' })).statusCode).toBe(401);
    const logs = await logsAbout(z.id);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ admin_user_id: admin.id, action_type: 'delete_user', target_type: 'user', details: { username: z.username, files_removed: 1 } });
    // Gone: a second delete finds nobody.
    expect((await remove(admin, z.id)).statusCode).toBe(404);
    expect(await logsAbout(z.id)).toHaveLength(1);
  });

  it('deletes another admin while one remains', async () => {
    const other = await person(t, { admin: true, name: 'Other Admin' });
    expect((await remove(admin, other.id)).statusCode).toBe(200);
    expect(await userRow(other.id)).toBeUndefined();
  });
});

describe('non-admins', () => {
  it('are refused every action (401 signed out, 403 otherwise), with no effect and no log', async () => {
    const target = await person(t, { name: 'Target Person' });
    const suspended = await person(t, { name: 'Suspended Person' });
    await t.db.updateTable('users').set({ status: 'suspended' }).where('id', '=', suspended.id).execute();
    const creator = await person(t, { name: 'Plain Creator' });
    const customer = await person(t, { role: 'customer', name: 'Plain Customer' });
    for (const as of [null, creator, customer]) {
      const answers = [await act(as, target.id, 'suspend'), await act(as, suspended.id, 'activate'), await remove(as, target.id)];
      for (const res of answers) {
        expect(res.statusCode).toBe(as ? 403 : 401);
        expect(res.json().error).toBe(as ? 'Access denied. Admin privileges required.' : 'Not authenticated.');
      }
    }
    expect(await userRow(target.id)).toMatchObject({ status: 'active' });
    expect(await userRow(suspended.id)).toMatchObject({ status: 'suspended' });
    expect(await sessionsOf(target.id)).toBe(1);
    expect([...(await logsAbout(target.id)), ...(await logsAbout(suspended.id))]).toEqual([]);
    for (const url of ['/api/admin/users', '/api/admin/logs']) {
      expect((await send(t, creator, { url })).statusCode).toBe(403);
      expect((await send(t, null, { url })).statusCode).toBe(401);
    }
  });
});
