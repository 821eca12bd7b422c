/**
 * The Stripe adapter's subscription calls against a local stand-in for Stripe's API on
 * 127.0.0.1 that records each request (as checkout-stripe.test.ts does for payments): the
 * subscription-mode Checkout Session's parameters and idempotency key, the session and the
 * subscription read back (null for an id Stripe does not know), and the customer portal.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { StripePayments } from './stripe.ts';

interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  form: Record<string, string>;
}

let server: Server;
let port: number;
let seen: Seen[] = [];

const missing = (res: ServerResponse, what: string) => {
  res.statusCode = 404;
  res.end(JSON.stringify({ error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}` } }));
};

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0]!;
      seen.push({ method: req.method!, path, headers: req.headers, form: Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))) });
      res.setHeader('content-type', 'application/json');
      res.setHeader('request-id', 'req_test');
      if (req.method === 'POST' && path === '/v1/checkout/sessions') {
        res.end(JSON.stringify({ id: 'cs_test_sub1', object: 'checkout.session', mode: 'subscription', url: 'https://checkout.stripe.test/c/pay/cs_test_sub1' }));
        return;
      }
      if (req.method === 'GET' && path === '/v1/checkout/sessions/cs_test_sub1') {
        res.end(
          JSON.stringify({
            id: 'cs_test_sub1',
            object: 'checkout.session',
            mode: 'subscription',
            status: 'complete',
            payment_status: 'no_payment_required',
            metadata: { user_id: 'user-1' },
            client_reference_id: 'user-1',
            subscription: 'sub_123',
            customer: { id: 'cus_123', object: 'customer' },
          }),
        );
        return;
      }
      if (req.method === 'GET' && path === '/v1/checkout/sessions/cs_test_pay1') {
        res.end(JSON.stringify({ id: 'cs_test_pay1', object: 'checkout.session', mode: 'payment', status: 'open', metadata: {} }));
        return;
      }
      if (req.method === 'GET' && path.startsWith('/v1/checkout/sessions/')) return missing(res, 'checkout.session');
      if (req.method === 'GET' && path === '/v1/subscriptions/sub_123') {
        res.end(JSON.stringify({ id: 'sub_123', object: 'subscription', status: 'trialing', customer: 'cus_123', metadata: { user_id: 'user-1' } }));
        return;
      }
      if (req.method === 'GET' && path.startsWith('/v1/subscriptions/')) return missing(res, 'subscription');
      if (req.method === 'POST' && path === '/v1/billing_portal/sessions') {
        res.end(JSON.stringify({ id: 'bps_1', object: 'billing_portal.session', url: 'https://billing.stripe.test/p/session/test_1' }));
        return;
      }
      res.statusCode = 500;
      res.end(JSON.stringify({ error: { type: 'api_error', message: 'unexpected' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  seen = [];
});

const stripe = () => new StripePayments({ secretKey: 'sk_test_123abc', webhookSecret: 'whsec_test', host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 });

const request = {
  userId: 'user-1',
  customerEmail: 'creator@example.com',
  customerId: null,
  productName: 'FrameMerch Pro',
  monthlyPriceCents: 999,
  trialDays: 7,
  successUrl: 'https://shop.example/subscription-success?session_id={CHECKOUT_SESSION_ID}',
  cancelUrl: 'https://shop.example/pricing',
  idempotencyKey: 'subscription-checkout:user-1:1',
};

describe('StripePayments subscriptions', () => {
  it('creates a Checkout Session in subscription mode: monthly price, trial, the user in metadata, idempotency key', async () => {
    const session = await stripe().createSubscriptionCheckout(request);
    expect(session).toEqual({ sessionId: 'cs_test_sub1', url: 'https://checkout.stripe.test/c/pay/cs_test_sub1' });
    expect(seen).toHaveLength(1);
    const req = seen[0]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/checkout/sessions');
    expect(req.headers['idempotency-key']).toBe('subscription-checkout:user-1:1');
    expect(req.headers.authorization).toBe('Bearer sk_test_123abc');
    expect(req.form).toEqual({
      mode: 'subscription',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': '999',
      'line_items[0][price_data][recurring][interval]': 'month',
      'line_items[0][price_data][product_data][name]': 'FrameMerch Pro',
      'line_items[0][quantity]': '1',
      'subscription_data[trial_period_days]': '7',
      'subscription_data[metadata][user_id]': 'user-1',
      'metadata[user_id]': 'user-1',
      client_reference_id: 'user-1',
      customer_email: 'creator@example.com',
      success_url: 'https://shop.example/subscription-success?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'https://shop.example/pricing',
    });
  });

  it('names the customer instead of the email for a returning subscriber, and no trial when it has none', async () => {
    await stripe().createSubscriptionCheckout({ ...request, customerId: 'cus_123', trialDays: 0, idempotencyKey: 'k2' });
    const f = seen[0]!.form;
    expect(f.customer).toBe('cus_123');
    expect(f.customer_email).toBeUndefined();
    expect(f['subscription_data[trial_period_days]']).toBeUndefined();
    expect(f['subscription_data[metadata][user_id]']).toBe('user-1');
    expect(seen[0]!.headers['idempotency-key']).toBe('k2');
  });

  it('reads a subscription-mode session back: status, user, subscription and customer ids; null when unknown or not a subscription', async () => {
    expect(await stripe().retrieveSubscriptionSession('cs_test_sub1')).toEqual({
      sessionId: 'cs_test_sub1',
      status: 'complete',
      userId: 'user-1',
      subscriptionId: 'sub_123',
      customerId: 'cus_123',
    });
    expect(seen[0]).toMatchObject({ method: 'GET', path: '/v1/checkout/sessions/cs_test_sub1' });
    expect(await stripe().retrieveSubscriptionSession('cs_test_unknown')).toBeNull();
    expect(await stripe().retrieveSubscriptionSession('cs_test_pay1')).toBeNull();
  });

  it('reads a subscription back, null when Stripe has no such subscription', async () => {
    expect(await stripe().retrieveSubscription('sub_123')).toMatchObject({ id: 'sub_123', status: 'trialing', metadata: { user_id: 'user-1' } });
    expect(seen[0]).toMatchObject({ method: 'GET', path: '/v1/subscriptions/sub_123' });
    expect(await stripe().retrieveSubscription('sub_gone')).toBeNull();
  });

  it('opens the customer portal for the customer, returning to the given url', async () => {
    expect(await stripe().manageSubscriptionUrl('cus_123', 'https://shop.example/account')).toBe('https://billing.stripe.test/p/session/test_1');
    expect(seen[0]).toMatchObject({ method: 'POST', path: '/v1/billing_portal/sessions', form: { customer: 'cus_123', return_url: 'https://shop.example/account' } });
  });

  it('passes other failures on (not a missing resource: Stripe unreachable)', async () => {
    const failing = new StripePayments({ secretKey: 'sk_test_123abc', webhookSecret: 'whsec_test', host: '127.0.0.1', port: 1, protocol: 'http', maxNetworkRetries: 0, timeoutMs: 2000 });
    await expect(failing.retrieveSubscription('sub_123')).rejects.toThrow();
  });
});
