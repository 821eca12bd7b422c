/**
 * The Stripe Connect adapter against a stand-in Stripe API (node:http, the stripe library
 * pointed at it): Express onboarding (accounts.create, accountLinks.create), transfers sent with
 * the payout's idempotency key as Stripe's Idempotency-Key (a repeated request answers the same
 * transfer), refusals; then Connect webhooks: Stripe's signature against several secrets within
 * 300 s, and each event type read into a connect status or a payout outcome.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signWebhookBody } from '../stripe/index.ts';
import { PayoutProviderError, PayoutWebhookError } from './errors.ts';
import type { PayoutRequest } from './provider.ts';
import { accountIdempotencyKey, connectOutcomeFromEvent, connectStatusOf, StripeConnectPayouts, verifyConnectWebhook } from './stripe-connect.ts';

interface Seen {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  form: URLSearchParams;
}

const fake = {
  seen: [] as Seen[],
  /** Stripe keeps the first answer to each idempotency key and gives it again. */
  answers: new Map<string, { status: number; json: unknown }>(),
  transfers: 0,
  accounts: new Set<string>(['acct_1Active0000000000']),
  failNext: null as { status: number; json: unknown } | null,
  reset() {
    this.seen = [];
    this.answers.clear();
    this.transfers = 0;
    this.failNext = null;
  },
};

let server: Server;
let port: number;

function send(res: ServerResponse, status: number, json: unknown) {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_test' });
  res.end(JSON.stringify(json));
}

function answer(req: IncomingMessage, form: URLSearchParams): { status: number; json: unknown } {
  if (req.headers.authorization !== 'Bearer sk_test_connect123') return { status: 401, json: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } } };
  if (fake.failNext) {
    const f = fake.failNext;
    fake.failNext = null;
    return f;
  }
  const path = req.url ?? '';
  if (path === '/v1/accounts') {
    const id = `acct_1New${String(fake.accounts.size).padStart(15, '0')}`;
    fake.accounts.add(id);
    return { status: 200, json: { id, object: 'account', type: form.get('type'), email: form.get('email'), metadata: { user_id: form.get('metadata[user_id]') } } };
  }
  if (path === '/v1/account_links') {
    return { status: 200, json: { object: 'account_link', url: `https://connect.stripe.com/setup/e/${form.get('account')}/abc`, expires_at: 1 } };
  }
  if (path === '/v1/transfers') {
    const destination = form.get('destination')!;
    if (!fake.accounts.has(destination)) {
      return { status: 400, json: { error: { type: 'invalid_request_error', code: 'resource_missing', param: 'destination', message: `No such destination: '${destination}'` } } };
    }
    fake.transfers++;
    return {
      status: 200,
      json: {
        id: `tr_${String(fake.transfers).padStart(20, '0')}`,
        object: 'transfer',
        amount: Number(form.get('amount')),
        currency: form.get('currency'),
        destination,
        metadata: Object.fromEntries([...form].filter(([k]) => k.startsWith('metadata[')).map(([k, v]) => [k.slice(9, -1), v])),
      },
    };
  }
  return { status: 404, json: { error: { type: 'invalid_request_error', message: 'Unrecognized request URL' } } };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      const key = req.headers['idempotency-key'] as string | undefined;
      fake.seen.push({ method: req.method ?? '', path: req.url ?? '', idempotencyKey: key, form });
      const remembered = key ? fake.answers.get(`${req.url} ${key}`) : undefined;
      const a = remembered ?? answer(req, form);
      if (key && !remembered && a.status < 500) fake.answers.set(`${req.url} ${key}`, a);
      send(res, a.status, a.json);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => fake.reset());

const SECRETS = ['whsec_connect_endpoint_secret', 'whsec_account_endpoint_secret'];
const adapter = () =>
  new StripeConnectPayouts({ secretKey: 'sk_test_connect123', webhookSecrets: SECRETS, host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 });

const request = (over: Partial<PayoutRequest> = {}): PayoutRequest => ({
  payoutId: '9d0b3c5e-1f2a-4b6c-8d7e-9f0a1b2c3d4e',
  idempotencyKey: '2a4b6c8d-0e1f-4a3b-9c5d-7e9f1a3b5c7d:2026-11-01',
  userId: '2a4b6c8d-0e1f-4a3b-9c5d-7e9f1a3b5c7d',
  period: '2026-11-01',
  amountCents: 4_321,
  currency: 'USD',
  destination: { method: 'stripe_connect', accountId: 'acct_1Active0000000000' },
  ...over,
});

describe('StripeConnectPayouts.submit', () => {
  it("sends a transfer to the creator's account, in cents, with the payout's idempotency key as Stripe's", async () => {
    const r = request();
    await expect(adapter().submit(r)).resolves.toEqual({ providerReference: 'tr_00000000000000000001', status: 'processing' });
    const sent = fake.seen.find((s) => s.path === '/v1/transfers')!;
    expect(sent.method).toBe('POST');
    expect(sent.idempotencyKey).toBe(r.idempotencyKey);
    expect(sent.form.get('amount')).toBe('4321');
    expect(sent.form.get('currency')).toBe('usd');
    expect(sent.form.get('destination')).toBe('acct_1Active0000000000');
    expect(sent.form.get('metadata[payout_id]')).toBe(r.payoutId);
    expect(sent.form.get('metadata[idempotency_key]')).toBe(r.idempotencyKey);
  });

  it('answers the same transfer to a repeated request: one transfer', async () => {
    const first = await adapter().submit(request());
    const again = await adapter().submit(request());
    expect(again).toEqual(first);
    expect(fake.transfers).toBe(1);
    expect(new Set(fake.seen.filter((s) => s.path === '/v1/transfers').map((s) => s.idempotencyKey)).size).toBe(1);
  });

  it("fails the payout when Stripe refuses the transfer for the account's sake", async () => {
    const s = await adapter().submit(request({ destination: { method: 'stripe_connect', accountId: 'acct_1Gone00000000000000' } }));
    expect(s).toMatchObject({ status: 'failed' });
    expect(s.failureReason).toMatch(/No such destination/);
  });

  it("throws (to try again with the same key) when Stripe is down or the platform's balance is short", async () => {
    fake.failNext = { status: 500, json: { error: { type: 'api_error', message: 'Something went wrong' } } };
    await expect(adapter().submit(request())).rejects.toBeInstanceOf(PayoutProviderError);
    fake.failNext = { status: 400, json: { error: { type: 'invalid_request_error', code: 'balance_insufficient', message: 'You have insufficient funds in your Stripe account.' } } };
    await expect(adapter().submit(request({ idempotencyKey: 'x:2026-11-01' }))).rejects.toBeInstanceOf(PayoutProviderError);
  });
});

describe('StripeConnectPayouts.createOnboarding', () => {
  it('makes an Express account with the email and the user id, then an onboarding link', async () => {
    const o = await adapter().createOnboarding('user-1', 'creator@example.com', 'https://fm.example/payment-setup?connect=return', {
      refreshUrl: 'https://fm.example/payment-setup?connect=refresh',
    });
    expect(o.accountId).toMatch(/^acct_1New/);
    expect(o.url).toBe(`https://connect.stripe.com/setup/e/${o.accountId}/abc`);
    const created = fake.seen.find((s) => s.path === '/v1/accounts')!;
    expect(created.form.get('type')).toBe('express');
    expect(created.form.get('email')).toBe('creator@example.com');
    expect(created.form.get('metadata[user_id]')).toBe('user-1');
    expect(created.form.get('capabilities[transfers][requested]')).toBe('true');
    expect(created.idempotencyKey).toBe(accountIdempotencyKey('user-1', 'creator@example.com'));
    const link = fake.seen.find((s) => s.path === '/v1/account_links')!;
    expect(Object.fromEntries(link.form)).toEqual({
      account: o.accountId,
      type: 'account_onboarding',
      return_url: 'https://fm.example/payment-setup?connect=return',
      refresh_url: 'https://fm.example/payment-setup?connect=refresh',
    });
  });

  it('makes only a new link for an account the creator already has', async () => {
    const o = await adapter().createOnboarding('user-1', 'creator@example.com', 'https://fm.example/r', { accountId: 'acct_1Active0000000000' });
    expect(o.accountId).toBe('acct_1Active0000000000');
    expect(fake.seen.map((s) => s.path)).toEqual(['/v1/account_links']);
  });

  it('keys the account by user and email, whatever the case of the email', () => {
    expect(accountIdempotencyKey('u', 'A@Example.com ')).toBe(accountIdempotencyKey('u', 'a@example.com'));
    expect(accountIdempotencyKey('u', 'a@example.com')).not.toBe(accountIdempotencyKey('u', 'b@example.com'));
    expect(accountIdempotencyKey('u', 'a@example.com')).not.toBe(accountIdempotencyKey('v', 'a@example.com'));
  });
});

const event = (type: string, object: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  id: `evt_${type.replace('.', '_')}_1`,
  object: 'event',
  api_version: '2025-01-27.acacia',
  created: 1_800_000_000,
  type,
  livemode: false,
  data: { object },
  ...extra,
});

const META = { payout_id: 'p-1', idempotency_key: 'user:2026-11-01', user_id: 'user' };

describe('Connect webhooks', () => {
  it("are taken when signed with any of the configured secrets, within 300 s either way", () => {
    const body = JSON.stringify(event('transfer.created', { id: 'tr_1', object: 'transfer', amount: 100, amount_reversed: 0, metadata: META }));
    const now = 1_800_000_000_000;
    for (const secret of SECRETS) {
      expect(verifyConnectWebhook(Buffer.from(body), signWebhookBody(body, secret, now / 1000), SECRETS, now).id).toBe('evt_transfer_created_1');
    }
    const refuse = (header: string | undefined) => () => verifyConnectWebhook(Buffer.from(body), header, SECRETS, now);
    expect(refuse(signWebhookBody(body, 'whsec_someone_else', now / 1000))).toThrow(PayoutWebhookError);
    expect(refuse(signWebhookBody(body, SECRETS[0]!, now / 1000 - 301))).toThrow(PayoutWebhookError);
    expect(refuse(signWebhookBody(body, SECRETS[0]!, now / 1000 + 301))).toThrow(PayoutWebhookError);
    expect(refuse(undefined)).toThrow(PayoutWebhookError);
    expect(() => verifyConnectWebhook(Buffer.from(body.replace('100', '999')), signWebhookBody(body, SECRETS[0]!, now / 1000), SECRETS, now)).toThrow(PayoutWebhookError);
  });

  it("read account.updated as the creator's connect status", () => {
    const account = (fields: Record<string, unknown>) => connectOutcomeFromEvent(event('account.updated', { id: 'acct_1X', object: 'account', metadata: { user_id: 'user' }, ...fields }, { account: 'acct_1X' }));
    expect(account({ details_submitted: true, payouts_enabled: true, capabilities: { transfers: 'active' } })).toEqual({
      kind: 'account',
      update: { eventId: 'evt_account_updated_1', accountId: 'acct_1X', userId: 'user', status: 'active', occurredAt: new Date(1_800_000_000_000) },
    });
    const status = (fields: Record<string, unknown>) => (account(fields) as { update: { status: string } }).update.status;
    expect(status({ details_submitted: true, payouts_enabled: false, requirements: { disabled_reason: 'requirements.past_due' } })).toBe('restricted');
    expect(status({ details_submitted: true, payouts_enabled: true, capabilities: { transfers: 'inactive' } })).toBe('restricted');
    expect(status({ details_submitted: false, payouts_enabled: false })).toBe('pending');
    expect(status({ details_submitted: true, payouts_enabled: false, requirements: { disabled_reason: 'rejected.fraud' } })).toBe('disabled');
    expect(connectStatusOf({})).toBe('pending');
  });

  it('read transfer.created as paid and a full transfer.reversed as failed, by the idempotency key in the metadata', () => {
    const transfer = (fields: Record<string, unknown>) => ({ id: 'tr_1', object: 'transfer', amount: 4321, amount_reversed: 0, metadata: META, ...fields });
    expect(connectOutcomeFromEvent(event('transfer.created', transfer({})))).toEqual({
      kind: 'payout',
      event: { eventId: 'evt_transfer_created_1', providerReference: 'tr_1', idempotencyKey: 'user:2026-11-01', status: 'paid', occurredAt: new Date(1_800_000_000_000) },
    });
    expect(connectOutcomeFromEvent(event('transfer.reversed', transfer({ amount_reversed: 4321, reversed: true })))).toMatchObject({
      kind: 'payout',
      event: { status: 'failed', providerReference: 'tr_1', failureReason: 'The transfer was reversed' },
    });
    // A partial reversal still paid the rest.
    expect(connectOutcomeFromEvent(event('transfer.reversed', transfer({ amount_reversed: 100 })))).toMatchObject({ kind: 'ignored' });
    // A transfer the payouts did not make.
    expect(connectOutcomeFromEvent(event('transfer.created', transfer({ metadata: {} })))).toMatchObject({ kind: 'ignored' });
    expect(connectOutcomeFromEvent(event('transfer.updated', transfer({})))).toMatchObject({ kind: 'ignored' });
  });

  it("read a connected account's payout.paid / payout.failed when its metadata names one of ours", () => {
    const payout = (fields: Record<string, unknown>) => ({ id: 'po_1', object: 'payout', amount: 4321, metadata: { ...META, transfer_id: 'tr_1' }, ...fields });
    expect(connectOutcomeFromEvent(event('payout.paid', payout({}), { account: 'acct_1X' }))).toMatchObject({ kind: 'payout', event: { status: 'paid', providerReference: 'tr_1' } });
    expect(connectOutcomeFromEvent(event('payout.failed', payout({ failure_message: 'The bank account has been closed.' })))).toMatchObject({
      kind: 'payout',
      event: { status: 'failed', failureReason: 'The bank account has been closed.' },
    });
    expect(connectOutcomeFromEvent(event('payout.paid', payout({ metadata: {} })))).toMatchObject({ kind: 'ignored' });
    expect(connectOutcomeFromEvent(event('charge.succeeded', { id: 'ch_1', object: 'charge' }))).toEqual({ kind: 'ignored', eventId: 'evt_charge_succeeded_1', type: 'charge.succeeded' });
  });

  it('refuse what is not a Stripe event', () => {
    for (const bad of [{}, { id: 'evt_1', type: 'account.updated' }, { id: 'evt_1', type: 'account.updated', data: { object: {} } }]) {
      expect(() => connectOutcomeFromEvent(bad)).toThrow(PayoutWebhookError);
    }
  });
});
