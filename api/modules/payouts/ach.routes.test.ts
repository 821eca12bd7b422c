/**
 * ACH payouts by NACHA file through the admin's routes (GET /api/admin/payouts/ach/:period and
 * POST .../confirm), on an app with the NACHA_* settings: the run records the creator's ACH
 * payout as an entry, the admin downloads the period's file (the receiver's full numbers, for
 * the bank; never cached), confirms the upload, and the payout is paid as a webhook would pay
 * it (dates, email, the creator's portal); confirming again changes nothing. Admins only.
 */
import type { InjectOptions } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYOUT_RUN_MESSAGES } from '../../../shared/schemas/payouts.ts';
import { createSession, SESSION_COOKIE } from '../../platform/sessions/sessions.ts';
import { ORIGIN } from '../../test/browser.ts';
import { testApp, testConfig, type TestApp } from '../../test/harness.ts';
import { earn, payoutCreator, TEST_ACCOUNT, TEST_NACHA_ENV, TEST_ROUTING } from '../../test/payout-support.ts';
import { METHOD_TERMS } from '../../test/payout-model.ts';
import { createUser } from '../accounts/index.ts';
import { payoutFee, periodAt } from './run-rules.ts';

const NACHA = TEST_NACHA_ENV;

let t: TestApp;

beforeAll(async () => {
  t = await testApp({ config: await testConfig(NACHA) });
});
afterAll(async () => t?.close());

type Who = string | null;

async function sessionOf(userId: string): Promise<string> {
  return (await createSession(t.db, userId, 1, {})).token;
}

async function admin(): Promise<string> {
  const user = await createUser(t.db, { email: `boss-${Date.now()}-${Math.random()}@example.com`, displayName: 'Boss', role: 'customer', emailVerified: true });
  await t.db.updateTable('users').set({ is_admin: true }).where('id', '=', user.id).execute();
  return sessionOf(user.id);
}

function send(token: Who, method: 'GET' | 'POST', url: string, payload?: InjectOptions['payload']) {
  const opts: InjectOptions = { method, url, headers: { host: 'localhost:3000', ...(method === 'POST' ? { origin: ORIGIN } : {}) } };
  if (token) opts.cookies = { [SESSION_COOKIE]: token };
  if (payload !== undefined) opts.payload = payload;
  return t.app.inject(opts);
}
const download = (token: Who, month: string) => send(token, 'GET', `/api/admin/payouts/ach/${month}`);
const confirm = (token: Who, month: string) => send(token, 'POST', `/api/admin/payouts/ach/${month}/confirm`);

const payoutsOf = (userId: string) =>
  t.db
    .selectFrom('payouts')
    .select(['id', sql<string>`period::text`.as('period'), 'amount_cents', 'fee_cents', 'status', 'method', sql<string>`payout_date::text`.as('payout_date'), 'provider_reference'])
    .where('user_id', '=', userId)
    .execute();
const mailsTo = (userId: string) =>
  t.db
    .selectFrom('email_outbox')
    .innerJoin('users', 'users.email', 'email_outbox.to_address')
    .select(['email_outbox.template'])
    .where('users.id', '=', userId)
    .execute();
const userRow = (id: string) =>
  t.db.selectFrom('users').select(['pending_payout_cents', sql<string | null>`last_payout_date::text`.as('last_payout_date')]).where('id', '=', id).executeTakeFirstOrThrow();

describe('the NACHA file of a period, and the confirmation of its upload', () => {
  it('downloads the run’s ACH payouts as a NACHA file, pays them once on confirmation, admins only', async () => {
    const boss = await admin();
    const current = periodAt(new Date());
    const month = current.slice(0, 7);
    const holder = 'Ada Achworth';
    const c = await payoutCreator(t.db, t.sealedValues, { method: 'ach', name: holder });
    await earn(t.db, c, 10_000, new Date(Date.parse(`${current}T00:00:00Z`) - 20 * 86_400_000)); // 70.00

    // The run is due (its 1st has come): through the app's providers, the NACHA one records the entry.
    const run = await send(boss, 'POST', '/api/admin/payouts/run', { period: month });
    expect(run.statusCode, run.body).toBe(200);
    expect(run.json().run).toMatchObject({ period: current, created: 1, submitted: 1, processing: 1, paid: 0, failed: 0 });
    const fee = payoutFee(7000, METHOD_TERMS.ach);
    expect(fee).toBe(35 + 25);
    const [made] = await payoutsOf(c);
    expect(made).toMatchObject({ period: current, amount_cents: 7000, fee_cents: fee, status: 'processing', method: 'ach' });
    expect(made!.provider_reference).toMatch(/^02100002[0-9]{7}$/);

    // The file: 94-character records 1, 5, 6, 8, 9, padded with nines to a block of 10.
    const res = await download(boss, month);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="framemerch-ach-${month}.txt"`);
    expect(res.headers['cache-control']).toBe('no-store');
    const records = res.body.split('\n');
    expect(records.pop()).toBe('');
    expect(records).toHaveLength(10);
    for (const r of records) expect(r).toHaveLength(94);
    expect(records.map((r) => r[0]).join('')).toBe('1568999999');
    expect(records.slice(5).every((r) => r === '9'.repeat(94))).toBe(true);
    const [header, batch, entry, batchControl, fileControl] = records as [string, string, string, string, string];
    expect(header.slice(3, 13)).toBe(` ${NACHA.NACHA_IMMEDIATE_DESTINATION}`);
    expect(header.slice(13, 23)).toBe(NACHA.NACHA_IMMEDIATE_ORIGIN);
    expect(batch.slice(1, 4)).toBe('220');
    expect(batch.slice(4, 20).trim()).toBe('FRAMEMERCH');
    expect(batch.slice(50, 53)).toBe('PPD');
    expect(batch.slice(79, 87)).toBe(NACHA.NACHA_ODFI);
    // The entry: a checking credit to the creator's full routing and account numbers (for the bank), of what they receive.
    const received = 7000 - fee;
    expect(entry.slice(1, 3)).toBe('22');
    expect(entry.slice(3, 12)).toBe(TEST_ROUTING);
    expect(entry.slice(12, 29)).toBe(TEST_ACCOUNT.padEnd(17));
    expect(entry.slice(12, 29).trim().slice(-4)).toBe('6789');
    expect(entry.slice(29, 39)).toBe(String(received).padStart(10, '0'));
    expect(entry.slice(29, 39)).toBe('0000006940');
    expect(entry.slice(54, 76).trim()).toBe(holder.toUpperCase());
    expect(entry.slice(79)).toBe(made!.provider_reference);
    expect(res.body).toContain(TEST_ACCOUNT);
    expect(batchControl.slice(4, 10)).toBe('000001');
    expect(batchControl.slice(10, 20)).toBe(TEST_ROUTING.slice(0, 8).padStart(10, '0'));
    expect(batchControl.slice(20, 32)).toBe('0'.repeat(12));
    expect(batchControl.slice(32, 44)).toBe(String(received).padStart(12, '0'));
    expect(fileControl.slice(1, 7)).toBe('000001');
    expect(fileControl.slice(7, 13)).toBe('000001');
    expect(fileControl.slice(13, 21)).toBe('00000001');
    expect(fileControl.slice(43, 55)).toBe(String(received).padStart(12, '0'));

    // Admins only: signed out 401, a creator (even the payee) 403; nothing is confirmed by them.
    const creator = await sessionOf(c);
    for (const [who, status, code] of [
      [null, 401, 'UNAUTHENTICATED'],
      [creator, 403, 'FORBIDDEN'],
    ] as const) {
      const got = await download(who, month);
      expect(got.statusCode, got.body).toBe(status);
      expect(got.json().code).toBe(code);
      expect(got.body).not.toContain(TEST_ACCOUNT);
      const posted = await confirm(who, month);
      expect(posted.statusCode, posted.body).toBe(status);
      expect(posted.json().code).toBe(code);
    }
    expect((await payoutsOf(c))[0]!.status).toBe('processing');

    // A month without ACH entries, and months that are not YYYY-MM.
    const none = await download(boss, '2001-01');
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual({ success: false, error: PAYOUT_RUN_MESSAGES.achFileNotFound, code: 'NOT_FOUND' });
    for (const bad of ['2026-13', '2026-1', '26-11', `${month}-01`, 'latest']) {
      const r = await download(boss, bad);
      expect(r.statusCode, bad).toBe(400);
      expect(r.json().code, bad).toBe('VALIDATION_FAILED');
      const p = await confirm(boss, bad);
      expect(p.statusCode, bad).toBe(400);
      expect(p.json().code, bad).toBe('VALIDATION_FAILED');
    }

    // The admin uploaded it: the payout is paid, dated today, and the creator emailed, as a webhook would.
    const today = new Date().toISOString().slice(0, 10);
    const confirmed = await confirm(boss, month);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.headers['cache-control']).toBe('no-store');
    expect(confirmed.json()).toEqual({ success: true, confirmed: 1 });
    expect((await payoutsOf(c))[0]).toMatchObject({ status: 'paid', payout_date: today, amount_cents: 7000, provider_reference: made!.provider_reference });
    expect(await userRow(c)).toEqual({ pending_payout_cents: 0, last_payout_date: today });
    expect((await mailsTo(c)).map((m) => m.template)).toEqual(['payout-paid']);
    const entries = await t.db.selectFrom('nacha_entries').select(['status', 'payout_id']).execute();
    expect(entries).toEqual([{ status: 'paid', payout_id: made!.id }]);

    // The creator's portal shows it paid.
    const portal = await send(creator, 'GET', '/api/payouts/portal');
    expect(portal.statusCode, portal.body).toBe(200);
    expect(portal.json()).toMatchObject({
      pending_payout_cents: 0,
      last_payout_date: today,
      recent_payouts: [{ date: today, period: month, amount_cents: 7000, fee_cents: fee, method: 'ach', status: 'paid' }],
    });

    // Again: nothing left to confirm, nothing changed, no second email.
    const again = await confirm(boss, month);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual({ success: true, confirmed: 0 });
    expect((await payoutsOf(c))[0]).toMatchObject({ status: 'paid', payout_date: today });
    expect((await mailsTo(c)).map((m) => m.template)).toEqual(['payout-paid']);
    // A month without entries confirms nothing.
    expect((await confirm(boss, '2001-01')).json()).toEqual({ success: true, confirmed: 0 });

    // Downloaded again after the upload: the same payout.
    const later = await download(boss, month);
    expect(later.statusCode).toBe(200);
    expect(later.body.split('\n').filter((r) => r.startsWith('6'))).toEqual([entry]);
  });
});

describe('without the NACHA settings', () => {
  let plain: TestApp;
  beforeAll(async () => {
    plain = await testApp();
  });
  afterAll(async () => plain?.close());

  it('has no file to download (404), and confirms nothing', async () => {
    const user = await createUser(plain.db, { email: 'boss@example.com', displayName: 'Boss', role: 'customer', emailVerified: true });
    await plain.db.updateTable('users').set({ is_admin: true }).where('id', '=', user.id).execute();
    const { token } = await createSession(plain.db, user.id, 1, {});
    const month = periodAt(new Date()).slice(0, 7);
    const headers = { host: 'localhost:3000', origin: ORIGIN };
    const res = await plain.app.inject({ method: 'GET', url: `/api/admin/payouts/ach/${month}`, headers, cookies: { [SESSION_COOKIE]: token } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, error: PAYOUT_RUN_MESSAGES.achNotConfigured, code: 'NOT_FOUND' });
    const posted = await plain.app.inject({ method: 'POST', url: `/api/admin/payouts/ach/${month}/confirm`, headers, cookies: { [SESSION_COOKIE]: token } });
    expect(posted.json()).toEqual({ success: true, confirmed: 0 });
  });
});
