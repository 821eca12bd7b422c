/**
 * The embedded payout provider as a working system, with the app's real webhook routes: its
 * state (one payout per idempotency key, destinations without bank numbers), settling on its
 * clock, failing on request (reserved test addresses, the failing test account number), and
 * delivering signed PayPal-format and Stripe-format events that /api/webhooks/paypal-payouts and
 * /api/webhooks/stripe-connect verify and apply (once). Forged or changed events are refused
 * with 400 and change nothing. Then the Stripe Connect onboarding page, and ACH by NACHA file:
 * entries recorded with their numbers sealed, the period's file, and the admin's confirmation.
 *
 * The app's own embedded provider runs no clock in tests; this file drives a second instance on
 * the same database, as a second process would be, whose events reach the app through inject().
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../modules/accounts/index.ts';
import { applyPayoutEvent } from '../../modules/payouts/index.ts';
import { testApp, type TestApp } from '../../test/harness.ts';
import { confirmNachaUpload, nachaFileFor, NachaPayouts } from './ach.ts';
import { CONNECT_ONBOARDING_PATH, EmbeddedPayouts, FAILING_TEST_ACCOUNT_NUMBER } from './embedded.ts';
import type { NachaOrigin } from './nacha.ts';
import { signEmbeddedPayPalWebhook } from './paypal.ts';
import { embeddedPayoutSecrets, PAYPAL_PAYOUTS_WEBHOOK_PATH, STRIPE_CONNECT_WEBHOOK_PATH } from './plugin.ts';
import type { PayoutDestination, PayoutRequest } from './provider.ts';
import { signWebhookBody } from '../stripe/index.ts';

const PERIOD = '2026-11-01';
const SETTLE_MS = 1000;
let t: TestApp;
let twin: EmbeddedPayouts;
let secrets: { paypalSecret: string; stripeSecret: string };
const posted: { url: string; status: number; body: string }[] = [];

async function post(url: string, body: string, headers: Record<string, string>) {
  const res = await t.app.inject({ method: 'POST', url, payload: body, headers: { 'content-type': 'application/json', ...headers } });
  posted.push({ url, status: res.statusCode, body: res.body });
  return { statusCode: res.statusCode, body: res.body };
}

beforeAll(async () => {
  t = await testApp();
  secrets = await embeddedPayoutSecrets(t.db);
  twin = new EmbeddedPayouts(t.db, {
    publicUrl: t.config.publicUrl,
    settleMs: SETTLE_MS,
    ...secrets,
    deliver: {
      paypal: (body, headers) => post(PAYPAL_PAYOUTS_WEBHOOK_PATH, body, headers),
      stripe: (body, signature) => post(STRIPE_CONNECT_WEBHOOK_PATH, body, { 'stripe-signature': signature }),
      ach: (event) => applyPayoutEvent({ db: t.db }, event),
    },
  });
});
afterAll(async () => {
  await twin?.stop();
  await t?.close();
});

let n = 0;
/** A creator with a payout for the period, as the run leaves it after submitting: processing. */
async function creatorWithPayout(method: PayoutDestination['method'], amountCents = 12_345) {
  n++;
  const user = await createUser(t.db, { email: `payee${n}@example.com`, displayName: `Payee ${n}`, role: 'creator', emailVerified: true });
  const payout = await t.db
    .insertInto('payouts')
    .values({ user_id: user.id, amount_cents: amountCents, fee_cents: 0, method, period: PERIOD, payout_date: '2026-12-01', status: 'processing' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { userId: user.id, payoutId: payout.id, key: `${user.id}:${PERIOD}` };
}

function requestFor(p: { userId: string; payoutId: string; key: string }, destination: PayoutDestination, amountCents = 12_345): PayoutRequest {
  return { payoutId: p.payoutId, idempotencyKey: p.key, userId: p.userId, period: PERIOD, amountCents, currency: 'USD', destination };
}

async function payoutStatus(payoutId: string) {
  return (await t.db.selectFrom('payouts').select(['status', 'provider_reference']).where('id', '=', payoutId).executeTakeFirstOrThrow()).status;
}

const later = (ms: number) => new Date(Date.now() + ms);

describe('the embedded payout provider, PayPal', () => {
  it('keeps one payout per idempotency key, with the destination and no bank number', async () => {
    const p = await creatorWithPayout('paypal');
    const r = requestFor(p, { method: 'paypal', paypalEmail: 'payee@example.com' });
    const first = await twin.provider('paypal').submit(r);
    expect(first).toEqual({ providerReference: expect.stringMatching(/^[A-Z0-9]{13}$/), status: 'processing' });
    // Asked again (a retried run, a second process), with another amount even: the same payout.
    await expect(twin.provider('paypal').submit({ ...r, amountCents: 99_999 })).resolves.toEqual(first);
    const rows = await t.db.selectFrom('embedded_payouts').selectAll().where('idempotency_key', '=', p.key).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ method: 'paypal', amount_cents: 12_345, destination: 'payee@example.com', status: 'processing', outcome: 'paid' });
    expect(rows[0]!.settle_at.getTime() - rows[0]!.created_at.getTime()).toBeGreaterThan(SETTLE_MS - 500);
  });

  it('settles after its delay on the clock, and its signed PayPal-format events pay the payout through the app\'s route', async () => {
    const p = await creatorWithPayout('paypal');
    const { providerReference } = await twin.provider('paypal').submit(requestFor(p, { method: 'paypal', paypalEmail: 'paid@example.com' }));
    await t.db.updateTable('payouts').set({ provider_reference: providerReference }).where('id', '=', p.payoutId).execute();

    posted.length = 0;
    expect(await twin.tick(later(SETTLE_MS / 2))).toBe(0);
    expect(posted).toHaveLength(0);
    expect(await payoutStatus(p.payoutId)).toBe('processing');

    expect(await twin.tick(later(SETTLE_MS * 2))).toBeGreaterThanOrEqual(1);
    const mine = posted.filter((x) => x.url === PAYPAL_PAYOUTS_WEBHOOK_PATH);
    // The batch's SUCCESS decides nothing; the item's SUCCEEDED pays.
    expect(mine.map((x) => [x.status, JSON.parse(x.body).applied])).toEqual(expect.arrayContaining([[200, false], [200, true]]));
    expect(await payoutStatus(p.payoutId)).toBe('paid');
    expect((await twin.payout(p.key))!.status).toBe('paid');
    const undelivered = await t.db.selectFrom('embedded_payout_events').select('id').where('delivered_at', 'is', null).execute();
    expect(undelivered).toEqual([]);
  });

  it('takes a repeated event once: sent again, it changes nothing', async () => {
    const p = await creatorWithPayout('paypal');
    await twin.provider('paypal').submit(requestFor(p, { method: 'paypal', paypalEmail: 'twice@example.com' }));
    await twin.tick(later(SETTLE_MS * 2));
    expect(await payoutStatus(p.payoutId)).toBe('paid');
    const item = await t.db.selectFrom('embedded_payout_events').select('payload').where('type', '=', 'PAYMENT.PAYOUTS-ITEM.SUCCEEDED').orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    const body = JSON.stringify(item.payload);
    const mails = await t.db.selectFrom('email_outbox').select('id').execute();
    const again = await post(PAYPAL_PAYOUTS_WEBHOOK_PATH, body, signEmbeddedPayPalWebhook(body, secrets.paypalSecret));
    expect(again.statusCode).toBe(200);
    expect(JSON.parse(again.body)).toEqual({ received: true, applied: false });
    expect(await payoutStatus(p.payoutId)).toBe('paid');
    expect(await t.db.selectFrom('email_outbox').select('id').execute()).toHaveLength(mails.length);
  });

  it('fails on request, for an email at a reserved test domain, through a PAYMENT.PAYOUTS-ITEM.FAILED event', async () => {
    for (const email of ['nobody@example.invalid', 'creator@fail.example']) {
      const p = await creatorWithPayout('paypal');
      await twin.provider('paypal').submit(requestFor(p, { method: 'paypal', paypalEmail: email }));
      await twin.tick(later(SETTLE_MS * 2));
      expect(await payoutStatus(p.payoutId), email).toBe('failed');
      expect((await twin.payout(p.key))!.status).toBe('failed');
    }
    const failed = await t.db.selectFrom('embedded_payout_events').select(['payload']).where('type', '=', 'PAYMENT.PAYOUTS-ITEM.FAILED').execute();
    expect(failed.length).toBeGreaterThanOrEqual(2);
    expect((failed[0]!.payload as { resource: { errors: { name: string } } }).resource.errors.name).toBe('RECEIVER_UNREGISTERED');
  });

  it('refuses a forged or changed PayPal event with 400, and nothing changes', async () => {
    const p = await creatorWithPayout('paypal');
    const { providerReference } = await twin.provider('paypal').submit(requestFor(p, { method: 'paypal', paypalEmail: 'forged@example.com' }));
    const body = JSON.stringify({
      id: 'WH-FORGED-000000000000001',
      event_type: 'PAYMENT.PAYOUTS-ITEM.SUCCEEDED',
      create_time: new Date().toISOString(),
      resource: { payout_batch_id: providerReference, sender_batch_id: p.key, transaction_status: 'SUCCESS' },
    });
    const forged = await post(PAYPAL_PAYOUTS_WEBHOOK_PATH, body, signEmbeddedPayPalWebhook(body, 'not-the-key'));
    expect(forged.statusCode).toBe(400);
    expect(JSON.parse(forged.body).code).toBe('INVALID_SIGNATURE');
    const headers = signEmbeddedPayPalWebhook(body, secrets.paypalSecret);
    const changed = await post(PAYPAL_PAYOUTS_WEBHOOK_PATH, body.replace('SUCCEEDED', 'FAILED'), headers);
    expect(changed.statusCode).toBe(400);
    const stale = await post(PAYPAL_PAYOUTS_WEBHOOK_PATH, body, signEmbeddedPayPalWebhook(body, secrets.paypalSecret, Date.now() - 400_000));
    expect(stale.statusCode).toBe(400);
    // Without the embedded provider's algorithm the event is PayPal's to vouch for, and PayPal is not configured.
    const unsigned = await post(PAYPAL_PAYOUTS_WEBHOOK_PATH, body, {});
    expect(unsigned.statusCode).toBe(400);
    const notJson = await post(PAYPAL_PAYOUTS_WEBHOOK_PATH, '{"id":', headers);
    expect(notJson.statusCode).toBe(400);
    expect(JSON.parse(notJson.body).code).toBe('MALFORMED_REQUEST');
    const text = await t.app.inject({ method: 'POST', url: PAYPAL_PAYOUTS_WEBHOOK_PATH, payload: body, headers: { 'content-type': 'text/plain', ...headers } });
    expect(text.statusCode).toBe(415);
    expect(await payoutStatus(p.payoutId)).toBe('processing');
  });
});

describe('the embedded payout provider, Stripe Connect', () => {
  it('serves an onboarding page whose completion is announced as account.updated', async () => {
    const p = await creatorWithPayout('stripe_connect');
    const onboarding = await twin.createOnboarding(p.userId, 'connect@example.com', '/payment-setup?connect=return');
    expect(onboarding.accountId).toMatch(/^acct_[A-Za-z0-9]{16}$/);
    expect(onboarding.url.startsWith(`${t.config.publicUrl}${CONNECT_ONBOARDING_PATH}/`)).toBe(true);
    // A second call: the same account, a fresh link.
    const again = await twin.createOnboarding(p.userId, 'connect@example.com', '/payment-setup?connect=return');
    expect(again.accountId).toBe(onboarding.accountId);
    expect(again.url).not.toBe(onboarding.url);
    const path = new URL(again.url).pathname;

    expect((await t.app.inject({ url: new URL(onboarding.url).pathname })).statusCode).toBe(404);
    const page = await t.app.inject({ url: path });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain(onboarding.accountId);
    expect(page.body).toContain('Complete onboarding');
    expect((await t.app.inject({ url: '/pay/connect/assets/connect.css' })).statusCode).toBe(200);

    // Transfers to an account that has not finished onboarding are refused at once, as Stripe does.
    const early = await twin.provider('stripe_connect').submit(requestFor(p, { method: 'stripe_connect', accountId: onboarding.accountId }));
    expect(early.status).toBe('failed');

    const done = await t.app.inject({ method: 'POST', url: path, payload: 'decision=complete', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe('/payment-setup?connect=return');
    const account = await t.db.selectFrom('embedded_connect_accounts').selectAll().where('id', '=', onboarding.accountId).executeTakeFirstOrThrow();
    expect(account.status).toBe('active');
    const announced = await t.db.selectFrom('embedded_payout_events').select(['type', 'payload', 'delivered_at', 'last_error']).where('type', '=', 'account.updated').execute();
    expect(announced).toHaveLength(1);
    expect(announced[0]!.payload).toMatchObject({ type: 'account.updated', account: onboarding.accountId, data: { object: { id: onboarding.accountId, payouts_enabled: true } } });
    // The app's provider sent it to the route, which verified it (Stripe's signature), read it and
    // recorded the account's status on the creator.
    expect(announced[0]!.delivered_at).toBeInstanceOf(Date);
    expect(announced[0]!.last_error).toBeNull();

    const bad = await t.app.inject({ method: 'POST', url: path, payload: 'decision=maybe', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(bad.statusCode).toBe(400);
    expect((await t.app.inject({ url: path })).body).toContain('Onboarding complete');
  });

  it('settles a transfer to an onboarded account: transfer.created, Stripe-signed, pays the payout through the app\'s route', async () => {
    const p = await creatorWithPayout('stripe_connect');
    const { accountId, url } = await twin.createOnboarding(p.userId, 'transfers@example.com', '/payment-setup');
    await twin.finishOnboarding(new URL(url).pathname.split('/').pop()!, 'complete');
    const r = requestFor(p, { method: 'stripe_connect', accountId }, 4_321);
    const s = await twin.provider('stripe_connect').submit(r);
    expect(s).toEqual({ providerReference: expect.stringMatching(/^tr_test_/), status: 'processing' });
    await expect(twin.provider('stripe_connect').submit(r)).resolves.toEqual(s);
    await twin.tick(later(SETTLE_MS));
    expect((await twin.payout(p.key))!.status).toBe('processing');
    posted.length = 0;
    await twin.tick(later(SETTLE_MS * 3));
    expect(posted.filter((x) => x.url === STRIPE_CONNECT_WEBHOOK_PATH && x.status === 200).map((x) => JSON.parse(x.body))).toContainEqual({ received: true, applied: true });
    expect(await payoutStatus(p.payoutId)).toBe('paid');
    const event = await t.db.selectFrom('embedded_payout_events').select('payload').where('type', '=', 'transfer.created').executeTakeFirstOrThrow();
    expect(event.payload).toMatchObject({ data: { object: { id: s.providerReference, amount: 4_321, destination: accountId, metadata: { idempotency_key: p.key } } } });
  });

  it('fails on request for an account whose email is at a reserved test domain (transfer.reversed)', async () => {
    const p = await creatorWithPayout('stripe_connect');
    const { accountId, url } = await twin.createOnboarding(p.userId, 'creator@fail.example', '/payment-setup');
    await twin.finishOnboarding(new URL(url).pathname.split('/').pop()!, 'complete');
    await twin.provider('stripe_connect').submit(requestFor(p, { method: 'stripe_connect', accountId }));
    await twin.tick(later(SETTLE_MS * 3));
    expect(await payoutStatus(p.payoutId)).toBe('failed');
  });

  it('refuses a Stripe event signed with another secret, with 400, and nothing changes', async () => {
    const p = await creatorWithPayout('stripe_connect');
    const body = JSON.stringify({
      id: 'evt_forged_1',
      object: 'event',
      type: 'transfer.created',
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: 'tr_forged', object: 'transfer', amount: 12_345, metadata: { idempotency_key: p.key } } },
    });
    const forged = await post(STRIPE_CONNECT_WEBHOOK_PATH, body, { 'stripe-signature': signWebhookBody(body, 'whsec_not_ours') });
    expect(forged.statusCode).toBe(400);
    expect(JSON.parse(forged.body).code).toBe('INVALID_SIGNATURE');
    const unsigned = await post(STRIPE_CONNECT_WEBHOOK_PATH, body, {});
    expect(unsigned.statusCode).toBe(400);
    expect(await payoutStatus(p.payoutId)).toBe('processing');
    // The same event, signed with the embedded provider's secret, is taken.
    const signed = await post(STRIPE_CONNECT_WEBHOOK_PATH, body, { 'stripe-signature': signWebhookBody(body, secrets.stripeSecret) });
    expect(signed.statusCode).toBe(200);
    expect(await payoutStatus(p.payoutId)).toBe('paid');
  });
});

const bank = (accountNumber: string, routingNumber = '011000015') =>
  ({ method: 'ach', routingNumber, accountNumber, accountType: 'checking', holderName: 'Ada Lovelace' }) as const;

describe('the embedded payout provider, ACH', () => {
  it('keeps the last 4 digits only, settles after 3 processing days, and hands the outcome to the payouts module', async () => {
    const p = await creatorWithPayout('ach');
    await twin.provider('ach').submit(requestFor(p, bank('000123456789')));
    const row = (await twin.payout(p.key))!;
    expect(row.destination).toBe('checking account ending 6789');
    expect(JSON.stringify(row)).not.toContain('000123456789');
    await twin.tick(later(SETTLE_MS * 2));
    expect((await twin.payout(p.key))!.status).toBe('processing');
    await twin.tick(later(SETTLE_MS * 4));
    expect(await payoutStatus(p.payoutId)).toBe('paid');
  });

  it('returns the failing test account number, and refuses a routing number whose check digit is wrong at once', async () => {
    const p = await creatorWithPayout('ach');
    await twin.provider('ach').submit(requestFor(p, bank(FAILING_TEST_ACCOUNT_NUMBER)));
    await twin.tick(later(SETTLE_MS * 4));
    expect(await payoutStatus(p.payoutId)).toBe('failed');
    const q = await creatorWithPayout('ach');
    const refused = await twin.provider('ach').submit(requestFor(q, bank('000123456789', '011000016')));
    expect(refused.status).toBe('failed');
    expect(refused.failureReason).toMatch(/routing number/);
    expect(await twin.payout(q.key)).toBeUndefined();
  });
});

describe('ACH by NACHA file', () => {
  const origin: NachaOrigin = { immediateDestination: '021000021', immediateOrigin: '1987654321', companyName: 'FRAMEMERCH', companyId: '1987654321', odfi: '02100002' };
  const period = '2026-10-01';

  it('records each payout as an entry of its period, numbers sealed; the file has them all; the confirmation pays them once', async () => {
    const nacha = new NachaPayouts(t.db, { origin, sealer: t.sealedValues });
    const made = [];
    for (const [account, type] of [
      ['4444555566', 'checking'],
      ['77778888', 'savings'],
    ] as const) {
      const p = await creatorWithPayout('ach', 20_000);
      await t.db.updateTable('payouts').set({ period }).where('id', '=', p.payoutId).execute();
      const key = `${p.userId}:${period}`;
      const r: PayoutRequest = { ...requestFor({ ...p, key }, { ...bank(account), accountType: type }, 20_000), period };
      const s = await nacha.submit(r);
      expect(s).toEqual({ providerReference: expect.stringMatching(/^02100002\d{7}$/), status: 'processing' });
      await expect(nacha.submit(r)).resolves.toEqual(s);
      made.push({ ...p, key, account, trace: s.providerReference });
    }
    const rows = await t.db.selectFrom('nacha_entries').selectAll().execute();
    expect(rows).toHaveLength(2);
    for (const m of made) expect(JSON.stringify(rows)).not.toContain(m.account);
    expect(rows.map((r) => r.account_last4).sort()).toEqual(['5566', '8888']);

    const refused = await nacha.submit({ ...requestFor(made[0]!, bank('1234', '021000022')), idempotencyKey: 'other:2026-10-01', period });
    expect(refused.status).toBe('failed');

    const file = (await nachaFileFor(t.db, period, { origin, opener: t.sealedValues, createdAt: new Date(Date.UTC(2026, 9, 1, 9, 0)) }))!;
    expect(file).toMatchObject({ fileName: 'framemerch-payouts-2026-10.ach', entries: 2, totalCents: 40_000 });
    const records = file.content.trimEnd().split('\n');
    expect(records).toHaveLength(10);
    const entries = records.filter((r) => r.startsWith('6'));
    expect(entries.map((e) => e.slice(1, 3)).sort()).toEqual(['22', '32']);
    for (const m of made) expect(entries.some((e) => e.slice(12, 29) === m.account.padEnd(17) && e.slice(79) === m.trace)).toBe(true);
    expect(records[1]!.slice(63, 69)).toBe('OCT 26');
    expect(await nachaFileFor(t.db, '2026-09-01', { origin, opener: t.sealedValues })).toBeNull();

    const events = await confirmNachaUpload(t.db, period, (e) => applyPayoutEvent({ db: t.db }, e));
    expect(events.map((e) => [e.providerReference, e.status]).sort()).toEqual(made.map((m) => [m.trace, 'paid']).sort());
    for (const m of made) expect(await payoutStatus(m.payoutId)).toBe('paid');
    expect(await confirmNachaUpload(t.db, period, () => Promise.reject(new Error('nothing is left to confirm')))).toEqual([]);
    // Downloaded again after the upload, the file is the same payouts.
    expect((await nachaFileFor(t.db, period, { origin, opener: t.sealedValues }))!.entries).toBe(2);
  });
});
