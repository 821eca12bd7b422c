import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PAYOUT_THRESHOLD_CENTS } from '../../../shared/schemas/payouts.ts';
import { SETTINGS_MESSAGES } from '../../../shared/schemas/moderation.ts';
import { testApp, type TestApp } from '../../test/harness.ts';
import { person, send, type Person } from '../../test/admin-support.ts';

let t: TestApp;
let admin: Person;
let creator: Person;

beforeAll(async () => {
  t = await testApp();
  admin = await person(t, { admin: true, name: 'Settings Admin' });
  creator = await person(t, { role: 'creator', name: 'Maker' });
});
afterAll(async () => t?.close());

const call = (as: Person | null, method: 'GET' | 'PUT', url: string, payload?: Record<string, unknown>): Promise<LightMyRequestResponse> =>
  send(t, as, { method, url, ...(payload !== undefined ? { payload } : {}) });

const save = (key: string, value: unknown, as: Person | null = admin) => call(as, 'PUT', `/api/admin/settings/${key}`, { value });
const settingLogs = () =>
  t.db.selectFrom('admin_logs').select(['admin_user_id', 'action_type', 'target_type', 'target_id', 'details']).where('target_type', '=', 'setting').orderBy('id').execute();
const stored = () => t.db.selectFrom('admin_settings').select(['key', 'value', 'updated_by']).where('key', 'in', ['moderation_required', 'payout_threshold_default_cents', 'maintenance_banner']).orderBy('key').execute();

describe('system settings', () => {
  it('answers every setting with its default before any is saved, the payout threshold being the payout default', async () => {
    const res = await call(admin, 'GET', '/api/admin/settings');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, settings: { moderation_required: false, payout_threshold_default_cents: DEFAULT_PAYOUT_THRESHOLD_CENTS, maintenance_banner: '' } });
    expect(DEFAULT_PAYOUT_THRESHOLD_CENTS).toBe(5000);
    const banner = await call(null, 'GET', '/api/settings/public');
    expect(banner.json()).toEqual({ success: true, maintenance_banner: null });
  });

  it('refuses a wrong value with the setting\'s own message, saving and logging nothing', async () => {
    const before = { rows: await stored(), logs: await settingLogs() };
    const cases: Array<[string, unknown, string]> = [
      ['moderation_required', 'yes', SETTINGS_MESSAGES.moderationRequired],
      ['moderation_required', 1, SETTINGS_MESSAGES.moderationRequired],
      ['moderation_required', null, SETTINGS_MESSAGES.moderationRequired],
      ['payout_threshold_default_cents', 99, SETTINGS_MESSAGES.payoutThreshold],
      ['payout_threshold_default_cents', 100_001, SETTINGS_MESSAGES.payoutThreshold],
      ['payout_threshold_default_cents', 50.5, SETTINGS_MESSAGES.payoutThreshold],
      ['payout_threshold_default_cents', '5000', SETTINGS_MESSAGES.payoutThreshold],
      ['maintenance_banner', 'x'.repeat(281), SETTINGS_MESSAGES.maintenanceBanner],
      ['maintenance_banner', 42, SETTINGS_MESSAGES.maintenanceBanner],
    ];
    for (const [key, value, message] of cases) {
      const res = await save(key, value);
      expect(res.statusCode, `${key}=${JSON.stringify(value)}: ${res.body}`).toBe(400);
      expect(res.json()).toEqual({ success: false, error: message, code: 'VALIDATION_FAILED' });
    }
    expect(SETTINGS_MESSAGES.payoutThreshold).toBe('payout_threshold_default_cents must be a whole number of cents from 100 to 100000.');
    expect({ rows: await stored(), logs: await settingLogs() }).toEqual(before);
  });

  it('answers 404 for a key that is no setting', async () => {
    const res = await save('no_such_setting', true);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, error: SETTINGS_MESSAGES.unknownKey('no_such_setting'), code: 'NOT_FOUND' });
  });

  it('saves each setting at its limits and logs the change (old and new) in the admin log', async () => {
    const logsBefore = (await settingLogs()).length;
    const steps: Array<[string, unknown, unknown]> = [
      ['moderation_required', true, false],
      ['payout_threshold_default_cents', 100, DEFAULT_PAYOUT_THRESHOLD_CENTS],
      ['payout_threshold_default_cents', 100_000, 100],
      ['maintenance_banner', 'b'.repeat(280), ''],
      ['maintenance_banner', '  Maintenance tonight at 02:00 UTC  ', 'b'.repeat(280)],
      ['moderation_required', false, true],
    ];
    for (const [key, value] of steps) {
      const res = await save(key, value);
      expect(res.statusCode, res.body).toBe(200);
    }
    const settings = (await call(admin, 'GET', '/api/admin/settings')).json().settings;
    expect(settings).toEqual({ moderation_required: false, payout_threshold_default_cents: 100_000, maintenance_banner: 'Maintenance tonight at 02:00 UTC' });
    const logs = (await settingLogs()).slice(logsBefore);
    expect(logs).toEqual(
      steps.map(([key, value, old]) => ({
        admin_user_id: admin.id,
        action_type: 'update_setting',
        target_type: 'setting',
        target_id: key,
        details: { old, new: typeof value === 'string' ? value.trim() : value },
      })),
    );
    expect((await stored()).every((r) => r.updated_by === admin.id)).toBe(true);
  });

  it('shows the maintenance banner to everyone, and none once it is emptied', async () => {
    await save('maintenance_banner', 'Back soon');
    for (const as of [null, creator, admin]) expect((await call(as, 'GET', '/api/settings/public')).json()).toEqual({ success: true, maintenance_banner: 'Back soon' });
    await save('maintenance_banner', '   ');
    expect((await call(null, 'GET', '/api/settings/public')).json()).toEqual({ success: true, maintenance_banner: null });
  });

  it('refuses anyone but an admin (401 signed out, 403 signed in), changing nothing', async () => {
    const before = { rows: await stored(), logs: await settingLogs() };
    for (const [as, status] of [[null, 401], [creator, 403]] as const) {
      expect((await call(as, 'GET', '/api/admin/settings')).statusCode).toBe(status);
      const res = await save('moderation_required', true, as);
      expect(res.statusCode).toBe(status);
      expect(res.json().code).toBe(status === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN');
    }
    expect({ rows: await stored(), logs: await settingLogs() }).toEqual(before);
  });
});
