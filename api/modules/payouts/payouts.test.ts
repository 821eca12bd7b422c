/**
 * Payouts: the methods on offer per country (get_user_payment_methods) and the signed-in
 * creator's payment setup, with the spec's validation messages. Bank numbers are looked for in
 * every reply, every column of the creator's row and the request log: only their last 4 digits
 * may appear, and the sealed values open for their own user only.
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { rm } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PAYOUT_MESSAGES, type SavePayoutMethodBody } from '../../../shared/schemas/payouts.ts';
import { buildApp, serverOptions } from '../../app.ts';
import { openStorage } from '../../integrations/s3/index.ts';
import { createSession, SESSION_COOKIE } from '../../platform/sessions/sessions.ts';
import { ORIGIN } from '../../test/browser.ts';
import { freshDatabase, NO_BACKGROUND, testApp, testConfig, type TestApp, type TestDatabase } from '../../test/harness.ts';
import { EMPTY_PAYOUT_SETUP } from '../../test/payout-support.ts';
import { signedInCreator } from '../../test/upload-helpers.ts';
import { createUser } from '../accounts/index.ts';
import { readCatalogue } from '../merch/index.ts';
import { bankAccountOf, payoutSetupOf } from './index.ts';
import { payoutSetup, savePayoutMethod, saveTaxInfo } from './service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => t?.close());

type Me = Awaited<ReturnType<typeof signedInCreator>>;
let counter = 0;
const creator = () => signedInCreator(t, `payee${++counter}`);

const as = (me: Me | null, opts: InjectOptions) =>
  t.app.inject({ ...opts, headers: { ...(me?.headers ?? { origin: ORIGIN, host: 'localhost:3000' }), ...(opts.headers as object) }, ...(me ? { cookies: me.cookies } : {}) });
const getSetup = (me: Me | null) => as(me, { method: 'GET', url: '/api/payouts/setup' });
const saveMethod = (me: Me | null, body: SavePayoutMethodBody | Record<string, unknown>) => as(me, { method: 'PUT', url: '/api/payouts/method', payload: body });
const saveTax = (me: Me | null, email: string) => as(me, { method: 'PUT', url: '/api/payouts/tax-info', payload: { email } });
const methods = (country: string) => t.app.inject({ method: 'GET', url: `/api/payment-methods?country=${country}` });

const userRow = (id: string) => t.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

const ach = (over: Partial<Extract<SavePayoutMethodBody, { method: 'ach' }>> = {}): SavePayoutMethodBody => ({
  method: 'ach',
  routing_number: '021000021',
  account_number: '000123456789',
  holder_name: 'Pat Payee',
  account_type: 'checking',
  ...over,
});

function refusedWith(res: LightMyRequestResponse, message: string) {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json()).toEqual({ success: false, error: message, code: 'VALIDATION_FAILED' });
}

/** Every column of the row, as text, for looking a number up in. */
async function rowText(id: string): Promise<string[]> {
  const row = await userRow(id);
  return Object.values(row).map((v) => (v instanceof Date ? v.toISOString() : String(v)));
}

describe('GET /api/payment-methods', () => {
  it('offers PayPal, ACH and Stripe Connect in the US, in order, with fees as a percentage', async () => {
    const res = await methods('US');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      methods: [
        {
          method_name: 'paypal',
          display_name: 'PayPal Business',
          description: 'Paid to your PayPal business account.',
          fees_percentage: 2.9,
          fees_fixed_cents: 30,
          processing_time_days: 1,
          min_payout_cents: 5000,
          is_available: true,
        },
        {
          method_name: 'ach',
          display_name: 'Direct Bank Transfer',
          description: 'ACH transfer to a US checking or savings account.',
          fees_percentage: 0.5,
          fees_fixed_cents: 25,
          processing_time_days: 3,
          min_payout_cents: 5000,
          is_available: true,
        },
        {
          method_name: 'stripe_connect',
          display_name: 'Stripe Connect',
          description: 'Paid through a Stripe Connect account.',
          fees_percentage: 2.9,
          fees_fixed_cents: 30,
          processing_time_days: 2,
          min_payout_cents: 2500,
          is_available: true,
        },
      ],
    });
  });

  it.each([
    ['US', ['paypal', 'ach', 'stripe_connect']],
    ['FR', ['paypal', 'stripe_connect']],
    ['CA', ['paypal', 'stripe_connect']],
    ['GB', ['paypal', 'stripe_connect']],
    ['AU', ['paypal', 'stripe_connect']],
    ['DE', ['paypal', 'stripe_connect']],
    ['JP', ['paypal']],
  ])('%s gets %j', async (country, expected) => {
    const res = await methods(country);
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json().methods as { method_name: string }[]).map((m) => m.method_name)).toEqual(expected);
  });

  it('hides a method that is not available', async () => {
    await t.db.updateTable('payment_method_options').set({ is_available: false }).where('method_name', '=', 'ach').execute();
    try {
      expect((await methods('US')).json().methods.map((m: { method_name: string }) => m.method_name)).toEqual(['paypal', 'stripe_connect']);
    } finally {
      await t.db.updateTable('payment_method_options').set({ is_available: true }).where('method_name', '=', 'ach').execute();
    }
  });

  it('needs no sign-in, and refuses a country that is not two capital letters', async () => {
    expect((await methods('JP')).statusCode).toBe(200);
    for (const bad of ['us', 'USA', '1A', '']) {
      const res = await methods(bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/payment-methods' })).statusCode).toBe(400);
  });
});

describe('who may use the payment setup', () => {
  it('answers 401 signed out and 403 to a customer, and changes nothing', async () => {
    const customer = await createUser(t.db, { email: 'shopper@example.com', displayName: 'Shopper', role: 'customer', emailVerified: true });
    const { token } = await createSession(t.db, customer.id, 1, {});
    const shopper = { user: customer, cookies: { [SESSION_COOKIE]: token }, headers: { origin: ORIGIN, host: 'localhost:3000' } } as unknown as Me;
    const before = await userRow(customer.id);
    for (const [who, status, code] of [
      [null, 401, 'UNAUTHENTICATED'],
      [shopper, 403, 'FORBIDDEN'],
    ] as const) {
      for (const res of [await getSetup(who), await saveMethod(who, { method: 'paypal', paypal_email: 'x@example.com' }), await saveTax(who, 'x@example.com')]) {
        expect(res.statusCode, res.body).toBe(status);
        expect(res.json()).toMatchObject({ success: false, code });
      }
    }
    expect(await userRow(customer.id)).toEqual(before);
  });
});

describe('GET /api/payouts/setup', () => {
  it("is empty for a new creator: nothing chosen, payouts off, the $50 threshold", async () => {
    const me = await creator();
    const res = await getSetup(me);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toContain('no-store');
    expect(res.json()).toEqual({
      success: true,
      setup: EMPTY_PAYOUT_SETUP,
    });
  });
});

describe('PUT /api/payouts/method: validation', () => {
  let me: Me;
  let before: unknown;
  beforeAll(async () => {
    me = await creator();
  });
  beforeEach(async () => {
    before = await userRow(me.user.id);
  });
  /** A refusal leaves the row as it was. */
  const unchanged = async () => expect(await userRow(me.user.id)).toEqual(before);

  it.each(['', '   ', 'not-an-email', 'name@', '@example.com', 'name@example', 'two words@example.com', 'a@b@example.com'])(
    'PayPal email %j: %s',
    async (email) => {
      refusedWith(await saveMethod(me, { method: 'paypal', paypal_email: email }), PAYOUT_MESSAGES.paypalEmail);
      await unchanged();
    },
  );

  // '123456789' and '021000022' are 9 digits whose ABA check digit is wrong (a mistyped digit).
  it.each(['', '12345678', '1234567890', '123456789', '021000022', '02100002a', '021.000.021', '021_000_021', '０２１０００021', '021000021x'])('routing number %j', async (routing) => {
    refusedWith(await saveMethod(me, ach({ routing_number: routing })), PAYOUT_MESSAGES.routingNumber);
    await unchanged();
  });

  it.each(['', '123', '1 2 3', 'abcd', '1234.5678', '12345678901234567x', '123456789012345678'])('account number %j', async (account) => {
    refusedWith(await saveMethod(me, ach({ account_number: account })), PAYOUT_MESSAGES.accountNumber);
    await unchanged();
  });

  it('refuses bank numbers sent as JSON numbers, which would lose digits on the way to text', async () => {
    // Sent as raw JSON, as a client that writes the number itself would (a JavaScript number could not hold it).
    const raw = JSON.stringify({ ...ach(), account_number: 0 }).replace('"account_number":0', '"account_number":98765432109876543');
    refusedWith(await as(me, { method: 'PUT', url: '/api/payouts/method', payload: raw, headers: { 'content-type': 'application/json' } }), PAYOUT_MESSAGES.accountNumber);
    refusedWith(await saveMethod(me, { ...ach(), account_number: 12345678 }), PAYOUT_MESSAGES.accountNumber);
    refusedWith(await saveMethod(me, { ...ach(), routing_number: 21000021 }), PAYOUT_MESSAGES.routingNumber);
    await unchanged();
  });

  it.each(['', '   ', '\t\n'])('holder name %j', async (name) => {
    refusedWith(await saveMethod(me, ach({ holder_name: name })), PAYOUT_MESSAGES.holderName);
    await unchanged();
  });

  it('checks the ACH fields in the spec order: routing number, account number, holder name', async () => {
    refusedWith(await saveMethod(me, ach({ routing_number: '1', account_number: '1', holder_name: '' })), PAYOUT_MESSAGES.routingNumber);
    refusedWith(await saveMethod(me, ach({ account_number: '1', holder_name: '' })), PAYOUT_MESSAGES.accountNumber);
    await unchanged();
  });

  it('refuses an account type other than checking or savings', async () => {
    const res = await saveMethod(me, { ...ach(), account_type: 'business' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
    await unchanged();
  });

  it.each(['', 'nope', 'stripe@', 'a b@example.com'])('Stripe Connect email %j', async (email) => {
    refusedWith(await saveMethod(me, { method: 'stripe_connect', email }), PAYOUT_MESSAGES.stripeEmail);
    await unchanged();
  });

  it('refuses an unknown method', async () => {
    const res = await saveMethod(me, { method: 'bitcoin', wallet: 'bc1qxyz' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
    await unchanged();
  });

  it('refuses a method that is not available just now', async () => {
    await t.db.updateTable('payment_method_options').set({ is_available: false }).where('method_name', '=', 'paypal').execute();
    try {
      refusedWith(await saveMethod(me, { method: 'paypal', paypal_email: 'fine@example.com' }), PAYOUT_MESSAGES.methodUnavailable);
      await unchanged();
    } finally {
      await t.db.updateTable('payment_method_options').set({ is_available: true }).where('method_name', '=', 'paypal').execute();
    }
  });
});

describe('PUT /api/payouts/method: saving', () => {
  it('PayPal: stores the email (trimmed), chooses PayPal and turns payouts on', async () => {
    const me = await creator();
    const res = await saveMethod(me, { method: 'paypal', paypal_email: '  pay.me@example.com ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toContain('no-store');
    expect(res.json()).toEqual({
      success: true,
      setup: expect.objectContaining({ preferred_payment_method: 'paypal', payout_enabled: true, paypal_email: 'pay.me@example.com', ach: null, stripe_connect: null }),
    });
    expect(await userRow(me.user.id)).toMatchObject({ preferred_payment_method: 'paypal', payout_enabled: true, paypal_email: 'pay.me@example.com' });
    expect((await getSetup(me)).json().setup).toEqual(res.json().setup);
  });

  it('ACH: seals both numbers for this user, keeps their last 4 digits, and the bank account is not yet verified', async () => {
    const me = await creator();
    await t.db.updateTable('users').set({ bank_account_verified: true }).where('id', '=', me.user.id).execute();
    const routing = '021000021';
    const account = '000123456789';
    const res = await saveMethod(me, ach({ routing_number: ' 021-000 021 ', account_number: '0001 2345-6789', holder_name: '  Pat Payee ', account_type: 'savings' }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      setup: expect.objectContaining({
        preferred_payment_method: 'ach',
        payout_enabled: true,
        ach: { routing_last4: '0021', account_last4: '6789', account_type: 'savings', holder_name: 'Pat Payee', verified: false },
      }),
    });
    expect(res.json().onboarding_url).toBeUndefined();

    const row = await userRow(me.user.id);
    expect(row).toMatchObject({
      preferred_payment_method: 'ach',
      payout_enabled: true,
      bank_account_verified: false,
      ach_routing_last4: '0021',
      ach_account_last4: '6789',
      ach_account_holder_name: 'Pat Payee',
      ach_account_type: 'savings',
    });
    // The numbers appear in no reply, and in no column of the row (the sealed values do not spell them).
    const setup = await getSetup(me);
    for (const body of [res.body, setup.body]) {
      for (const n of [routing, account, '123456789']) expect(body).not.toContain(n);
    }
    for (const value of await rowText(me.user.id)) {
      expect(value).not.toContain(routing);
      expect(value).not.toContain(account);
    }
    // Each sealed value opens to its number for this user, and for nobody else.
    const other = await creator();
    expect(t.app.sealedValues.open(row.ach_routing_number_encrypted!, me.user.id)).toBe(routing);
    expect(t.app.sealedValues.open(row.ach_account_number_encrypted!, me.user.id)).toBe(account);
    expect(() => t.app.sealedValues.open(row.ach_routing_number_encrypted!, other.user.id)).toThrow();
    expect(() => t.app.sealedValues.open(row.ach_account_number_encrypted!, other.user.id)).toThrow();
    // The two numbers are sealed apart (a fresh nonce each), so equal numbers never look equal.
    expect(row.ach_routing_number_encrypted).not.toBe(row.ach_account_number_encrypted);
    // What the payout run reads.
    expect(await bankAccountOf(t.db, t.app.sealedValues, me.user.id)).toEqual({ routingNumber: routing, accountNumber: account, holderName: 'Pat Payee', accountType: 'savings' });
    expect(await bankAccountOf(t.db, t.app.sealedValues, other.user.id)).toBeUndefined();
    expect(await payoutSetupOf(t.db, me.user.id)).toEqual(setup.json().setup);
  });

  it('ACH copied to another user\'s row does not open for them', async () => {
    const [me, other] = [await creator(), await creator()];
    expect((await saveMethod(me, ach({ account_number: '55554444' }))).statusCode).toBe(200);
    const row = await userRow(me.user.id);
    await t.db
      .updateTable('users')
      .set({
        ach_routing_number_encrypted: row.ach_routing_number_encrypted,
        ach_routing_last4: row.ach_routing_last4,
        ach_account_number_encrypted: row.ach_account_number_encrypted,
        ach_account_last4: row.ach_account_last4,
        ach_account_holder_name: row.ach_account_holder_name,
        ach_account_type: row.ach_account_type,
      })
      .where('id', '=', other.user.id)
      .execute();
    await expect(bankAccountOf(t.db, t.app.sealedValues, other.user.id)).rejects.toThrow();
  });

  it('Stripe Connect: stores the email and the account, the connection is pending, and answers the onboarding link', async () => {
    const me = await creator();
    const res = await saveMethod(me, { method: 'stripe_connect', email: ' connect@example.com' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      onboarding_url: expect.stringMatching(/\/pay\/connect\/[A-Za-z0-9_-]{20,100}$/),
      setup: expect.objectContaining({ preferred_payment_method: 'stripe_connect', payout_enabled: true, stripe_connect: { email: 'connect@example.com', status: 'pending' } }),
    });
    expect(res.json().onboarding_url.startsWith(`${t.config.publicUrl}/pay/connect/`)).toBe(true);
    const row = await userRow(me.user.id);
    expect(row).toMatchObject({ stripe_connect_email: 'connect@example.com', stripe_connect_status: 'pending', payout_enabled: true });
    const account = await t.db.selectFrom('embedded_connect_accounts').selectAll().where('user_id', '=', me.user.id).executeTakeFirstOrThrow();
    expect(row.stripe_connect_account_id).toBe(account.id);
    expect(account).toMatchObject({ email: 'connect@example.com', status: 'pending' });
  });

  it('Stripe Connect: the onboarding page, completed as its form does, makes the setup active through account.updated', async () => {
    const me = await creator();
    const res = await saveMethod(me, { method: 'stripe_connect', email: 'onboard@example.com' });
    expect(res.statusCode, res.body).toBe(200);
    const path = new URL(res.json().onboarding_url).pathname;

    const page = await t.app.inject({ url: path });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.body).toContain('Complete onboarding');
    const form = /<form method="post" action="([^"]+)">\s*<input type="hidden" name="decision" value="complete">/.exec(page.body);
    expect(form?.[1]).toBe(path);

    const done = await t.app.inject({ method: 'POST', url: form![1]!, payload: 'decision=complete', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(done.statusCode, done.body).toBe(303);
    expect(done.headers.location).toBe(`${t.config.publicUrl}/payment-setup?connect=return`);
    await t.app.payoutProviders.embedded.tick();

    const event = await t.db
      .selectFrom('embedded_payout_events')
      .select(['delivered_at', 'last_error'])
      .where('type', '=', 'account.updated')
      .where(sql<boolean>`payload->>'account' = ${(await userRow(me.user.id)).stripe_connect_account_id}`)
      .executeTakeFirstOrThrow();
    expect(event).toMatchObject({ delivered_at: expect.any(Date), last_error: null });
    const setup = await getSetup(me);
    expect(setup.json().setup.stripe_connect).toEqual({ email: 'onboard@example.com', status: 'active' });
    expect(await userRow(me.user.id)).toMatchObject({ stripe_connect_status: 'active' });

    // Saving Stripe Connect again keeps the same account, already active, and answers a fresh link.
    const again = await saveMethod(me, { method: 'stripe_connect', email: 'onboard@example.com' });
    expect(again.json().onboarding_url).not.toBe(res.json().onboarding_url);
    expect(again.json().setup.stripe_connect).toEqual({ email: 'onboard@example.com', status: 'active' });
  });

  it('saving a method again replaces its details; the old numbers are gone', async () => {
    const me = await creator();
    expect((await saveMethod(me, ach({ routing_number: '011000015', account_number: '11112222' }))).statusCode).toBe(200);
    await t.db.updateTable('users').set({ bank_account_verified: true }).where('id', '=', me.user.id).execute();
    const res = await saveMethod(me, ach({ routing_number: '121000358', account_number: '9876543210', holder_name: 'New Name' }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().setup.ach).toEqual({ routing_last4: '0358', account_last4: '3210', account_type: 'checking', holder_name: 'New Name', verified: false });
    const row = await userRow(me.user.id);
    expect(t.app.sealedValues.open(row.ach_routing_number_encrypted!, me.user.id)).toBe('121000358');
    expect(t.app.sealedValues.open(row.ach_account_number_encrypted!, me.user.id)).toBe('9876543210');

    expect((await saveMethod(me, { method: 'paypal', paypal_email: 'first@example.com' })).statusCode).toBe(200);
    const again = await saveMethod(me, { method: 'paypal', paypal_email: 'second@example.com' });
    expect(again.json().setup).toMatchObject({ preferred_payment_method: 'paypal', paypal_email: 'second@example.com' });
    expect((await userRow(me.user.id)).paypal_email).toBe('second@example.com');
  });

  it("takes the chosen method's fields from a body that carries every form field (and ignores the rest)", async () => {
    const me = await creator();
    const everything = { paypal_email: 'other@example.com', email: 'connect@example.com', routing_number: '', account_number: '', holder_name: '', account_type: 'checking' };
    let res = await saveMethod(me, { ...everything, ...ach(), bank_account_verified: true, payout_enabled: false, stripe_connect_status: 'active' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().setup).toMatchObject({ preferred_payment_method: 'ach', payout_enabled: true, paypal_email: null, stripe_connect: null, ach: { verified: false } });
    res = await saveMethod(me, { ...everything, method: 'stripe_connect' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().setup).toMatchObject({ preferred_payment_method: 'stripe_connect', paypal_email: null, stripe_connect: { email: 'connect@example.com', status: 'pending' } });
    refusedWith(await saveMethod(me, { ...everything, method: 'paypal', paypal_email: 'nope' }), PAYOUT_MESSAGES.paypalEmail);
  });

  it('switching methods changes the preferred one and keeps the others\' details (shown as last 4 digits only)', async () => {
    const me = await creator();
    await saveMethod(me, { method: 'paypal', paypal_email: 'keep@example.com' });
    await saveMethod(me, ach());
    const res = await saveMethod(me, { method: 'stripe_connect', email: 'connect@example.com' });
    expect(res.json().setup).toEqual({
      preferred_payment_method: 'stripe_connect',
      payout_enabled: true,
      paypal_email: 'keep@example.com',
      ach: { routing_last4: '0021', account_last4: '6789', account_type: 'checking', holder_name: 'Pat Payee', verified: false },
      stripe_connect: { email: 'connect@example.com', status: 'pending' },
      tax_email: null,
      tax_info_verified: false,
      payout_threshold_cents: 5000,
    });
    expect(res.body).not.toContain('000123456789');
    expect(res.body).not.toContain('021000021');
  });

  it('answers User not found in database (404) when the row has gone', async () => {
    // Deleting a user takes their sessions with it, so over HTTP this is a 401; the service answers for the row.
    const missing = '00000000-0000-4000-8000-000000000000';
    const notFound = { statusCode: 404, code: 'NOT_FOUND', message: PAYOUT_MESSAGES.userNotFound };
    await expect(payoutSetup(t.db, missing)).rejects.toMatchObject(notFound);
    await expect(savePayoutMethod(t.db, t.app.sealedValues, missing, ach())).rejects.toMatchObject(notFound);
    await expect(saveTaxInfo(t.db, missing, 'tax@example.com')).rejects.toMatchObject(notFound);
    expect(await payoutSetupOf(t.db, missing)).toBeUndefined();
  });
});

describe('PUT /api/payouts/tax-info', () => {
  it('stores the payment email as tax_id, not yet verified, and leaves the method alone', async () => {
    const me = await creator();
    await saveMethod(me, { method: 'paypal', paypal_email: 'pay@example.com' });
    await t.db.updateTable('users').set({ tax_info_verified: true, tax_id: 'old@example.com' }).where('id', '=', me.user.id).execute();
    const res = await saveTax(me, ' tax.person@example.com ');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toContain('no-store');
    expect(res.json().setup).toMatchObject({ tax_email: 'tax.person@example.com', tax_info_verified: false, preferred_payment_method: 'paypal', paypal_email: 'pay@example.com' });
    expect(await userRow(me.user.id)).toMatchObject({ tax_id: 'tax.person@example.com', tax_info_verified: false, preferred_payment_method: 'paypal' });
  });

  it.each(['', '  ', 'not-an-email', 'a@b', 'a b@example.com'])('refuses %j with the email message, changing nothing', async (email) => {
    const me = await creator();
    const before = await userRow(me.user.id);
    refusedWith(await saveTax(me, email), PAYOUT_MESSAGES.taxEmail);
    expect(await userRow(me.user.id)).toEqual(before);
  });
});

describe('the request log', () => {
  const lines: string[] = [];
  let tdb: TestDatabase;
  let logged: Awaited<ReturnType<typeof buildApp>>;
  let dataDir: string;
  beforeAll(async () => {
    const config = await testConfig({ PUBLIC_URL: ORIGIN });
    dataDir = config.dataDir;
    tdb = await freshDatabase();
    const base = serverOptions('debug');
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    logged = await buildApp(
      { config, database: tdb.database, storage: await openStorage(config), catalogue: await readCatalogue(), ownsDatabase: false },
      NO_BACKGROUND,
      { ...base, logger: { ...(base.logger as object), stream } },
    );
  });
  afterAll(async () => {
    await logged?.close();
    await tdb?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('never holds a bank number, whether the save is taken or refused', async () => {
    const user = await createUser(tdb.database.db, { email: 'logged@example.com', displayName: 'Logged', role: 'creator', emailVerified: true });
    const { token } = await createSession(tdb.database.db, user.id, 1, {});
    const put = (payload: Record<string, unknown>) =>
      logged.inject({ method: 'PUT', url: '/api/payouts/method', payload, headers: { origin: ORIGIN, host: 'localhost:3000' }, cookies: { [SESSION_COOKIE]: token } });
    const routing = '026009593';
    const account = '4417129863';
    expect((await put(ach({ routing_number: routing, account_number: account }))).statusCode).toBe(200);
    expect((await put(ach({ routing_number: routing, account_number: `${account}x` }))).statusCode).toBe(400);
    expect((await put(ach({ routing_number: `${routing}9`, account_number: account }))).statusCode).toBe(400);
    expect((await put({ ...ach({ routing_number: routing, account_number: account }), account_type: 'business' })).statusCode).toBe(400);
    expect((await put({ ...ach({ routing_number: routing, account_number: account }), extra: routing })).statusCode).toBeLessThan(500);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.filter((l) => l.includes('/api/payouts/method')).length).toBeGreaterThanOrEqual(5);
    const log = lines.join('\n');
    expect(log).not.toContain(routing);
    expect(log).not.toContain(account);
  });
});
