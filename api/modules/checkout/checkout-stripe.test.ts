/**
 * The Stripe adapter against a local stand-in for Stripe's API on 127.0.0.1 that records each
 * request: the Checkout Session is created in payment mode with the server's prices, a fixed
 * shipping rate, the order id in its metadata and the payment's, and the idempotency key;
 * refunds name the payment; webhooks are verified with STRIPE_WEBHOOK_SECRET. Then the checkout
 * route with Stripe as the provider.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKOUT_MESSAGES } from '../../../shared/schemas/checkout.ts';
import { unitPriceCents } from '../../../shared/shop/pricing.ts';
import { signWebhookBody, StripePayments, type PaymentProvider } from '../../integrations/stripe/index.ts';
import { catalogueProduct, checkoutBody, makeMerchProduct, variantOf } from '../../test/checkout-support.ts';
import { testApp, testConfig, type TestApp } from '../../test/harness.ts';

interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  form: URLSearchParams;
}

const WEBHOOK_SECRET = 'whsec_test_stripe_secret_for_tests';
let server: Server;
let port: number;
let seen: Seen[] = [];
let failSessions = false;
/** How many more session requests answer 409, as Stripe does while another request with the same idempotency key runs. */
let conflicts = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const path = (req.url ?? '').split('?')[0]!;
      seen.push({ method: req.method!, path, headers: req.headers, form });
      res.setHeader('content-type', 'application/json');
      res.setHeader('request-id', 'req_test');
      if (req.method === 'POST' && path === '/v1/checkout/sessions') {
        if (conflicts > 0) {
          conflicts--;
          res.statusCode = 409;
          res.end(JSON.stringify({ error: { type: 'idempotency_error', message: 'There is currently another in-progress request using this Idempotency Key.' } }));
          return;
        }
        if (failSessions) {
          res.statusCode = 400;
          res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'Not a valid URL' } }));
          return;
        }
        const id = `cs_test_fake${seen.length}`;
        res.end(JSON.stringify({ id, object: 'checkout.session', url: `https://checkout.stripe.test/c/pay/${id}`, mode: 'payment', metadata: {} }));
        return;
      }
      if (req.method === 'POST' && path === '/v1/refunds') {
        res.end(JSON.stringify({ id: 're_test_1', object: 'refund', payment_intent: form.get('payment_intent'), status: 'succeeded' }));
        return;
      }
      res.statusCode = 404;
      res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'Unrecognized request URL' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const stripe = () =>
  new StripePayments({ secretKey: 'sk_test_123abc', webhookSecret: WEBHOOK_SECRET, host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 });

describe('StripePayments', () => {
  it('creates a Checkout Session in payment mode with the order, prices, shipping and idempotency key', async () => {
    seen = [];
    const orderId = '11111111-2222-4333-8444-555555555555';
    const session = await stripe().createCheckoutSession({
      orderId,
      lineItems: [
        { name: 'Unisex T-Shirt (Black, 2XL)', unitAmountCents: 2334, quantity: 2, imageUrl: 'https://shop.example/media/screenshots/ab/cd.jpg' },
        { name: 'White Glossy Mug (White, White handle, 11oz)', unitAmountCents: 1599, quantity: 1, imageUrl: 'http://localhost:3000/media/x.jpg' },
      ],
      shippingCents: 1544,
      shippingLabel: 'Standard',
      shippingCountry: 'CA',
      totalCents: 2334 * 2 + 1599 + 1544,
      customerEmail: 'buyer@example.com',
      successUrl: 'https://shop.example/success?session_id={CHECKOUT_SESSION_ID}',
      cancelUrl: 'https://shop.example/checkout',
      idempotencyKey: `checkout-session:${orderId}`,
    });
    expect(session.sessionId).toMatch(/^cs_test_fake/);
    expect(session.url).toBe(`https://checkout.stripe.test/c/pay/${session.sessionId}`);

    expect(seen).toHaveLength(1);
    const req = seen[0]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/checkout/sessions');
    expect(req.headers['idempotency-key']).toBe(`checkout-session:${orderId}`);
    expect(req.headers.authorization).toBe('Bearer sk_test_123abc');
    expect(req.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    const f = Object.fromEntries(req.form);
    expect(f).toMatchObject({
      mode: 'payment',
      'line_items[0][quantity]': '2',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': '2334',
      'line_items[0][price_data][product_data][name]': 'Unisex T-Shirt (Black, 2XL)',
      'line_items[0][price_data][product_data][images][0]': 'https://shop.example/media/screenshots/ab/cd.jpg',
      'line_items[1][quantity]': '1',
      'line_items[1][price_data][unit_amount]': '1599',
      // Stripe collects the street address the print shop needs, in the country quoted for.
      'shipping_address_collection[allowed_countries][0]': 'CA',
      'shipping_options[0][shipping_rate_data][type]': 'fixed_amount',
      'shipping_options[0][shipping_rate_data][fixed_amount][amount]': '1544',
      'shipping_options[0][shipping_rate_data][fixed_amount][currency]': 'usd',
      'shipping_options[0][shipping_rate_data][display_name]': 'Standard',
      'metadata[order_id]': orderId,
      'payment_intent_data[metadata][order_id]': orderId,
      client_reference_id: orderId,
      success_url: 'https://shop.example/success?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'https://shop.example/checkout',
      customer_email: 'buyer@example.com',
    });
    // A picture Stripe could not fetch over https is left out.
    expect(f['line_items[1][price_data][product_data][images][0]']).toBeUndefined();
    // No price beyond the catalogue's: exactly two line items.
    expect(Object.keys(f).filter((k) => k.startsWith('line_items[2]'))).toEqual([]);
  });

  it('waits out a request still running with the same idempotency key (409) and answers its session', async () => {
    seen = [];
    conflicts = 1;
    const orderId = '11111111-2222-4333-8444-666666666666';
    const adapter = new StripePayments({ secretKey: 'sk_test_123abc', webhookSecret: WEBHOOK_SECRET, host: '127.0.0.1', port, protocol: 'http' });
    const session = await adapter.createCheckoutSession({
      orderId,
      lineItems: [{ name: 'Stickers', unitAmountCents: 429, quantity: 1, imageUrl: null }],
      shippingCents: 475,
      shippingLabel: 'Standard',
      shippingCountry: 'US',
      totalCents: 904,
      customerEmail: null,
      successUrl: 'https://shop.example/success?session_id={CHECKOUT_SESSION_ID}',
      cancelUrl: 'https://shop.example/checkout',
      idempotencyKey: `checkout-session:${orderId}`,
    });
    expect(conflicts).toBe(0);
    expect(session.sessionId).toMatch(/^cs_test_fake/);
    // Asked again after the conflict, with the same key: never a second key, so never a second session.
    expect(seen.map((r) => r.headers['idempotency-key'])).toEqual([`checkout-session:${orderId}`, `checkout-session:${orderId}`]);
  });

  it('refunds by payment intent, and verifies webhooks with the Stripe secret only', async () => {
    seen = [];
    const s = stripe();
    await s.refund('pi_test_abc');
    expect(seen.map((r) => [r.path, r.form.get('payment_intent'), r.headers['idempotency-key']])).toEqual([['/v1/refunds', 'pi_test_abc', 'refund:pi_test_abc']]);

    const body = JSON.stringify({ id: 'evt_test_1', object: 'event', type: 'checkout.session.completed', data: { object: { id: 'cs_test_1' } } });
    expect(s.verifyWebhook(Buffer.from(body), signWebhookBody(body, WEBHOOK_SECRET)).id).toBe('evt_test_1');
    expect(() => s.verifyWebhook(Buffer.from(body), signWebhookBody(body, 'whsec_someone_else'))).toThrow();
    expect(() => s.verifyWebhook(Buffer.from(body), signWebhookBody(body, WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 301))).toThrow();
    expect(() => s.verifyWebhook(Buffer.from(body), undefined)).toThrow();
  });
});

describe('checkout with Stripe as the provider', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({
      config: await testConfig({ PUBLIC_URL: 'https://shop.example', STRIPE_SECRET_KEY: 'sk_test_123abc', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET }),
    });
  });
  afterAll(async () => t?.close());

  it('chooses Stripe when its key is set, and opens the session for the priced order', async () => {
    expect(t.app.payments.kind).toBe('stripe');
    // The same adapter, pointed at the local stand-in instead of api.stripe.com.
    const real = t.app.payments;
    (t.app as { payments: PaymentProvider }).payments = stripe();
    try {
      const product = await makeMerchProduct(t.db);
      const shirt = catalogueProduct(t, 'unisex-tshirt');
      seen = [];
      const body = checkoutBody([{ product_id: product.id, variant_id: variantOf(shirt, '2XL'), quantity: 2, selected_screenshot: 0 }], {
        idempotency_key: 'stripe-route-0001',
        email: 'buyer@example.com',
      });
      const res = await t.app.inject({ method: 'POST', url: '/api/create-checkout-session', payload: { ...body, cart: [{ ...body.cart[0], price: 1 }], shipping_cost: 0 } });
      expect(res.statusCode, res.body).toBe(200);
      const reply = res.json();
      expect(reply.url).toBe(`https://checkout.stripe.test/c/pay/${reply.session_id}`);
      const f = Object.fromEntries(seen[0]!.form);
      // 2 x (21.69 + 1.65); two shirts bundled: 4.75 + 2.20.
      expect(unitPriceCents(shirt, '2XL')).toBe(2334);
      expect(f['line_items[0][price_data][unit_amount]']).toBe('2334');
      expect(f['line_items[0][quantity]']).toBe('2');
      expect(f['shipping_options[0][shipping_rate_data][fixed_amount][amount]']).toBe(String(475 + 220));
      expect(f['metadata[order_id]']).toBe(reply.order_id);
      expect(f.success_url).toBe('https://shop.example/success?session_id={CHECKOUT_SESSION_ID}');
      expect(f['line_items[0][price_data][product_data][images][0]']).toBe(`https://shop.example/media/screenshots/${product.captureKeys[0]}`);
      expect(seen[0]!.headers['idempotency-key']).toBe(`checkout-session:${reply.order_id}`);
      const order = await t.db.selectFrom('orders').selectAll().where('id', '=', reply.order_id).executeTakeFirstOrThrow();
      expect(order).toMatchObject({ payment_provider: 'stripe', payment_session_id: reply.session_id, total_cents: 2334 * 2 + 695, status: 'pending' });

      // Stripe refusing answers 502; the order stays pending, nothing is charged.
      failSessions = true;
      const refused = await t.app.inject({ method: 'POST', url: '/api/create-checkout-session', payload: { ...body, idempotency_key: 'stripe-route-0002' } });
      expect(refused.statusCode, refused.body).toBe(502);
      expect(refused.json().error).toBe(CHECKOUT_MESSAGES.paymentUnavailable);
      const pending = await t.db.selectFrom('orders').select(['status', 'payment_session_id']).where('idempotency_key', '=', 'stripe-route-0002').executeTakeFirstOrThrow();
      expect(pending).toEqual({ status: 'pending', payment_session_id: null });
    } finally {
      failSessions = false;
      (t.app as { payments: PaymentProvider }).payments = real;
    }
  });
});
