/**
 * The monthly payout run on the real database (PGlite, or PostgreSQL with TEST_DATABASE_URL),
 * through the service with fake providers that pay each idempotency key once: who is paid and
 * how much, negative balances after refunds, failures that give the earnings back to the next
 * period, outages, provider events applied once, the creators' emails, two runs started at once,
 * the admin route and the monthly job's schedule.
 */
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PAYOUT_RUN_MESSAGES } from '../../../shared/schemas/payouts.ts';
import { createSession, SESSION_COOKIE } from '../../platform/sessions/sessions.ts';
import { openDatabase } from '../../platform/db/database.ts';
import { ORIGIN } from '../../test/browser.ts';
import { testApp, type TestApp } from '../../test/harness.ts';
import { earn, fakeProviders, payoutCreator, refund, TEST_ACCOUNT, TEST_ROUTING } from '../../test/payout-support.ts';
import { buildApp } from '../../app.ts';
import { createUser } from '../accounts/index.ts';
import { applyPayoutEvent, ensurePayoutSchedule, runPayouts, schedulePayoutRun, type PayoutRunDeps } from './index.ts';
import { nextPeriod, payoutFee, periodAt } from './run-rules.ts';
import { METHOD_TERMS } from '../../test/payout-model.ts';

let t: TestApp;
const fakes = fakeProviders();

beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => t?.close());

/** Each test's creators stay out of the next test's runs. */
afterEach(async () => {
  await t.db.updateTable('users').set({ payout_enabled: false }).execute();
  await t.db.updateTable('payouts').set({ status: 'failed' }).where('status', '=', 'pending').execute();
  fakes.setAnswer(() => 'processing');
  fakes.delayMs = 0;
});

const at = (iso: string) => new Date(iso);
const deps = (now: string, over: Partial<PayoutRunDeps> = {}): PayoutRunDeps => ({
  db: t.db,
  opener: t.sealedValues,
  providerFor: fakes.providerFor,
  publicUrl: t.config.publicUrl,
  now: () => at(now),
  ...over,
});
const creator = (opts: Parameters<typeof payoutCreator>[2] = {}) => payoutCreator(t.db, t.sealedValues, opts);

const payoutsOf = (userId: string) =>
  t.db
    .selectFrom('payouts')
    .select(['id', sql<string>`period::text`.as('period'), 'amount_cents', 'fee_cents', 'status', 'method', sql<string>`payout_date::text`.as('payout_date'), 'provider_reference'])
    .where('user_id', '=', userId)
    .orderBy('period')
    .execute();
const userRow = (id: string) =>
  t.db.selectFrom('users').select(['pending_payout_cents', 'total_earnings_cents', sql<string | null>`last_payout_date::text`.as('last_payout_date')]).where('id', '=', id).executeTakeFirstOrThrow();
const earningsOf = (userId: string) => t.db.selectFrom('earnings').select(['creator_share_cents', 'payout_id', 'created_at']).where('user_id', '=', userId).orderBy('created_at').execute();
const mailsTo = (userId: string) =>
  t.db
    .selectFrom('email_outbox')
    .innerJoin('users', 'users.email', 'email_outbox.to_address')
    .select(['email_outbox.template', 'email_outbox.subject', 'email_outbox.payload', 'email_outbox.dedupe_key'])
    .where('users.id', '=', userId)
    .orderBy('email_outbox.created_at')
    .execute();
const requestsFor = (userId: string) => fakes.requests().filter((r) => r.userId === userId);

/** The rule every test ends on: what was paid, what is on its way and what is pending add up to what was earned. */
async function balanced(userId: string) {
  const payouts = await payoutsOf(userId);
  const u = await userRow(userId);
  const earned = (await earningsOf(userId)).reduce((s, e) => s + Number(e.creator_share_cents), 0);
  const unheld = (await earningsOf(userId)).filter((e) => e.payout_id === null).reduce((s, e) => s + Number(e.creator_share_cents), 0);
  const paidOrOnItsWay = payouts.filter((p) => p.status !== 'failed').reduce((s, p) => s + Number(p.amount_cents), 0);
  expect(Number(u.total_earnings_cents)).toBe(earned);
  expect(Number(u.pending_payout_cents)).toBe(unheld);
  expect(paidOrOnItsWay + unheld).toBe(earned);
}

describe('making payouts', () => {
  it("pays a creator's unheld earnings made before the 1st, once per period, the method's fee deducted", async () => {
    const c = await creator();
    await earn(t.db, c, 4000, at('2026-10-05T10:00:00Z')); // 28.00
    await earn(t.db, c, 5000, at('2026-10-31T23:59:59Z')); // 35.00
    await earn(t.db, c, 3000, at('2026-11-01T00:00:00Z')); // 21.00, made on the 1st: the next run's
    const run = await runPayouts(deps('2026-11-01T00:05:00Z'), '2026-11-01');
    expect(run).toMatchObject({ period: '2026-11-01', created: 1, submitted: 1, processing: 1, paid: 0, failed: 0, waiting: 0, errors: 0 });

    const fee = payoutFee(6300, METHOD_TERMS.paypal);
    expect(fee).toBe(183 + 30);
    const [payout] = await payoutsOf(c);
    expect(payout).toMatchObject({ period: '2026-11-01', amount_cents: 6300, fee_cents: fee, status: 'processing', method: 'paypal', payout_date: '2026-11-01' });
    expect(requestsFor(c)).toEqual([
      expect.objectContaining({ payoutId: payout!.id, idempotencyKey: `${c}:2026-11-01`, userId: c, period: '2026-11-01', amountCents: 6300 - fee, currency: 'USD', destination: { method: 'paypal', paypalEmail: expect.stringMatching(/@example\.com$/) } }),
    ]);
    expect((await earningsOf(c)).map((e) => e.payout_id)).toEqual([payout!.id, payout!.id, null]);
    expect(await userRow(c)).toMatchObject({ pending_payout_cents: 2100, total_earnings_cents: 8400, last_payout_date: null });

    // Again, and later in the month: nothing more for this period, and nothing sent twice.
    const again = await runPayouts(deps('2026-11-20T00:00:00Z'), '2026-11-01');
    expect(again).toMatchObject({ created: 0, submitted: 0 });
    expect(requestsFor(c)).toHaveLength(1);
    expect(await payoutsOf(c)).toHaveLength(1);
    await balanced(c);
  });

  it('pays nobody below the threshold, without payouts on, without the details of their method, or suspended', async () => {
    const below = await creator();
    await earn(t.db, below, 7141, at('2026-10-02T00:00:00Z')); // 49.99
    const off = await creator({ enabled: false });
    await earn(t.db, off, 20_000, at('2026-10-02T00:00:00Z'));
    const noAccount = await creator({ method: 'stripe_connect' });
    await t.db.updateTable('users').set({ stripe_connect_status: 'pending' }).where('id', '=', noAccount).execute();
    await earn(t.db, noAccount, 20_000, at('2026-10-02T00:00:00Z'));
    const suspended = await creator();
    await t.db.updateTable('users').set({ status: 'suspended' }).where('id', '=', suspended).execute();
    await earn(t.db, suspended, 20_000, at('2026-10-02T00:00:00Z'));
    const higher = await creator({ thresholdCents: 10_000 });
    await earn(t.db, higher, 14_000, at('2026-10-02T00:00:00Z')); // 98.00
    const stripeMin = await creator({ method: 'stripe_connect', thresholdCents: 0 });
    await earn(t.db, stripeMin, 3571, at('2026-10-02T00:00:00Z')); // 25.00: Stripe Connect's minimum

    await runPayouts(deps('2026-11-01T00:00:00Z'), '2026-11-01');
    for (const id of [below, off, noAccount, suspended, higher]) {
      expect(await payoutsOf(id), id).toEqual([]);
      await balanced(id);
    }
    expect((await payoutsOf(stripeMin)).map((p) => p.amount_cents)).toEqual([2500]);
    expect(requestsFor(stripeMin)[0]?.destination).toEqual({ method: 'stripe_connect', accountId: expect.stringMatching(/^acct_test/) });
    // At $50.00 the creator below is paid the next month.
    await earn(t.db, below, 2, at('2026-11-15T00:00:00Z')); // 0.01
    await runPayouts(deps('2026-12-01T00:00:00Z'), '2026-12-01');
    expect((await payoutsOf(below)).map((p) => [p.period, p.amount_cents])).toEqual([['2026-12-01', 5000]]);
  });

  it('takes a refund after a payout back from later earnings: no payout until the balance is at the threshold again', async () => {
    fakes.setAnswer(() => 'paid');
    const c = await creator();
    const sold = await earn(t.db, c, 10_000, at('2026-09-10T00:00:00Z')); // 70.00
    await runPayouts(deps('2026-10-01T00:00:00Z'), '2026-10-01');
    expect((await payoutsOf(c)).map((p) => [p.period, p.amount_cents, p.status])).toEqual([['2026-10-01', 7000, 'paid']]);

    await refund(t.db, sold, at('2026-10-10T00:00:00Z'));
    expect((await userRow(c)).pending_payout_cents).toBe(-7000);
    await earn(t.db, c, 8000, at('2026-10-15T00:00:00Z')); // 56.00: still -14.00
    await runPayouts(deps('2026-11-01T00:00:00Z'), '2026-11-01');
    expect(await payoutsOf(c)).toHaveLength(1);
    expect((await userRow(c)).pending_payout_cents).toBe(-1400);

    await earn(t.db, c, 12_000, at('2026-11-10T00:00:00Z')); // 84.00: 70.00 pending
    await runPayouts(deps('2026-12-01T00:00:00Z'), '2026-12-01');
    expect((await payoutsOf(c)).map((p) => [p.period, p.amount_cents, p.status])).toEqual([
      ['2026-10-01', 7000, 'paid'],
      ['2026-12-01', 7000, 'paid'],
    ]);
    // The reversal went into December's payout with the sales that paid it off.
    const dec = (await payoutsOf(c))[1]!;
    expect((await earningsOf(c)).filter((e) => e.payout_id === dec.id).map((e) => Number(e.creator_share_cents)).sort((a, b) => a - b)).toEqual([-7000, 5600, 8400]);
    expect(await userRow(c)).toMatchObject({ pending_payout_cents: 0, total_earnings_cents: 14_000, last_payout_date: '2026-12-01' });
    await balanced(c);
  });

  it("a failed payout gives its earnings back, tells the creator (last 4 digits at most), and the next period's payout takes them", async () => {
    const c = await creator({ method: 'ach', name: 'Ada Ach' });
    await earn(t.db, c, 10_000, at('2026-09-03T00:00:00Z')); // 70.00
    fakes.setAnswer(() => 'failed');
    const run = await runPayouts(deps('2026-10-01T00:00:00Z'), '2026-10-01');
    expect(run).toMatchObject({ created: 1, submitted: 1, failed: 1 });
    expect(requestsFor(c)[0]?.destination).toEqual({ method: 'ach', routingNumber: TEST_ROUTING, accountNumber: TEST_ACCOUNT, holderName: 'Ada Ach', accountType: 'checking' });
    const [failed] = await payoutsOf(c);
    expect(failed).toMatchObject({ status: 'failed', amount_cents: 7000 });
    expect((await earningsOf(c)).map((e) => e.payout_id)).toEqual([null]);
    expect((await userRow(c)).pending_payout_cents).toBe(7000);

    const [mail] = await mailsTo(c);
    expect(mail).toMatchObject({ template: 'payout-failed', dedupe_key: `payout:${failed!.id}:failed` });
    const text = (mail!.payload as { text: string }).text;
    expect(mail!.subject).toBe(`Your FrameMerch payout of ${'$' + ((7000 - Number(failed!.fee_cents)) / 100).toFixed(2)} could not be sent`);
    expect(text).toContain('Hello Ada Ach,');
    expect(text).toContain('your bank account ending in 6789');
    expect(text).toContain('The $70.00 is back in your pending balance');
    expect(text).toContain('The reason given: Receiver account [number] is closed');
    for (const secret of [TEST_ACCOUNT, TEST_ROUTING, '123456789']) expect(mail!.subject + text).not.toContain(secret);

    // The period's run again: a failed payout is final, not sent again, and no second one is made for October.
    fakes.setAnswer(() => 'paid');
    await runPayouts(deps('2026-10-02T00:00:00Z'), '2026-10-01');
    expect(requestsFor(c)).toHaveLength(1);
    expect(await payoutsOf(c)).toHaveLength(1);

    await earn(t.db, c, 1000, at('2026-10-20T00:00:00Z')); // 7.00
    await runPayouts(deps('2026-11-01T00:00:00Z'), '2026-11-01');
    const [, nov] = await payoutsOf(c);
    expect(nov).toMatchObject({ period: '2026-11-01', amount_cents: 7700, status: 'paid', payout_date: '2026-11-01' });
    expect(requestsFor(c).map((r) => r.idempotencyKey)).toEqual([`${c}:2026-10-01`, `${c}:2026-11-01`]);
    expect((await earningsOf(c)).map((e) => e.payout_id)).toEqual([nov!.id, nov!.id]);
    expect((await mailsTo(c)).map((m) => m.template)).toEqual(['payout-failed', 'payout-paid']);
    expect(await userRow(c)).toMatchObject({ pending_payout_cents: 0, last_payout_date: '2026-11-01' });
    await balanced(c);
  });

  it('leaves a payout pending when the provider cannot be reached, and the next run sends it with the same key', async () => {
    const c = await creator();
    await earn(t.db, c, 10_000, at('2026-09-03T00:00:00Z'));
    fakes.setAnswer(() => 'error');
    expect(await runPayouts(deps('2026-10-01T00:00:00Z'), '2026-10-01')).toMatchObject({ created: 1, submitted: 0, errors: 1 });
    expect((await payoutsOf(c))[0]).toMatchObject({ status: 'pending', provider_reference: null });

    fakes.setAnswer(() => 'paid');
    expect(await runPayouts(deps('2026-10-01T06:00:00Z'), '2026-10-01')).toMatchObject({ created: 0, submitted: 1, paid: 1, errors: 0 });
    expect(requestsFor(c).map((r) => r.idempotencyKey)).toEqual([`${c}:2026-10-01`, `${c}:2026-10-01`]);
    expect(fakes.taken().filter((x) => x.request.userId === c)).toHaveLength(1);
    expect((await payoutsOf(c))[0]).toMatchObject({ status: 'paid', payout_date: '2026-10-01', provider_reference: expect.stringMatching(/^ref_/) });
    await balanced(c);
  });

  it('makes the payouts of a method without a provider and keeps them pending until one is there', async () => {
    const c = await creator({ method: 'stripe_connect' });
    await earn(t.db, c, 10_000, at('2026-09-03T00:00:00Z'));
    const none = await runPayouts(deps('2026-10-01T00:00:00Z', { providerFor: () => undefined }), '2026-10-01');
    expect(none).toMatchObject({ created: 1, submitted: 0, waiting: 1 });
    expect((await payoutsOf(c))[0]?.status).toBe('pending');
    const later = await runPayouts(deps('2026-10-05T00:00:00Z'), '2026-10-01');
    expect(later).toMatchObject({ created: 0, submitted: 1, processing: 1 });
  });
});

describe('applyPayoutEvent', () => {
  it('applies a final outcome once: paid sets the dates and sends one email; repeated and contrary events change nothing', async () => {
    const c = await creator({ name: 'Pat Paid' });
    await earn(t.db, c, 10_000, at('2026-09-03T00:00:00Z'));
    await runPayouts(deps('2026-10-01T00:00:00Z'), '2026-10-01');
    const [p] = await payoutsOf(c);
    expect(p!.status).toBe('processing');
    const event = { eventId: 'evt_1', providerReference: p!.provider_reference!, idempotencyKey: `${c}:2026-10-01`, status: 'paid' as const, occurredAt: at('2026-10-02T15:00:00Z') };
    expect(await applyPayoutEvent({ db: t.db }, event)).toEqual({ outcome: 'applied', payoutId: p!.id, status: 'paid' });
    expect(await applyPayoutEvent({ db: t.db }, event)).toEqual({ outcome: 'ignored', payoutId: p!.id, status: 'paid' });
    expect(await applyPayoutEvent({ db: t.db }, { ...event, eventId: 'evt_2', status: 'failed' })).toEqual({ outcome: 'ignored', payoutId: p!.id, status: 'paid' });
    expect((await payoutsOf(c))[0]).toMatchObject({ status: 'paid', payout_date: '2026-10-02' });
    expect(await userRow(c)).toMatchObject({ last_payout_date: '2026-10-02', pending_payout_cents: 0 });
    const mails = await mailsTo(c);
    expect(mails.map((m) => m.template)).toEqual(['payout-paid']);
    const net = 7000 - Number(p!.fee_cents);
    expect(mails[0]!.subject).toBe(`Your FrameMerch payout of $${(net / 100).toFixed(2)} has been sent`);
    expect((mails[0]!.payload as { text: string }).text).toContain('Earnings paid: $70.00');
    expect((mails[0]!.payload as { text: string }).text).toContain('your earnings up to 30 September 2026');
    await balanced(c);
  });

  it('a failure event gives the earnings back once, whichever of its deliveries comes first', async () => {
    const c = await creator();
    await earn(t.db, c, 10_000, at('2026-09-03T00:00:00Z'));
    await runPayouts(deps('2026-10-01T00:00:00Z'), '2026-10-01');
    const [p] = await payoutsOf(c);
    const event = { eventId: 'evt_f', providerReference: p!.provider_reference!, idempotencyKey: `${c}:2026-10-01`, status: 'failed' as const, failureReason: 'RECEIVER_UNCONFIRMED', occurredAt: at('2026-10-02T00:00:00Z') };
    const results = await Promise.all(Array.from({ length: 5 }, () => applyPayoutEvent({ db: t.db }, event)));
    expect(results.filter((r) => r.outcome === 'applied')).toHaveLength(1);
    expect((await userRow(c)).pending_payout_cents).toBe(7000);
    expect((await mailsTo(c)).map((m) => m.template)).toEqual(['payout-failed']);
    await balanced(c);
  });

  it("finds the payout by the provider's reference when the key is not one of ours, and answers unknown for neither", async () => {
    const c = await creator();
    await earn(t.db, c, 10_000, at('2026-09-03T00:00:00Z'));
    await runPayouts(deps('2026-10-01T00:00:00Z'), '2026-10-01');
    const [p] = await payoutsOf(c);
    const base = { eventId: 'evt_r', status: 'paid' as const, occurredAt: at('2026-10-03T00:00:00Z') };
    expect(await applyPayoutEvent({ db: t.db }, { ...base, providerReference: 'ref_nobody', idempotencyKey: 'batch-of-someone-else' })).toEqual({ outcome: 'unknown' });
    expect(await applyPayoutEvent({ db: t.db }, { ...base, providerReference: 'ref_nobody', idempotencyKey: `${c}:2026-08-01` })).toEqual({ outcome: 'unknown' });
    expect(await applyPayoutEvent({ db: t.db }, { ...base, providerReference: p!.provider_reference!, idempotencyKey: 'not-ours' })).toMatchObject({ outcome: 'applied', payoutId: p!.id });
  });
});

/** The URL of this file's PostgreSQL database (TEST_DATABASE_URL names the server; the harness made a database on it). */
async function thisDatabaseUrl(): Promise<string> {
  const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(t.db);
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${rows[0]!.name}`;
  return url.toString();
}

describe('two runs started at once', () => {
  it('pay each creator once: one payout per creator and period, each key paid once by the provider', async () => {
    fakes.delayMs = 3;
    const creators = await Promise.all(Array.from({ length: 12 }, (_, i) => creator({ method: (['paypal', 'ach', 'stripe_connect'] as const)[i % 3] })));
    for (const [i, c] of creators.entries()) {
      await earn(t.db, c, 8000 + i * 100, at('2026-06-10T00:00:00Z'));
      await earn(t.db, c, 1000, at('2026-06-20T00:00:00Z'));
    }
    // On PostgreSQL the second run has a pool of its own, as another process would.
    const other = t.database.kind === 'postgres' ? await openDatabase({ url: await thisDatabaseUrl() }) : null;
    try {
      for (const period of ['2026-07-01', '2026-08-01']) {
        const second = other ? { db: other.db } : {};
        fakes.setAnswer((r) => (r.userId.charCodeAt(0) % 2 === 0 ? 'paid' : 'processing'));
        const runs = await Promise.all([runPayouts(deps(`${period}T00:00:00Z`), period), runPayouts(deps(`${period}T00:00:00Z`, second), period), runPayouts(deps(`${period}T00:00:01Z`), period)]);
        const created = runs.reduce((s, r) => s + r.created, 0);
        expect(created).toBe(period === '2026-07-01' ? creators.length : 0);
        for (const c of creators) {
          const mine = await payoutsOf(c);
          expect(mine.map((p) => p.period)).toEqual(['2026-07-01']);
          expect(fakes.taken().filter((x) => x.request.userId === c)).toHaveLength(1);
          expect(new Set(requestsFor(c).map((r) => r.idempotencyKey))).toEqual(new Set([`${c}:2026-07-01`]));
          await balanced(c);
        }
      }
    } finally {
      await other?.close();
    }
  });
});

describe('POST /api/admin/payouts/run', () => {
  async function signedIn(isAdmin: boolean) {
    const user = await createUser(t.db, { email: `${isAdmin ? 'boss' : 'not-boss'}-${Date.now()}@example.com`, displayName: 'Boss', role: isAdmin ? 'customer' : 'creator', emailVerified: true });
    if (isAdmin) await t.db.updateTable('users').set({ is_admin: true }).where('id', '=', user.id).execute();
    const { token } = await createSession(t.db, user.id, 1, {});
    return (period: string) =>
      t.app.inject({ method: 'POST', url: '/api/admin/payouts/run', headers: { origin: ORIGIN, host: 'localhost:3000' }, cookies: { [SESSION_COOKIE]: token }, payload: { period } });
  }

  it("runs a period that is due through the app's payout providers and answers what it did; refuses one whose 1st has not come, or a malformed month; admins only", async () => {
    const post = await signedIn(true);
    const current = periodAt(new Date());
    const c = await creator();
    await earn(t.db, c, 10_000, at('2025-12-03T00:00:00Z'));
    const res = await post(current.slice(0, 7));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toContain('no-store');
    // Through the app's payout providers: with no keys configured, the embedded one, which takes it and settles later.
    expect(res.json()).toEqual({ success: true, run: { period: current, created: 1, skipped: 0, submitted: 1, processing: 1, paid: 0, failed: 0, waiting: 0, errors: 0 } });
    expect((await payoutsOf(c)).map((p) => [p.period, p.amount_cents, p.status])).toEqual([[current, 7000, 'processing']]);
    // It settles on its clock and reports through the PayPal-format webhook, which applies the outcome once.
    const settledAt = new Date(Date.now() + 30 * 86_400_000);
    expect(await t.app.payoutProviders.embedded.tick(settledAt)).toBe(1);
    const [paid] = await payoutsOf(c);
    expect(paid).toMatchObject({ status: 'paid', payout_date: settledAt.toISOString().slice(0, 10) });
    expect((await userRow(c)).last_payout_date).toBe(settledAt.toISOString().slice(0, 10));
    expect((await mailsTo(c)).map((m) => m.template)).toEqual(['payout-paid']);
    await balanced(c);
    // Again: nothing more for the period.
    expect((await post(current.slice(0, 7))).json().run).toMatchObject({ created: 0, submitted: 0 });

    const early = await post(nextPeriod(current).slice(0, 7));
    expect(early.statusCode).toBe(400);
    expect(early.json()).toEqual({ success: false, error: PAYOUT_RUN_MESSAGES.notDue, code: 'VALIDATION_FAILED' });
    for (const bad of ['2026-13', '2026-1', '26-11', '2026-11-01', '']) {
      const r = await post(bad);
      expect(r.statusCode, bad).toBe(400);
      expect(r.json().code).toBe('VALIDATION_FAILED');
    }
    expect((await (await signedIn(false))(current.slice(0, 7))).statusCode).toBe(403);
  });
});

describe('the monthly job', () => {
  it("is queued once per period for its 1st at 00:00 UTC, runs the period's payouts and queues the next month's", async () => {
    const now = new Date();
    const current = periodAt(now);
    const next = nextPeriod(current);
    await ensurePayoutSchedule(t.db, now);
    await ensurePayoutSchedule(t.db, now);
    expect(await schedulePayoutRun(t.db, next)).toBe(false);
    const jobs = await t.db.selectFrom('jobs').select(['dedupe_key', 'run_after', 'status', 'payload']).where('kind', '=', 'payouts.run').orderBy('run_after').execute();
    expect(jobs.map((j) => [j.dedupe_key, j.run_after.toISOString(), j.status, j.payload])).toEqual([
      [`payouts.run:${current}`, `${current}T00:00:00.000Z`, 'queued', { period: current }],
      [`payouts.run:${next}`, `${next}T00:00:00.000Z`, 'queued', { period: next }],
    ]);

    const c = await creator();
    await earn(t.db, c, 10_000, new Date(Date.parse(`${current}T00:00:00Z`) - 20 * 86_400_000));
    // This month's run is due (next month's is not yet): the runner takes it.
    expect(await t.app.jobs.runDue()).toBe(1);
    const after = await t.db.selectFrom('jobs').select(['dedupe_key', 'status']).where('kind', '=', 'payouts.run').orderBy('run_after').execute();
    expect(after).toEqual([
      { dedupe_key: `payouts.run:${current}`, status: 'done' },
      { dedupe_key: `payouts.run:${next}`, status: 'queued' },
    ]);
    expect((await payoutsOf(c)).map((p) => [p.period, p.amount_cents])).toEqual([[current, 7000]]);
  });

  it('is queued by a serving app as it starts, so an empty jobs table gets its schedule back', async () => {
    await t.db.deleteFrom('jobs').where('kind', '=', 'payouts.run').execute();
    const serving = await buildApp(
      { config: t.config, database: t.database, storage: t.storage, catalogue: t.app.catalogue, sealedValues: t.sealedValues, ownsDatabase: false },
      { jobs: true, mail: false, payments: false, printShop: false },
    );
    try {
      const current = periodAt(new Date());
      const keys = await t.db.selectFrom('jobs').select('dedupe_key').where('kind', '=', 'payouts.run').orderBy('run_after').execute();
      expect(keys.map((k) => k.dedupe_key)).toEqual([`payouts.run:${current}`, `payouts.run:${nextPeriod(current)}`]);
    } finally {
      await serving.close();
    }
  });
});
