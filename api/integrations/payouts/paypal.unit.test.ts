/**
 * The PayPal Payouts adapter against a stand-in PayPal (node:http on a free port) that checks
 * every request as PayPal would: the OAuth2 client-credentials token (asked for once, kept until
 * shortly before it expires), the payout batch (sender_batch_id = the idempotency key, one EMAIL
 * item in dollars from integer cents), the refusal of a repeated sender_batch_id (read as
 * 'already submitted' and looked up, so a retried request cannot pay twice), and the webhook
 * verification call. Then the reading of PayPal's webhook events, and the embedded provider's
 * PayPal-format signature going through the same parsing.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PayoutProviderError, PayoutWebhookError } from './errors.ts';
import {
  centsToDollars,
  embeddedPayPalVerifier,
  payoutEventFromPayPal,
  PayPalPayouts,
  receivePayPalWebhook,
  signEmbeddedPayPalWebhook,
} from './paypal.ts';
import type { PayoutRequest } from './provider.ts';

const CLIENT_ID = 'client-id-test';
const CLIENT_SECRET = 'client-secret-test';
const WEBHOOK_ID = '8PT597110X687430LKGECATA';

interface Batch {
  id: string;
  senderBatchId: string;
  body: Record<string, unknown>;
  itemStatus: string;
}

/** The stand-in PayPal and what it saw. */
const fake = {
  tokensIssued: 0,
  tokenLifetimeS: 32_400,
  /** Tokens PayPal no longer takes (answers 401). */
  revoked: new Set<string>(),
  batches: new Map<string, Batch>(),
  requests: [] as { method: string; path: string; headers: IncomingMessage['headers']; body: string }[],
  /** The next answer of POST /v1/payments/payouts, instead of the usual one. */
  nextPayoutAnswer: null as { status: number; json: unknown } | null,
  verifyCalls: [] as Record<string, unknown>[],
  reset() {
    this.tokensIssued = 0;
    this.tokenLifetimeS = 32_400;
    this.revoked.clear();
    this.batches.clear();
    this.requests = [];
    this.nextPayoutAnswer = null;
    this.verifyCalls = [];
  },
};

let server: Server;
let base: string;

function send(res: ServerResponse, status: number, json: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(json));
}

function handle(req: IncomingMessage, res: ServerResponse, body: string) {
  const path = req.url ?? '';
  fake.requests.push({ method: req.method ?? '', path, headers: req.headers, body });
  if (req.method === 'POST' && path === '/v1/oauth2/token') {
    const expected = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`;
    if (req.headers.authorization !== expected) return send(res, 401, { error: 'invalid_client', error_description: 'Client Authentication failed' });
    if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded') || body !== 'grant_type=client_credentials') {
      return send(res, 400, { error: 'unsupported_grant_type' });
    }
    fake.tokensIssued++;
    return send(res, 200, { scope: 'https://uri.paypal.com/payments/payouts', access_token: `A21AA-token-${fake.tokensIssued}`, token_type: 'Bearer', expires_in: fake.tokenLifetimeS });
  }
  const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  if (!bearer || !bearer.startsWith('A21AA-token-') || fake.revoked.has(bearer)) {
    return send(res, 401, { error: 'invalid_token', error_description: 'Token signature verification failed' });
  }
  if (req.method === 'POST' && path === '/v1/payments/payouts') {
    if (fake.nextPayoutAnswer) {
      const a = fake.nextPayoutAnswer;
      fake.nextPayoutAnswer = null;
      return send(res, a.status, a.json);
    }
    const payout = JSON.parse(body) as { sender_batch_header: { sender_batch_id: string }; items: unknown[] };
    const senderBatchId = payout.sender_batch_header.sender_batch_id;
    const existing = [...fake.batches.values()].find((b) => b.senderBatchId === senderBatchId);
    if (existing) {
      // PayPal's answer to a sender_batch_id used in the last 30 days: refused, with a link to the original.
      return send(res, 400, {
        name: 'USER_BUSINESS_ERROR',
        message: 'User business error.',
        debug_id: 'f0e1d2c3b4a59',
        information_link: 'https://developer.paypal.com/docs/api/payments.payouts-batch/#errors',
        details: [{ field: 'SENDER_BATCH_ID', location: 'body', issue: `Batch with given sender_batch_id already exists: ${senderBatchId}` }],
        links: [{ href: `${base}/v1/payments/payouts/${existing.id}`, rel: 'self', method: 'GET', encType: 'application/json' }],
      });
    }
    const id = `BATCH${String(fake.batches.size + 1).padStart(8, '0')}`;
    fake.batches.set(id, { id, senderBatchId, body: payout as unknown as Record<string, unknown>, itemStatus: 'PENDING' });
    return send(res, 201, {
      batch_header: { payout_batch_id: id, batch_status: 'PENDING', sender_batch_header: payout.sender_batch_header },
      links: [{ href: `${base}/v1/payments/payouts/${id}`, rel: 'self', method: 'GET' }],
    });
  }
  const get = /^\/v1\/payments\/payouts\/([A-Z0-9]+)$/.exec(path);
  if (req.method === 'GET' && get) {
    const b = fake.batches.get(get[1]!);
    if (!b) return send(res, 404, { name: 'INVALID_RESOURCE_ID' });
    const item = (b.body.items as Record<string, unknown>[])[0]!;
    return send(res, 200, {
      batch_header: { payout_batch_id: b.id, batch_status: b.itemStatus === 'PENDING' ? 'PROCESSING' : 'SUCCESS', sender_batch_header: { sender_batch_id: b.senderBatchId } },
      items: [{ payout_item_id: 'ITEM1', transaction_status: b.itemStatus, payout_batch_id: b.id, payout_item: item }],
    });
  }
  if (req.method === 'POST' && path === '/v1/notifications/verify-webhook-signature') {
    const v = JSON.parse(body) as Record<string, unknown>;
    fake.verifyCalls.push(v);
    const ok = v.webhook_id === WEBHOOK_ID && v.transmission_sig === 'signed-by-paypal' && v.auth_algo === 'SHA256withRSA' && typeof v.webhook_event === 'object';
    return send(res, 200, { verification_status: ok ? 'SUCCESS' : 'FAILURE' });
  }
  send(res, 404, { name: 'NOT_FOUND' });
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => fake.reset());

const adapter = (over: Partial<ConstructorParameters<typeof PayPalPayouts>[0]> = {}) =>
  new PayPalPayouts({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, webhookId: WEBHOOK_ID, apiBase: base, ...over });

const request = (over: Partial<PayoutRequest> = {}): PayoutRequest => ({
  payoutId: '0b6f7a52-7d3e-4c1a-9a55-3f1f6b0c2d11',
  idempotencyKey: '5d2c7b1e-8a44-4f0e-b1c2-d3e4f5a6b7c8:2026-11-01',
  userId: '5d2c7b1e-8a44-4f0e-b1c2-d3e4f5a6b7c8',
  period: '2026-11-01',
  amountCents: 12_345,
  currency: 'USD',
  destination: { method: 'paypal', paypalEmail: 'creator@example.com' },
  ...over,
});

describe('centsToDollars', () => {
  it('writes integer cents as PayPal dollars, never through floating point', () => {
    expect(centsToDollars(0)).toBe('0.00');
    expect(centsToDollars(5)).toBe('0.05');
    expect(centsToDollars(100)).toBe('1.00');
    expect(centsToDollars(12_345)).toBe('123.45');
    expect(centsToDollars(1_000_000_001)).toBe('10000000.01');
    expect(() => centsToDollars(1.5)).toThrow(RangeError);
    expect(() => centsToDollars(-1)).toThrow(RangeError);
  });
});

describe('PayPalPayouts.submit', () => {
  it('sends one batch of one EMAIL item: sender_batch_id = the idempotency key, the amount in dollars, sender_item_id = the payout id', async () => {
    const paypal = adapter();
    const r = request();
    await expect(paypal.submit(r)).resolves.toEqual({ providerReference: 'BATCH00000001', status: 'processing' });
    const sent = fake.requests.find((q) => q.path === '/v1/payments/payouts')!;
    expect(sent.headers.authorization).toBe('Bearer A21AA-token-1');
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sent.headers['paypal-request-id']).toBe(r.idempotencyKey);
    const body = JSON.parse(sent.body);
    expect(body.sender_batch_header).toMatchObject({ sender_batch_id: r.idempotencyKey, recipient_type: 'EMAIL' });
    expect(body.items).toEqual([
      expect.objectContaining({
        recipient_type: 'EMAIL',
        amount: { value: '123.45', currency: 'USD' },
        receiver: 'creator@example.com',
        sender_item_id: r.payoutId,
      }),
    ]);
  });

  it('asks for a token once and keeps it for the next payouts', async () => {
    const paypal = adapter();
    await paypal.submit(request());
    await paypal.submit(request({ idempotencyKey: 'other:2026-11-01', payoutId: 'p2' }));
    await Promise.all([paypal.accessToken(), paypal.accessToken()]);
    expect(fake.tokensIssued).toBe(1);
    expect(fake.requests.filter((q) => q.path === '/v1/oauth2/token')).toHaveLength(1);
  });

  it('asks for a new token once the old one is within a minute of expiring', async () => {
    let now = 1_000_000;
    const paypal = adapter({ now: () => now });
    fake.tokenLifetimeS = 3600;
    expect(await paypal.accessToken()).toBe('A21AA-token-1');
    now += 3600_000 - 61_000;
    expect(await paypal.accessToken()).toBe('A21AA-token-1');
    now += 2000;
    expect(await paypal.accessToken()).toBe('A21AA-token-2');
  });

  it('takes a new token and tries once more when PayPal drops the old one early (401)', async () => {
    const paypal = adapter();
    await paypal.accessToken();
    fake.revoked.add('A21AA-token-1');
    await expect(paypal.submit(request())).resolves.toMatchObject({ status: 'processing' });
    expect(fake.tokensIssued).toBe(2);
  });

  it('reads a repeated sender_batch_id as already submitted and looks the batch up: one batch, one payment', async () => {
    const paypal = adapter();
    const first = await paypal.submit(request());
    // A retry (a run restarted after a crash, or two runs at once) sends the same key again.
    const again = await adapter().submit(request());
    expect(again).toEqual({ providerReference: first.providerReference, status: 'processing' });
    expect(fake.batches.size).toBe(1);
    expect(fake.requests.map((q) => `${q.method} ${q.path}`)).toContain(`GET /v1/payments/payouts/${first.providerReference}`);

    // Once PayPal has paid the item, the look-up says so.
    fake.batches.get(first.providerReference)!.itemStatus = 'SUCCESS';
    await expect(paypal.submit(request())).resolves.toEqual({ providerReference: first.providerReference, status: 'paid' });
    fake.batches.get(first.providerReference)!.itemStatus = 'UNCLAIMED';
    await expect(paypal.submit(request())).resolves.toMatchObject({ status: 'processing' });
    fake.batches.get(first.providerReference)!.itemStatus = 'RETURNED';
    await expect(paypal.submit(request())).resolves.toMatchObject({ status: 'failed' });
    expect(fake.batches.size).toBe(1);
  });

  it('keeps a duplicate without a link processing under its key (its webhooks name the sender_batch_id)', async () => {
    fake.nextPayoutAnswer = { status: 400, json: { name: 'USER_BUSINESS_ERROR', details: [{ field: 'SENDER_BATCH_ID', issue: 'Duplicate batch request' }] } };
    const r = request();
    await expect(adapter().submit(r)).resolves.toEqual({ providerReference: r.idempotencyKey, status: 'processing' });
  });

  it('throws (to try again with the same key) when PayPal is down, limits us, or the platform balance is short', async () => {
    for (const answer of [
      { status: 503, json: { name: 'SERVICE_UNAVAILABLE' } },
      { status: 429, json: { name: 'RATE_LIMIT_REACHED' } },
      { status: 422, json: { name: 'INSUFFICIENT_FUNDS', message: 'Sender does not have sufficient funds.' } },
    ]) {
      fake.nextPayoutAnswer = answer;
      await expect(adapter().submit(request())).rejects.toBeInstanceOf(PayoutProviderError);
    }
    await expect(new PayPalPayouts({ clientId: 'x', clientSecret: 'y', webhookId: WEBHOOK_ID, apiBase: base }).submit(request())).rejects.toThrow(/client credentials/);
    await expect(adapter({ apiBase: 'http://127.0.0.1:1' }).submit(request())).rejects.toMatchObject({ name: 'PayoutProviderError', status: 0 });
  });

  it('answers failed when PayPal refuses the payout itself (nothing was sent)', async () => {
    fake.nextPayoutAnswer = { status: 422, json: { name: 'VALIDATION_ERROR', message: 'Invalid request', details: [{ field: 'items[0].receiver', issue: 'Receiver is invalid' }] } };
    const s = await adapter().submit(request());
    expect(s.status).toBe('failed');
    expect(s.failureReason).toMatch(/Receiver is invalid/);
    // A refusal that names sender_batch_id without calling it a duplicate is not taken for one.
    fake.nextPayoutAnswer = { status: 400, json: { name: 'VALIDATION_ERROR', details: [{ field: 'sender_batch_header.sender_batch_id', issue: 'Value is too long' }] } };
    await expect(adapter().submit(request())).resolves.toMatchObject({ status: 'failed' });
    expect(fake.requests.filter((q) => q.method === 'GET')).toHaveLength(0);
  });
});

/** A PayPal Payouts item event, as PayPal sends it. */
function itemEvent(type: string, over: Record<string, unknown> = {}) {
  return {
    id: 'WH-7Y7254563A4550640-11V2185806837105M',
    event_version: '1.0',
    create_time: '2026-12-01T10:00:05Z',
    resource_type: 'payouts_item',
    event_type: `PAYMENT.PAYOUTS-ITEM.${type}`,
    summary: 'A payout item event',
    resource: {
      payout_item_id: '8AELMXH8UB2P8',
      transaction_id: '0C413693MN970190K',
      transaction_status: type === 'SUCCEEDED' ? 'SUCCESS' : type,
      payout_batch_id: 'Q8KVJG9TZTNN4',
      sender_batch_id: 'user:2026-11-01',
      payout_item: { recipient_type: 'EMAIL', amount: { value: '9.87', currency: 'USD' }, receiver: 'r@example.com', sender_item_id: 'payout-1' },
      time_processed: '2026-12-01T10:00:00Z',
      ...over,
    },
    links: [],
  };
}

describe('PayPal webhooks', () => {
  const headers = {
    'paypal-auth-algo': 'SHA256withRSA',
    'paypal-cert-url': 'https://api.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-a5cafa77',
    'paypal-transmission-id': '69cd13f0-d67a-11e5-baa3-778b53f4ae55',
    'paypal-transmission-sig': 'signed-by-paypal',
    'paypal-transmission-time': '2026-12-01T10:00:06Z',
  };

  it("are verified by PayPal's verify-webhook-signature with the webhook id and the event exactly as it came", async () => {
    // Spacing PayPal might use: the event goes back byte for byte, not re-serialised.
    const raw = Buffer.from(JSON.stringify(itemEvent('SUCCEEDED'), null, 1));
    const event = await adapter().receiveWebhook(raw, headers);
    expect(event).toEqual({
      eventId: 'WH-7Y7254563A4550640-11V2185806837105M',
      providerReference: 'Q8KVJG9TZTNN4',
      idempotencyKey: 'user:2026-11-01',
      status: 'paid',
      occurredAt: new Date('2026-12-01T10:00:00Z'),
    });
    expect(fake.verifyCalls).toHaveLength(1);
    const call = fake.verifyCalls[0]!;
    expect(call).toMatchObject({
      auth_algo: 'SHA256withRSA',
      cert_url: headers['paypal-cert-url'],
      transmission_id: headers['paypal-transmission-id'],
      transmission_sig: 'signed-by-paypal',
      transmission_time: headers['paypal-transmission-time'],
      webhook_id: WEBHOOK_ID,
      webhook_event: itemEvent('SUCCEEDED'),
    });
    const sent = fake.requests.find((q) => q.path === '/v1/notifications/verify-webhook-signature')!;
    expect(sent.body.endsWith(`"webhook_event":${raw.toString('utf8')}}`)).toBe(true);
  });

  it('refuses an event PayPal does not vouch for, and one without its headers (without asking PayPal)', async () => {
    const raw = Buffer.from(JSON.stringify(itemEvent('SUCCEEDED')));
    await expect(adapter().receiveWebhook(raw, { ...headers, 'paypal-transmission-sig': 'forged' })).rejects.toMatchObject({ name: 'PayoutWebhookError', reason: 'signature' });
    const { ['paypal-transmission-sig']: _omitted, ...missing } = headers;
    await expect(adapter().receiveWebhook(raw, missing)).rejects.toBeInstanceOf(PayoutWebhookError);
    expect(fake.verifyCalls).toHaveLength(1);
    await expect(adapter().receiveWebhook(Buffer.from('not json'), headers)).rejects.toMatchObject({ reason: 'malformed' });
  });

  it('says PayPal could not be asked (so the sender retries) when the verification call fails', async () => {
    const raw = Buffer.from(JSON.stringify(itemEvent('SUCCEEDED')));
    await expect(adapter({ apiBase: 'http://127.0.0.1:1' }).receiveWebhook(raw, headers)).rejects.toBeInstanceOf(PayoutProviderError);
  });

  it('map item events to outcomes: SUCCEEDED paid; FAILED, BLOCKED, DENIED, RETURNED, REFUNDED, REVERSED, CANCELED failed; UNCLAIMED and HELD nothing', () => {
    expect(payoutEventFromPayPal(itemEvent('SUCCEEDED'))).toMatchObject({ status: 'paid', providerReference: 'Q8KVJG9TZTNN4', idempotencyKey: 'user:2026-11-01' });
    for (const t of ['FAILED', 'BLOCKED', 'DENIED', 'RETURNED', 'REFUNDED', 'REVERSED', 'CANCELED']) {
      expect(payoutEventFromPayPal(itemEvent(t)), t).toMatchObject({ status: 'failed' });
    }
    expect(payoutEventFromPayPal(itemEvent('FAILED', { errors: { name: 'RECEIVER_UNREGISTERED', message: 'Receiver is unregistered' } }))?.failureReason).toBe('Receiver is unregistered');
    expect(payoutEventFromPayPal(itemEvent('UNCLAIMED'))).toBeNull();
    expect(payoutEventFromPayPal(itemEvent('HELD'))).toBeNull();
  });

  it('map batch events: DENIED fails the payout; SUCCESS and PROCESSING decide nothing (the item event does)', () => {
    const batch = (status: string) => ({
      id: `WH-BATCH-${status}`,
      event_type: `PAYMENT.PAYOUTSBATCH.${status}`,
      create_time: '2026-12-01T10:00:00Z',
      resource: { batch_header: { payout_batch_id: 'Q8KVJG9TZTNN4', batch_status: status, sender_batch_header: { sender_batch_id: 'user:2026-11-01' } } },
    });
    expect(payoutEventFromPayPal(batch('DENIED'))).toMatchObject({ eventId: 'WH-BATCH-DENIED', status: 'failed', idempotencyKey: 'user:2026-11-01' });
    expect(payoutEventFromPayPal(batch('SUCCESS'))).toBeNull();
    expect(payoutEventFromPayPal(batch('PROCESSING'))).toBeNull();
    expect(payoutEventFromPayPal({ id: 'WH-1', event_type: 'CHECKOUT.ORDER.APPROVED', resource: {} })).toBeNull();
  });

  it('refuse what is not a PayPal event', () => {
    for (const bad of [null, [], {}, { id: 'x', event_type: 'PAYMENT.PAYOUTS-ITEM.SUCCEEDED' }, { id: 'x', event_type: 'PAYMENT.PAYOUTS-ITEM.SUCCEEDED', resource: {} }]) {
      expect(() => payoutEventFromPayPal(bad)).toThrow(PayoutWebhookError);
    }
  });
});

describe("the embedded provider's PayPal-format signature", () => {
  const secret = 'embedded-paypal-secret-for-tests';
  const body = JSON.stringify(itemEvent('SUCCEEDED'));

  it('is checked by an injected verifier, and the event read by the same parsing as PayPal\'s', async () => {
    const paypal = adapter({ verify: embeddedPayPalVerifier(secret) });
    const event = await paypal.receiveWebhook(Buffer.from(body), signEmbeddedPayPalWebhook(body, secret));
    expect(event).toMatchObject({ status: 'paid', providerReference: 'Q8KVJG9TZTNN4' });
    expect(fake.requests).toHaveLength(0);
  });

  it('refuses a changed body, another key, a stale or future transmission time, and PayPal-signed headers', async () => {
    const verify = embeddedPayPalVerifier(secret);
    const headers = signEmbeddedPayPalWebhook(body, secret);
    expect(await verify(Buffer.from(body), headers)).toBe(true);
    expect(await verify(Buffer.from(body.replace('9.87', '98.70')), headers)).toBe(false);
    expect(await verify(Buffer.from(body), signEmbeddedPayPalWebhook(body, 'another-key'))).toBe(false);
    expect(await verify(Buffer.from(body), signEmbeddedPayPalWebhook(body, secret, Date.now() - 301_000))).toBe(false);
    expect(await verify(Buffer.from(body), signEmbeddedPayPalWebhook(body, secret, Date.now() + 301_000))).toBe(false);
    expect(await verify(Buffer.from(body), signEmbeddedPayPalWebhook(body, secret, Date.now() - 299_000))).toBe(true);
    expect(await verify(Buffer.from(body), { ...headers, 'paypal-auth-algo': 'SHA256withRSA' })).toBe(false);
    await expect(receivePayPalWebhook(Buffer.from(body), { ...headers, 'paypal-transmission-sig': 'AAAA' }, verify)).rejects.toMatchObject({ reason: 'signature' });
  });
});
