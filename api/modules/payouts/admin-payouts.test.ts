/**
 * The admin portal's payouts on the real database (PGlite, or PostgreSQL with TEST_DATABASE_URL):
 * the runs by period against the payouts they sum, the payouts list's filters and keyset pages,
 * and a failed payout sent again: its earnings taken back once, one log entry, a new provider
 * request that is paid once, a repeat or a retry of a paid payout refused, late events about the
 * failed attempt ignored; admins only.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PAYOUT_MESSAGES, type AdminPayoutRow, type PayoutRunRow } from '../../../shared/schemas/admin-payouts.ts';
import { person, send, type Person } from '../../test/admin-support.ts';
import { testApp, type TestApp } from '../../test/harness.ts';
import { earn, fakeProviders, payoutCreator } from '../../test/payout-support.ts';
import { applyPayoutEvent, runPayouts, type PayoutRunDeps } from './index.ts';
import { parsePayoutAttemptKey, payoutAttemptKey } from './run-rules.ts';

let t: TestApp;
let admin: Person;
let someone: Person;
const fakes = fakeProviders();

beforeAll(async () => {
  t = await testApp();
  admin = await person(t, { admin: true, name: 'Payout Admin' });
  someone = await person(t, { name: 'Not Admin' });
});
afterAll(async () => t?.close());

/** Each test's creators stay out of the next test's runs. */
afterEach(async () => {
  await t.db.updateTable('users').set({ payout_enabled: false }).execute();
  fakes.setAnswer(() => 'processing');
});

const deps = (now: string): PayoutRunDeps => ({ db: t.db, opener: t.sealedValues, providerFor: fakes.providerFor, publicUrl: t.config.publicUrl, now: () => new Date(now) });
const creator = (opts: Parameters<typeof payoutCreator>[2] = {}) => payoutCreator(t.db, t.sealedValues, opts);
const get = (url: string, as: Person | null = admin) => send(t, as, { url });
const retry = (id: string, as: Person | null = admin) => send(t, as, { method: 'POST', url: `/api/admin/payouts/${id}/retry` });

/** Every page of a list, following next_cursor. */
async function allPages<R>(url: string, key: string): Promise<R[]> {
  const rows: R[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 100; i++) {
    const res = await get(`${url}${url.includes('?') ? '&' : '?'}${cursor ? `cursor=${cursor}` : ''}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    rows.push(...(body[key] as R[]));
    cursor = body.next_cursor;
    if (!cursor) return rows;
  }
  throw new Error('too many pages');
}

/** A payout row made straight in the database (for the list's figures and paging). */
async function insertPayout(userId: string, p: { period: string; status: AdminPayoutRow['status']; method?: AdminPayoutRow['method']; amount: number; fee?: number; createdAt?: string }) {
  const row = await t.db
    .insertInto('payouts')
    .values({
      user_id: userId,
      period: p.period,
      method: p.method ?? 'paypal',
      amount_cents: p.amount,
      fee_cents: p.fee ?? 0,
      status: p.status,
      payout_date: p.period,
      ...(p.createdAt ? { created_at: new Date(p.createdAt) } : {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const pendingOf = async (userId: string) =>
  Number((await t.db.selectFrom('users').select('pending_payout_cents').where('id', '=', userId).executeTakeFirstOrThrow()).pending_payout_cents);
const heldBy = (payoutId: string) => t.db.selectFrom('earnings').select('creator_share_cents').where('payout_id', '=', payoutId).execute();
const retryLogs = (payoutId: string) =>
  t.db.selectFrom('admin_logs').select(['admin_user_id', 'action_type', 'target_type', 'target_id', 'details']).where('target_id', '=', payoutId).execute();
const embeddedOf = (payoutId: string) =>
  t.db.selectFrom('embedded_payouts').select(['idempotency_key', 'outcome', 'status', 'amount_cents']).where('payout_id', '=', payoutId).execute();

describe('the key of each attempt', () => {
  it("is the period's key for the first attempt and names the attempt after it; a key reads back to its attempt", () => {
    const user = randomUUID();
    expect(payoutAttemptKey(user, '2026-11-01', 1)).toBe(`${user}:2026-11-01`);
    expect(payoutAttemptKey(user, '2026-11-01', 2)).toBe(`${user}:2026-11-01:retry2`);
    for (const n of [1, 2, 3, 10, 9999]) expect(parsePayoutAttemptKey(payoutAttemptKey(user, '2026-11-01', n))).toEqual({ userId: user, period: '2026-11-01', attempt: n });
    for (const bad of [`${user}:2026-11-01:retry1`, `${user}:2026-11-01:retry0`, `${user}:2026-11-01:retry02`, `${user}:2026-11-01:2`, `${user}:2026-11:retry2`, `x:2026-11-01:retry2`, '']) {
      expect(parsePayoutAttemptKey(bad), bad).toBeUndefined();
    }
  });
});

describe('admins only', () => {
  it('answers 401 signed out and 403 to a non-admin, on every route', async () => {
    const id = randomUUID();
    for (const [as, code] of [
      [null, 401],
      [someone, 403],
    ] as const) {
      expect((await get('/api/admin/payouts/runs', as)).statusCode).toBe(code);
      expect((await get('/api/admin/payouts', as)).statusCode).toBe(code);
      expect((await retry(id, as)).statusCode).toBe(code);
    }
    const ok = await get('/api/admin/payouts/runs');
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['cache-control']).toBe('private, no-store');
    expect((await get('/api/admin/payouts')).headers['cache-control']).toBe('private, no-store');
  });
});

describe('GET /api/admin/payouts/runs and GET /api/admin/payouts', () => {
  it("sums each period's payouts as the list shows them, newest period first, paged by period", async () => {
    const a = await creator({ method: 'paypal' });
    const b = await creator({ method: 'ach' });
    const c = await creator({ method: 'stripe_connect' });
    await insertPayout(a, { period: '2024-01-01', status: 'paid', amount: 7000, fee: 25 });
    await insertPayout(b, { period: '2024-01-01', status: 'failed', method: 'ach', amount: 5100, fee: 0 });
    await insertPayout(c, { period: '2024-01-01', status: 'processing', method: 'stripe_connect', amount: 9999, fee: 330 });
    await insertPayout(a, { period: '2024-02-01', status: 'pending', amount: 6000, fee: 20 });
    await insertPayout(b, { period: '2024-02-01', status: 'processing', method: 'ach', amount: 6500 });
    await insertPayout(c, { period: '2024-03-01', status: 'paid', method: 'stripe_connect', amount: 8000, fee: 100 });

    const runs = await allPages<PayoutRunRow>('/api/admin/payouts/runs?limit=1', 'runs');
    const periods = runs.map((r) => r.period);
    expect(periods).toEqual([...periods].sort().reverse());
    expect(new Set(periods).size).toBe(periods.length);
    expect(periods).toEqual(expect.arrayContaining(['2024-01', '2024-02', '2024-03']));
    // The default page: the 12 newest periods.
    const first = (await get('/api/admin/payouts/runs')).json();
    expect(first.runs).toEqual(runs.slice(0, 12));
    expect(first.next_cursor).toBe(runs.length > 12 ? runs[11]!.period : null);

    expect(runs.find((r) => r.period === '2024-01')).toEqual({ period: '2024-01', payouts: 3, amount_cents: 22_099, fee_cents: 355, pending: 0, processing: 1, paid: 1, failed: 1, ach: 1 });
    expect(runs.find((r) => r.period === '2024-02')).toEqual({ period: '2024-02', payouts: 2, amount_cents: 12_500, fee_cents: 20, pending: 1, processing: 1, paid: 0, failed: 0, ach: 1 });

    // Every run's figures are its payouts' as the list shows them.
    for (const run of runs) {
      const rows = await allPages<AdminPayoutRow>(`/api/admin/payouts?period=${run.period}&limit=100`, 'payouts');
      expect(rows.every((r) => r.period === run.period)).toBe(true);
      const count = (s: AdminPayoutRow['status']) => rows.filter((r) => r.status === s).length;
      expect(run).toEqual({
        period: run.period,
        payouts: rows.length,
        amount_cents: rows.reduce((s, r) => s + r.amount_cents, 0),
        fee_cents: rows.reduce((s, r) => s + r.fee_cents, 0),
        pending: count('pending'),
        processing: count('processing'),
        paid: count('paid'),
        failed: count('failed'),
        ach: rows.filter((r) => r.method === 'ach').length,
      });
    }

    for (const bad of ['2024-13', '24-01', '2024-01-01', 'abc']) expect((await get(`/api/admin/payouts/runs?cursor=${bad}`)).statusCode, bad).toBe(400);
    expect((await get('/api/admin/payouts/runs?limit=101')).statusCode).toBe(400);
  });

  it('filters by period and status and pages newest first with no row skipped or repeated, ties in created_at included', async () => {
    const users = await Promise.all([creator(), creator(), creator(), creator(), creator(), creator(), creator()]);
    const tie = '2024-06-15T10:00:00.123456Z';
    const made: { id: string; status: AdminPayoutRow['status'] }[] = [];
    const statuses: AdminPayoutRow['status'][] = ['paid', 'failed', 'paid', 'pending', 'processing', 'paid', 'failed'];
    for (const [i, u] of users.entries()) {
      const status = statuses[i]!;
      // Three share one created_at to the microsecond: the id breaks the tie.
      const createdAt = i < 3 ? tie : `2024-06-${String(16 + i).padStart(2, '0')}T08:00:00Z`;
      made.push({ id: await insertPayout(u, { period: '2024-06-01', status, amount: 5000 + i, createdAt }), status });
    }
    await insertPayout(users[0]!, { period: '2024-07-01', status: 'paid', amount: 5000 });

    const expected = await t.db
      .selectFrom('payouts')
      .select('id')
      .where('period', '=', '2024-06-01')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    const paged = await allPages<AdminPayoutRow>('/api/admin/payouts?period=2024-06&limit=2', 'payouts');
    expect(paged.map((r) => r.id)).toEqual(expected.map((r) => r.id));
    expect(new Set(paged.map((r) => r.id)).size).toBe(made.length);

    const paid = await allPages<AdminPayoutRow>('/api/admin/payouts?period=2024-06&status=paid&limit=1', 'payouts');
    expect(paid.map((r) => r.id).sort()).toEqual(made.filter((m) => m.status === 'paid').map((m) => m.id).sort());
    const failed = await allPages<AdminPayoutRow>('/api/admin/payouts?period=2024-06&status=failed', 'payouts');
    expect(failed.map((r) => r.id).sort()).toEqual(made.filter((m) => m.status === 'failed').map((m) => m.id).sort());
    // Made by hand with no earnings to take back: failed, but nothing left to send.
    expect(failed.every((r) => r.can_retry === false && r.status === 'failed')).toBe(true);

    // Across periods, a status's payouts only.
    const allFailed = await allPages<AdminPayoutRow>('/api/admin/payouts?status=failed&limit=100', 'payouts');
    expect(allFailed.every((r) => r.status === 'failed')).toBe(true);
    expect(allFailed.map((r) => r.id)).toEqual(expect.arrayContaining(failed.map((r) => r.id)));

    const one = paged.find((r) => r.id === made[0]!.id)!;
    const u0 = await t.db.selectFrom('users').select(['username', 'email']).where('id', '=', users[0]!).executeTakeFirstOrThrow();
    expect(one).toEqual({
      id: made[0]!.id,
      period: '2024-06',
      creator: { id: users[0], username: u0.username, email: u0.email },
      method: 'paypal',
      amount_cents: 5000,
      fee_cents: 0,
      status: 'paid',
      failure_reason: null,
      provider_reference: null,
      created_at: '2024-06-15T10:00:00.123Z',
      updated_at: expect.any(String),
      can_retry: false,
    });

    for (const bad of ['2024-6', '2024-00', 'x']) expect((await get(`/api/admin/payouts?period=${bad}`)).statusCode, bad).toBe(400);
    expect((await get('/api/admin/payouts?status=lost')).statusCode).toBe(400);
    expect((await get('/api/admin/payouts?cursor=bm90LWEtY3Vyc29y')).json()).toMatchObject({ success: false, error: ADMIN_PAYOUT_MESSAGES.badCursor });
  });
});

describe('POST /api/admin/payouts/:id/retry', () => {
  /** A creator whose payout of the period failed at the provider in the monthly run. */
  async function failedPayout(period: string, margin = 10_000) {
    const c = await creator({ method: 'paypal' });
    await earn(t.db, c, margin, new Date(Date.parse(`${period}T00:00:00Z`) - 10 * 86_400_000));
    fakes.setAnswer((r) => (r.userId === c ? 'failed' : 'processing'));
    await runPayouts(deps(`${period}T01:00:00Z`), period);
    fakes.setAnswer(() => 'processing');
    const p = await t.db.selectFrom('payouts').select(['id', 'status', 'amount_cents']).where('user_id', '=', c).executeTakeFirstOrThrow();
    expect(p.status).toBe('failed');
    return { c, id: p.id, amount: Number(p.amount_cents) };
  }

  it('sends a failed payout again once: earnings taken back, one log entry, a new provider request paid once; a repeat or a paid payout answers 409', async () => {
    const { c, id, amount } = await failedPayout('2026-05-01');
    // The failure gave the earnings back, and the list says why it failed (digits masked).
    expect(await pendingOf(c)).toBe(amount);
    expect(await heldBy(id)).toEqual([]);
    const [listed] = (await get('/api/admin/payouts?period=2026-05&status=failed&limit=100')).json().payouts.filter((r: AdminPayoutRow) => r.id === id);
    expect(listed).toMatchObject({ status: 'failed', failure_reason: 'Receiver account [number] is closed', can_retry: true, amount_cents: amount });

    const res = await retry(id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const body = res.json();
    // Sent through the app's provider (the embedded one here): taken, to settle later.
    expect(body).toEqual({ success: true, message: ADMIN_PAYOUT_MESSAGES.retriedProcessing, payout: expect.objectContaining({ id, status: 'processing', failure_reason: null, can_retry: false, amount_cents: amount }) });
    expect(body.payout.provider_reference).toEqual(expect.any(String));
    expect(await pendingOf(c)).toBe(0);
    expect((await heldBy(id)).reduce((s, e) => s + Number(e.creator_share_cents), 0)).toBe(amount);
    const logs = await retryLogs(id);
    expect(logs).toEqual([
      expect.objectContaining({ admin_user_id: admin.id, action_type: 'retry_payout', target_type: 'payout', target_id: id, details: expect.objectContaining({ creator_id: c, period: '2026-05', attempt: 2, amount_cents: amount }) }),
    ]);
    expect(await embeddedOf(id)).toEqual([{ idempotency_key: `${c}:2026-05-01:retry2`, outcome: 'paid', status: 'processing', amount_cents: expect.anything() }]);

    // Again while it is on its way: 409, nothing more sent or logged.
    const again = await retry(id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ success: false, error: ADMIN_PAYOUT_MESSAGES.notFailed('processing'), code: 'CONFLICT' });

    // A late event about the failed first attempt changes nothing.
    const late = await applyPayoutEvent(deps('2026-05-02T00:00:00Z'), {
      eventId: `late-${randomUUID()}`,
      providerReference: 'ref_late',
      idempotencyKey: `${c}:2026-05-01`,
      status: 'failed',
      failureReason: 'late',
      occurredAt: new Date(),
    });
    expect(late).toMatchObject({ outcome: 'ignored' });
    expect(await pendingOf(c)).toBe(0);

    // It settles: paid once.
    await t.app.payoutProviders.embedded.tick(new Date(Date.now() + 30 * 86_400_000));
    const paid = (await get('/api/admin/payouts?period=2026-05&status=paid&limit=100')).json().payouts.find((r: AdminPayoutRow) => r.id === id);
    expect(paid).toMatchObject({ status: 'paid', can_retry: false });
    const paidAgain = await retry(id);
    expect(paidAgain.statusCode).toBe(409);
    expect(paidAgain.json().error).toBe(ADMIN_PAYOUT_MESSAGES.notFailed('paid'));
    expect((await embeddedOf(id)).filter((e) => e.status === 'paid')).toHaveLength(1);
    expect(fakes.requests().filter((r) => r.payoutId === id)).toHaveLength(1);
    expect(await retryLogs(id)).toHaveLength(1);
    expect(await pendingOf(c)).toBe(0);
  });

  it('two retries at once: one sends it, the other answers 409', async () => {
    const { id } = await failedPayout('2026-06-01');
    const answers = await Promise.all([retry(id), retry(id)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(await embeddedOf(id)).toHaveLength(1);
    expect(await retryLogs(id)).toHaveLength(1);
  });

  it('a payout that fails again can be retried again, under a third key; one whose earnings a later payout took cannot', async () => {
    const { c, id, amount } = await failedPayout('2026-07-01');
    // The details still fail at the provider (the embedded provider fails a reserved address).
    await t.db.updateTable('users').set({ paypal_email: `nobody-${c.slice(0, 8)}@fail.example` }).where('id', '=', c).execute();
    const first = await retry(id);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ payout: { status: 'processing', can_retry: false } });
    expect(await pendingOf(c)).toBe(0);
    // The provider reports the failure of this attempt: the earnings are back, and it may be retried again.
    await t.app.payoutProviders.embedded.tick(new Date(Date.now() + 30 * 86_400_000));
    const failedAgain = (await get('/api/admin/payouts?period=2026-07&limit=100')).json().payouts.find((r: AdminPayoutRow) => r.id === id);
    expect(failedAgain).toMatchObject({ status: 'failed', can_retry: true });
    expect(failedAgain.failure_reason).toEqual(expect.stringContaining('PayPal account'));
    expect(await pendingOf(c)).toBe(amount);
    // Fixed: the third attempt goes out.
    await t.db.updateTable('users').set({ paypal_email: `fixed-${c.slice(0, 8)}@example.com` }).where('id', '=', c).execute();
    const second = await retry(id);
    expect(second.json()).toMatchObject({ payout: { status: 'processing' } });
    expect((await embeddedOf(id)).map((e) => e.idempotency_key).sort()).toEqual([`${c}:2026-07-01:retry2`, `${c}:2026-07-01:retry3`]);
    expect(await retryLogs(id)).toHaveLength(2);

    // The next run takes a failed payout's earnings: then there is nothing left to retry.
    const other = await failedPayout('2026-08-01');
    await runPayouts(deps('2026-09-01T01:00:00Z'), '2026-09-01');
    const later = await t.db.selectFrom('payouts').select(['status', sql<string>`period::text`.as('period')]).where('user_id', '=', other.c).orderBy('period').execute();
    expect(later).toEqual([
      { status: 'failed', period: '2026-08-01' },
      { status: 'processing', period: '2026-09-01' },
    ]);
    const listed = (await get('/api/admin/payouts?period=2026-08&status=failed&limit=100')).json().payouts.find((r: AdminPayoutRow) => r.id === other.id);
    expect(listed.can_retry).toBe(false);
    const refused = await retry(other.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe(ADMIN_PAYOUT_MESSAGES.alreadyTaken);
    expect(await retryLogs(other.id)).toHaveLength(0);
  });

  it('answers 404 for a payout that does not exist and 400 for an id that is not one', async () => {
    const missing = await retry(randomUUID());
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ success: false, error: ADMIN_PAYOUT_MESSAGES.payoutNotFound, code: 'NOT_FOUND' });
    expect((await retry('not-a-uuid')).statusCode).toBe(400);
  });
});

describe('a run and an ACH upload confirmed by an admin', () => {
  const logsFor = (month: string, action: string) =>
    t.db.selectFrom('admin_logs').select(['admin_user_id', 'details']).where('target_id', '=', month).where('action_type', '=', action).execute();

  it('each is in the admin log with what it did; a refused request writes nothing', async () => {
    const refused = await send(t, someone, { method: 'POST', url: '/api/admin/payouts/run', payload: { period: '2025-02' } });
    expect(refused.statusCode).toBe(403);
    expect(await logsFor('2025-02', 'run_payouts')).toEqual([]);

    const run = await send(t, admin, { method: 'POST', url: '/api/admin/payouts/run', payload: { period: '2025-02' } });
    expect(run.statusCode, run.body).toBe(200);
    const logged = await logsFor('2025-02', 'run_payouts');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ admin_user_id: admin.id, details: run.json().run });

    // Not due yet (a month far ahead): refused with 400, and not logged.
    const early = await send(t, admin, { method: 'POST', url: '/api/admin/payouts/run', payload: { period: '2999-01' } });
    expect(early.statusCode).toBe(400);
    expect(await logsFor('2999-01', 'run_payouts')).toEqual([]);

    const confirm = await send(t, admin, { method: 'POST', url: '/api/admin/payouts/ach/2025-02/confirm' });
    expect(confirm.statusCode, confirm.body).toBe(200);
    expect(await logsFor('2025-02', 'confirm_ach_upload')).toEqual([{ admin_user_id: admin.id, details: { confirmed: confirm.json().confirmed } }]);
  });
});
