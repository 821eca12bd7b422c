/**
 * Checkout with the embedded payment provider: the server prices the cart itself, writes the
 * order and its items in one transaction, answers the same order for a repeated request, and
 * refuses bad carts with nothing written. Then the hosted payment page: the test card pays
 * (one signed event, delivered to the webhook), the declining card changes nothing.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKOUT_MESSAGES } from '../../shared/schemas/checkout.ts';
import { unitPriceCents } from '../../shared/shop/pricing.ts';
import { quoteShipping } from '../../shared/shop/shipping.ts';
import type { CheckoutSessionRequest, PaymentProvider } from '../payments/provider.ts';
import { verifyWebhookBody } from '../payments/signature.ts';
import { orderAccessToken } from '../services/order-links.ts';
import { catalogueProduct, checkoutBody, countRows, makeMerchProduct, variantOf, type TestProduct } from './checkout-support.ts';
import { testApp, testConfig, type TestApp } from './harness.ts';

const ORIGIN = 'http://localhost:3000';
let t: TestApp;
let product: TestProduct;

beforeAll(async () => {
  t = await testApp({ config: await testConfig({ PUBLIC_URL: ORIGIN }) });
  product = await makeMerchProduct(t.db, { captures: 2 });
});
afterAll(async () => t?.close());

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers: { origin: ORIGIN, ...headers } });

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const payForm = (sessionId: string, fields: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: `/pay/${sessionId}`,
    payload: form(fields),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
  });
const card = (number: string, extra: Partial<Record<'email' | 'expiry' | 'cvc', string>> = {}) => ({
  email: 'buyer@example.com',
  card_number: number,
  expiry: '12 / 34',
  cvc: '123',
  ...extra,
});

const shirt = () => catalogueProduct(t, 'unisex-tshirt');
const mug = () => catalogueProduct(t, 'white-glossy-mug');

async function session(id: string) {
  return t.db.selectFrom('embedded_payment_sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

describe('POST /api/create-checkout-session', () => {
  it('charges the catalogue price whatever the cart says, and links each item to the video and its creator', async () => {
    const before = await countRows(t.db);
    const otherCreator = '00000000-0000-4000-8000-000000000001';
    const tampered = {
      shipping_address: { zip: '10001', country_code: 'US', name: 'Hacker' },
      cart: [
        {
          product_id: product.id,
          variant_id: variantOf(shirt(), '2XL', 'Navy'),
          quantity: 2,
          selected_screenshot: 1,
          price: 1,
          unit_price_cents: 1,
          creator_id: otherCreator,
          video_id: otherCreator,
          product: { name: 'Free shirt', price: 0.01 },
        },
        { product_id: product.id, variant_id: variantOf(mug(), '15oz'), quantity: 1, selected_screenshot: 'thumbnail', price: 0.5 },
      ],
      shipping_cost: 0,
      subtotal: 1,
      total: 1,
      creator_id: otherCreator,
      sms_consent: true,
      email: 'buyer@example.com',
      idempotency_key: 'tamper-test-0001',
    };
    const res = await post('/api/create-checkout-session', tampered);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.url).toBe(`${ORIGIN}/pay/${body.session_id}`);
    expect(body.session_id).toMatch(/^cs_test_[A-Za-z0-9]+$/);

    // Worked out from the catalogue: the shirt 21.69 + 2XL surcharge 1.65, twice; the mug 15oz.
    const shirtUnit = unitPriceCents(shirt(), '2XL');
    expect(shirtUnit).toBe(2169 + 165);
    const mugUnit = unitPriceCents(mug(), '15oz');
    const subtotal = shirtUnit * 2 + mugUnit;
    // Shipping: two shirts bundled (4.75 + 2.20), the mug in its own package (8.49).
    const shipping = 475 + 220 + 849;
    expect(quoteShipping([{ bucket: 'shirts', quantity: 2 }, { bucket: 'mugs', quantity: 1 }], 'US', t.app.catalogue.shipping).cents).toBe(shipping);

    const order = await t.db.selectFrom('orders').selectAll().where('id', '=', body.order_id).executeTakeFirstOrThrow();
    expect(order).toMatchObject({
      status: 'pending',
      subtotal_cents: subtotal,
      shipping_cents: shipping,
      total_cents: subtotal + shipping,
      shipping_zip: '10001',
      shipping_country: 'US',
      shipping_method: 'Standard',
      sms_consent: true,
      customer_email: 'buyer@example.com',
      idempotency_key: 'tamper-test-0001',
      payment_provider: 'embedded',
      payment_session_id: body.session_id,
      customer_user_id: null,
    });
    expect(order.shipping_address).toBeNull();

    const items = await t.db.selectFrom('order_items').selectAll().where('order_id', '=', body.order_id).orderBy('position').execute();
    expect(items).toHaveLength(2);
    expect(items[0]).toMatchObject({
      sku: 'unisex-tshirt',
      product_name: 'Unisex T-Shirt',
      colour: 'Navy',
      handle_colour: null,
      size: '2XL',
      quantity: 2,
      unit_price_cents: 2169,
      size_surcharge_cents: 165,
      base_cost_cents: shirt().baseCostCents,
      line_total_cents: shirtUnit * 2,
      merch_product_id: product.id,
      // The first capture (index 1 is the second screenshot after the thumbnail: the crop).
      screenshot_id: product.screenshotIds.captures[1],
      video_id: product.videoId,
      creator_id: product.creatorId,
    });
    expect(items[1]).toMatchObject({
      sku: 'white-glossy-mug',
      colour: 'White',
      handle_colour: 'White',
      size: '15oz',
      unit_price_cents: mug().priceCents,
      size_surcharge_cents: mugUnit - mug().priceCents,
      line_total_cents: mugUnit,
      screenshot_id: product.screenshotIds.thumbnail,
      creator_id: product.creatorId,
    });

    const history = await t.db.selectFrom('order_status_history').selectAll().where('order_id', '=', body.order_id).execute();
    expect(history.map((h) => [h.from_status, h.to_status, h.reason])).toEqual([[null, 'pending', 'Order created']]);

    // The payment page charges the same total.
    const s = await session(body.session_id);
    expect(s).toMatchObject({ order_id: body.order_id, status: 'open', payment_status: 'unpaid', amount_total: subtotal + shipping, currency: 'usd' });
    expect(s.metadata).toMatchObject({ order_id: body.order_id });
    expect((s.line_items as Array<{ unit_amount: number; quantity: number }>).map((l) => [l.unit_amount, l.quantity])).toEqual([
      [shirtUnit, 2],
      [mugUnit, 1],
    ]);
    expect(s.success_url).toBe(`${ORIGIN}/success?session_id=${body.session_id}`);
    expect(s.cancel_url).toBe(`${ORIGIN}/checkout`);
    const ttl = s.expires_at.getTime() - s.created_at.getTime();
    expect(ttl).toBeGreaterThan(29 * 60_000);
    expect(ttl).toBeLessThanOrEqual(30 * 60_000 + 5_000);

    const after = await countRows(t.db);
    expect(after.orders - before.orders).toBe(1);
    expect(after.items - before.items).toBe(2);
    expect(after.sessions - before.sessions).toBe(1);
    expect(after.events - before.events).toBe(0);
  });

  it('refuses a bad cart with the reason (400) and writes nothing', async () => {
    const line = { product_id: product.id, variant_id: variantOf(shirt(), 'M'), quantity: 1, selected_screenshot: 0 as number | 'thumbnail' };
    const bareProduct = await makeMerchProduct(t.db, { captures: 1, thumbnail: false });
    const cases: Array<[string, unknown, string]> = [
      ['an unknown product', checkoutBody([{ ...line, product_id: '00000000-0000-4000-8000-00000000abcd' }]), CHECKOUT_MESSAGES.unknownProduct],
      ['a product id that is not an id', checkoutBody([{ ...line, product_id: 'robert; drop table orders' }]), CHECKOUT_MESSAGES.unknownProduct],
      ['an unknown sku', checkoutBody([{ ...line, variant_id: 'free-shirt|Black||M' }]), CHECKOUT_MESSAGES.unknownVariant],
      ['a colour not sold', checkoutBody([{ ...line, variant_id: 'unisex-tshirt|Gold Leaf||M' }]), CHECKOUT_MESSAGES.unknownVariant],
      ['a size not sold', checkoutBody([{ ...line, variant_id: 'unisex-tshirt|Black||XXS' }]), CHECKOUT_MESSAGES.unknownVariant],
      ['a screenshot past the last', checkoutBody([{ ...line, selected_screenshot: 2 }]), CHECKOUT_MESSAGES.unknownScreenshot],
      ['a screenshot index out of range', checkoutBody([{ ...line, selected_screenshot: 9 }]), CHECKOUT_MESSAGES.unknownScreenshot],
      ['a thumbnail the product lacks', checkoutBody([{ ...line, product_id: bareProduct.id, selected_screenshot: 'thumbnail' }]), CHECKOUT_MESSAGES.unknownScreenshot],
      ['quantity 0', checkoutBody([{ ...line, quantity: 0 }]), CHECKOUT_MESSAGES.badQuantity],
      ['quantity 101', checkoutBody([{ ...line, quantity: 101 }]), CHECKOUT_MESSAGES.badQuantity],
      ['quantity 1.5', checkoutBody([{ ...line, quantity: 1.5 }]), CHECKOUT_MESSAGES.badQuantity],
      ['an empty cart', checkoutBody([]), CHECKOUT_MESSAGES.cartEmpty],
      ['a country not shipped to', checkoutBody([line], { shipping_address: { zip: '75001', country_code: 'FR' } }), CHECKOUT_MESSAGES.badCountry],
      ['a blank ZIP', checkoutBody([line], { shipping_address: { zip: ' ', country_code: 'US' } }), CHECKOUT_MESSAGES.badZip],
      ['51 lines', checkoutBody(Array.from({ length: 51 }, () => line)), CHECKOUT_MESSAGES.tooManyLines],
      // One good line and one bad: nothing of the good one is written either.
      ['a good line then a bad one', checkoutBody([line, { ...line, variant_id: 'unisex-tshirt|Black||6XL' }]), CHECKOUT_MESSAGES.unknownVariant],
    ];
    const before = await countRows(t.db);
    for (const url of ['/api/create-checkout-session', '/api/place-order']) {
      for (const [name, payload, message] of cases) {
        const res = await post(url, payload);
        expect(res.statusCode, `${url} ${name}: ${res.body}`).toBe(400);
        expect(res.json().error, `${url} ${name}`).toBe(message);
      }
    }
    expect(await countRows(t.db)).toEqual(before);
  });

  it('answers one order and one session for a repeated idempotency key, in a row and concurrently', async () => {
    const body = checkoutBody([{ product_id: product.id, variant_id: variantOf(shirt(), 'L'), quantity: 1, selected_screenshot: 0 }], {
      idempotency_key: 'repeat-key-000001',
    });
    const before = await countRows(t.db);
    const first = (await post('/api/create-checkout-session', body)).json();
    const second = (await post('/api/create-checkout-session', body)).json();
    const placed = (await post('/api/place-order', body)).json();
    expect(second).toEqual(first);
    expect(placed).toEqual({ success: true, next_url: first.url, order_id: first.order_id });
    let after = await countRows(t.db);
    expect(after.orders - before.orders).toBe(1);
    expect(after.sessions - before.sessions).toBe(1);
    expect(after.history - before.history).toBe(1);

    const raced = { ...body, idempotency_key: 'raced-key-0000001' };
    const replies = await Promise.all(Array.from({ length: 5 }, (_, i) => post(i % 2 ? '/api/place-order' : '/api/create-checkout-session', raced)));
    for (const r of replies) expect(r.statusCode, r.body).toBe(200);
    const ids = new Set(replies.map((r) => r.json().order_id));
    const urls = new Set(replies.map((r) => r.json().url ?? r.json().next_url));
    expect(ids.size).toBe(1);
    expect(urls.size).toBe(1);
    after = await countRows(t.db);
    expect(after.orders - before.orders).toBe(2);
    expect(after.items - before.items).toBe(2);
    expect(after.sessions - before.sessions).toBe(2);
    expect(after.history - before.history).toBe(2);
  });

  it('makes a new order for each request without a key', async () => {
    const body = checkoutBody([{ product_id: product.id, variant_id: variantOf(shirt(), 'S'), quantity: 1, selected_screenshot: 0 }]);
    const a = (await post('/api/create-checkout-session', body)).json();
    const b = (await post('/api/create-checkout-session', body)).json();
    expect(a.order_id).not.toBe(b.order_id);
    expect(a.session_id).not.toBe(b.session_id);
  });

  it('answers 502 when the payment provider fails, leaving the order pending with no session; a retry opens it', async () => {
    const real = t.app.payments;
    const failing: PaymentProvider = {
      kind: 'embedded',
      createCheckoutSession: async (_r: CheckoutSessionRequest) => {
        throw new Error('provider down');
      },
      verifyWebhook: real.verifyWebhook.bind(real),
      refund: real.refund.bind(real),
    };
    const body = checkoutBody([{ product_id: product.id, variant_id: variantOf(shirt(), 'XL'), quantity: 1, selected_screenshot: 0 }], {
      idempotency_key: 'provider-down-0001',
    });
    (t.app as { payments: PaymentProvider }).payments = failing;
    try {
      const res = await post('/api/create-checkout-session', body);
      expect(res.statusCode, res.body).toBe(502);
      expect(res.json().error).toBe(CHECKOUT_MESSAGES.paymentUnavailable);
    } finally {
      (t.app as { payments: PaymentProvider }).payments = real;
    }
    const order = await t.db.selectFrom('orders').selectAll().where('idempotency_key', '=', 'provider-down-0001').executeTakeFirstOrThrow();
    expect(order.status).toBe('pending');
    expect(order.payment_session_id).toBeNull();
    const retry = await post('/api/create-checkout-session', body);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json().order_id).toBe(order.id);
  });

  it('limits checkouts per address (loopback is exempt outside production)', async () => {
    const from = { remoteAddress: '203.0.113.7' };
    const send = () => t.app.inject({ method: 'POST', url: '/api/create-checkout-session', payload: checkoutBody([]), headers: { origin: ORIGIN }, ...from });
    for (let i = 0; i < 60; i++) expect((await send()).statusCode).toBe(400);
    const limited = await send();
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('RATE_LIMITED');
    // Another address, and loopback, are not held back.
    const other = await t.app.inject({ method: 'POST', url: '/api/create-checkout-session', payload: checkoutBody([]), headers: { origin: ORIGIN }, remoteAddress: '203.0.113.8' });
    expect(other.statusCode).toBe(400);
    expect((await post('/api/create-checkout-session', checkoutBody([]))).statusCode).toBe(400);
  });
});

describe('the embedded payment page', () => {
  async function open(key: string) {
    const res = await post(
      '/api/create-checkout-session',
      checkoutBody([{ product_id: product.id, variant_id: variantOf(shirt(), 'M'), quantity: 1, selected_screenshot: 0 }], {
        idempotency_key: key,
        email: 'prefill@example.com',
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { url: string; order_id: string; session_id: string };
  }

  it('shows the items, shipping, total and the card form, under the app CSP', async () => {
    const o = await open('page-render-0001');
    const res = await t.app.inject({ url: new URL(o.url).pathname });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("form-action 'self'");
    const html = res.body;
    const total = 2169 + 475;
    expect(html).toContain('Unisex T-Shirt (Black, M)');
    expect(html).toContain('$4.75');
    expect(html).toContain(`Pay $${(total / 100).toFixed(2)}`);
    expect(html).toContain(`action="/pay/${o.session_id}"`);
    for (const field of ['email', 'card_number', 'expiry', 'cvc']) expect(html).toContain(`name="${field}"`);
    expect(html).toContain('value="prefill@example.com"');
    expect(html).toContain(`href="${ORIGIN}/checkout"`);
    // Nothing the CSP would block: no script, no inline style, nothing from elsewhere.
    expect(html).not.toMatch(/<script|style=|<style/i);
    expect(html).not.toMatch(/(src|href)="https?:\/\/(?!localhost:3000)/);
    const css = await t.app.inject({ url: '/pay/assets/pay.css' });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);

    const missing = await t.app.inject({ url: '/pay/cs_test_doesnotexist000' });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('Checkout not found');
  });

  it('declines 4000 0000 0000 0002 (402): the session stays open, the order pending, no event', async () => {
    const o = await open('declined-card-0001');
    const before = await countRows(t.db);
    const res = await payForm(o.session_id, card('4000 0000 0000 0002'));
    expect(res.statusCode).toBe(402);
    expect(res.body).toContain('Your card was declined.');
    expect(res.body).toContain('name="card_number"');
    const s = await session(o.session_id);
    expect(s).toMatchObject({ status: 'open', payment_status: 'unpaid', payment_intent_id: null, declined_attempts: 1 });
    const order = await t.db.selectFrom('orders').select(['status', 'paid_at']).where('id', '=', o.order_id).executeTakeFirstOrThrow();
    expect(order).toEqual({ status: 'pending', paid_at: null });
    expect(await countRows(t.db)).toEqual(before);
  });

  it('refuses a mistyped card, expiry or CVC with the reason (400), changing nothing', async () => {
    const o = await open('bad-card-input-01');
    const before = await countRows(t.db);
    const cases: Array<[Record<string, string>, RegExp]> = [
      [card('4242 4242 4242 4241'), /card number is invalid/],
      [card('4242'), /card number is incomplete/],
      [card('4242 4242 4242 4242', { expiry: '13 / 30' }), /expiration date is incomplete/],
      [card('4242 4242 4242 4242', { expiry: '01 / 20' }), /expiration date is in the past/],
      [card('4242 4242 4242 4242', { cvc: '12' }), /security code is incomplete/],
      [card('4242 4242 4242 4242', { email: 'not-an-email' }), /valid email/],
      [{ card_number: '4242424242424242' }, /valid email/],
    ];
    for (const [fields, message] of cases) {
      const res = await payForm(o.session_id, fields);
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(res.body).toMatch(message);
    }
    expect((await session(o.session_id)).status).toBe('open');
    expect(await countRows(t.db)).toEqual(before);
  });

  it('pays with 4242 4242 4242 4242: session complete, one signed event delivered to the webhook, redirect to /success', async () => {
    const o = await open('paid-card-000001');
    // Record what is delivered, and still deliver it to the real webhook route.
    const deliveries: Array<{ body: string; signature: string; status: number }> = [];
    const embedded = t.app.embeddedPayments;
    embedded.setDelivery(async (body, signature) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/webhooks/stripe', payload: body, headers: { 'content-type': 'application/json', 'stripe-signature': signature } });
      deliveries.push({ body, signature, status: res.statusCode });
      return { statusCode: res.statusCode, body: res.body };
    });
    const eventsBefore = (await countRows(t.db)).events;
    const res = await payForm(o.session_id, card('4242 4242 4242 4242', { email: 'payer@example.com', expiry: '1/2099' }));
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toBe(`${ORIGIN}/success?session_id=${o.session_id}`);

    const s = await session(o.session_id);
    expect(s).toMatchObject({ status: 'complete', payment_status: 'paid', customer_email: 'payer@example.com' });
    expect(s.payment_intent_id).toMatch(/^pi_test_[A-Za-z0-9]+$/);
    const events = await t.db.selectFrom('embedded_payment_events').selectAll().where('created_at', '>=', s.created_at).execute();
    const mine = events.filter((e) => (e.payload as { data: { object: { id: string } } }).data.object.id === o.session_id);
    expect(mine).toHaveLength(1);
    expect((await countRows(t.db)).events - eventsBefore).toBe(1);
    const stored = mine[0]!;
    expect(stored.type).toBe('checkout.session.completed');
    expect(stored.id).toMatch(/^evt_/);
    expect(stored.payload).toMatchObject({
      id: stored.id,
      object: 'event',
      type: 'checkout.session.completed',
      livemode: false,
      data: {
        object: {
          id: o.session_id,
          object: 'checkout.session',
          mode: 'payment',
          payment_status: 'paid',
          status: 'complete',
          amount_total: 2169 + 475,
          currency: 'usd',
          metadata: { order_id: o.order_id },
          client_reference_id: o.order_id,
          payment_intent: s.payment_intent_id,
          customer_details: { email: 'payer@example.com' },
        },
      },
    });
    expect(typeof (stored.payload as { api_version: unknown }).api_version).toBe('string');
    expect(typeof (stored.payload as { created: unknown }).created).toBe('number');

    // Delivered once, signed so that the webhook's own check accepts it, and accepted.
    expect(deliveries).toHaveLength(1);
    const verified = verifyWebhookBody(Buffer.from(deliveries[0]!.body), deliveries[0]!.signature, embedded.webhookSecret);
    expect(verified.id).toBe(stored.id);
    expect(deliveries[0]!.status).toBe(200);
    expect(stored.delivered_at).not.toBeNull();
    expect(stored.attempts).toBe(1);

    // The webhook made the order paid; the success page's look-up and the order page say so.
    const lookup = await t.app.inject({ url: `/api/checkout/sessions/${o.session_id}` });
    expect(lookup.statusCode, lookup.body).toBe(200);
    const token = await orderAccessToken(t.db, o.order_id);
    expect(lookup.json()).toMatchObject({ success: true, order_id: o.order_id, status: 'paid', order_url: `/orders/${o.order_id}?token=${token}` });

    // The page now says it is paid; pressing Pay again lands on the same confirmation, no new event.
    const page = await t.app.inject({ url: `/pay/${o.session_id}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('This order is paid');
    expect(page.body).toContain(`href="${ORIGIN}/success?session_id=${o.session_id}"`);
    const again = await payForm(o.session_id, card('4242 4242 4242 4242'));
    expect(again.statusCode).toBe(303);
    expect(deliveries).toHaveLength(1);
    expect((await countRows(t.db)).events - eventsBefore).toBe(1);
  });

  it('retries an event the webhook did not take, with backoff, until it is delivered', async () => {
    const o = await open('retry-delivery-01');
    const embedded = t.app.embeddedPayments;
    let answer = 500;
    const attempts: number[] = [];
    embedded.setDelivery(async (body, signature) => {
      attempts.push(answer);
      if (answer !== 200) return { statusCode: answer, body: 'down for maintenance' };
      const res = await t.app.inject({ method: 'POST', url: '/api/webhooks/stripe', payload: body, headers: { 'content-type': 'application/json', 'stripe-signature': signature } });
      return { statusCode: res.statusCode, body: res.body };
    });
    const res = await payForm(o.session_id, card('4242424242424242'));
    expect(res.statusCode).toBe(303);
    const pending = await t.db.selectFrom('embedded_payment_events').selectAll().where('delivered_at', 'is', null).execute();
    const mine = pending.filter((e) => (e.payload as { data: { object: { id: string } } }).data.object.id === o.session_id);
    expect(mine).toHaveLength(1);
    const event = mine[0]!;
    expect(event.attempts).toBe(1);
    expect(event.last_error).toMatch(/500/);
    expect(event.next_attempt_at.getTime()).toBeGreaterThan(Date.now());
    // Not due yet: nothing is sent.
    expect(await embedded.deliverDue()).toBe(0);
    expect(attempts).toEqual([500]);
    // Due, and the webhook is back.
    answer = 200;
    await t.db.updateTable('embedded_payment_events').set({ next_attempt_at: new Date(Date.now() - 1000) }).where('id', '=', event.id).execute();
    expect(await embedded.deliverDue()).toBe(1);
    const done = await t.db.selectFrom('embedded_payment_events').selectAll().where('id', '=', event.id).executeTakeFirstOrThrow();
    expect(done.delivered_at).not.toBeNull();
    expect(done.attempts).toBe(2);
    const order = await t.db.selectFrom('orders').select('status').where('id', '=', o.order_id).executeTakeFirstOrThrow();
    expect(order.status).toBe('paid');
  });

  it('delivers, from its background loop, an event whose delivery was cut short (as by a restart)', async () => {
    const o = await open('restart-delivery-1');
    const embedded = t.app.embeddedPayments;
    // The process "dies" while delivering: the event is written, the delivery never reports back.
    embedded.setDelivery(() => new Promise(() => {}));
    const paying = payForm(o.session_id, card('4242424242424242'));
    let row;
    for (let i = 0; i < 100 && !row; i++) {
      await new Promise((r) => setTimeout(r, 20));
      row = (await t.db.selectFrom('embedded_payment_events').selectAll().where('delivered_at', 'is', null).execute()).find(
        (e) => (e.payload as { data: { object: { id: string } } }).data.object.id === o.session_id,
      );
    }
    expect(row).toBeDefined();
    // A new process: its loop finds the event once the dead delivery's claim has lapsed.
    await t.db.updateTable('embedded_payment_events').set({ next_attempt_at: new Date(Date.now() - 1) }).where('id', '=', row!.id).execute();
    embedded.setDelivery(async (body, signature) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/webhooks/stripe', payload: body, headers: { 'content-type': 'application/json', 'stripe-signature': signature } });
      return { statusCode: res.statusCode, body: res.body };
    });
    embedded.start(20);
    try {
      let delivered: Date | null = null;
      for (let i = 0; i < 200 && !delivered; i++) {
        await new Promise((r) => setTimeout(r, 25));
        delivered = (await t.db.selectFrom('embedded_payment_events').select('delivered_at').where('id', '=', row!.id).executeTakeFirstOrThrow()).delivered_at;
      }
      expect(delivered).not.toBeNull();
    } finally {
      await embedded.stop();
    }
    expect((await t.db.selectFrom('orders').select('status').where('id', '=', o.order_id).executeTakeFirstOrThrow()).status).toBe('paid');
    void paying;
  });

  it('expires a session left open past its time, with a checkout.session.expired event', async () => {
    const o = await open('expire-session-01');
    await t.db.updateTable('embedded_payment_sessions').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', o.session_id).execute();
    const expired = await t.app.embeddedPayments.expireDue();
    expect(expired).toBeGreaterThanOrEqual(1);
    expect((await session(o.session_id)).status).toBe('expired');
    const events = await t.db.selectFrom('embedded_payment_events').selectAll().where('type', '=', 'checkout.session.expired').execute();
    const mine = events.filter((e) => (e.payload as { data: { object: { id: string } } }).data.object.id === o.session_id);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.payload).toMatchObject({ data: { object: { status: 'expired', payment_status: 'unpaid', metadata: { order_id: o.order_id } } } });
    // Delivered to the webhook, which cancelled the unpaid order.
    expect(mine[0]!.delivered_at).not.toBeNull();
    expect((await t.db.selectFrom('orders').select('status').where('id', '=', o.order_id).executeTakeFirstOrThrow()).status).toBe('cancelled');
    // A second sweep changes nothing; the page says it expired and paying is refused.
    await t.app.embeddedPayments.expireDue();
    expect((await t.db.selectFrom('embedded_payment_events').select('id').where('type', '=', 'checkout.session.expired').execute()).length).toBe(events.length);
    const page = await t.app.inject({ url: `/pay/${o.session_id}` });
    expect(page.body).toContain('This checkout has expired');
    const pay = await payForm(o.session_id, card('4242424242424242'));
    expect(pay.statusCode).toBe(409);
    expect((await session(o.session_id)).payment_status).toBe('unpaid');
  });

  it('refunds a paid session once, announcing charge.refunded', async () => {
    const o = await open('refund-session-01');
    const embedded = t.app.embeddedPayments;
    expect((await payForm(o.session_id, card('4242424242424242'))).statusCode).toBe(303);
    const s = await session(o.session_id);
    await embedded.refund(s.payment_intent_id!);
    await embedded.refund(s.payment_intent_id!);
    expect((await session(o.session_id)).payment_status).toBe('refunded');
    const refunds = (await t.db.selectFrom('embedded_payment_events').selectAll().where('type', '=', 'charge.refunded').execute()).filter(
      (e) => (e.payload as { data: { object: { payment_intent: string } } }).data.object.payment_intent === s.payment_intent_id,
    );
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.payload).toMatchObject({
      type: 'charge.refunded',
      data: { object: { object: 'charge', payment_intent: s.payment_intent_id, amount: s.amount_total, amount_refunded: s.amount_total, refunded: true, metadata: { order_id: o.order_id } } },
    });
    expect((refunds[0]!.payload as { data: { object: { id: string } } }).data.object.id).toMatch(/^ch_/);
    expect(refunds[0]!.delivered_at).not.toBeNull();
    expect((await t.db.selectFrom('orders').select('status').where('id', '=', o.order_id).executeTakeFirstOrThrow()).status).toBe('refunded');
    await expect(embedded.refund('pi_test_nosuchpayment')).rejects.toThrow(/No such payment_intent/);
  });
});

describe('GET /api/orders/:id?token=', () => {
  it("answers the order, its items and history to the holder of the link, and 404 to anyone else", async () => {
    const res = await post(
      '/api/create-checkout-session',
      checkoutBody([{ product_id: product.id, variant_id: variantOf(shirt(), '3XL'), quantity: 3, selected_screenshot: 'thumbnail' }], {
        shipping_address: { zip: '2000', country_code: 'AU' },
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const { order_id } = res.json();
    const token = await orderAccessToken(t.db, order_id);
    const page = await t.app.inject({ url: `/api/orders/${order_id}?token=${token}` });
    expect(page.statusCode, page.body).toBe(200);
    const unit = unitPriceCents(shirt(), '3XL');
    // Australia: one package of three shirts, 14.99 + 2 x 2.20.
    const shipping = 1499 + 2 * 220;
    expect(page.json().order).toMatchObject({
      id: order_id,
      status: 'pending',
      paid_at: null,
      shipping_zip: '2000',
      shipping_country: 'AU',
      shipping_method: 'Standard',
      subtotal_cents: unit * 3,
      shipping_cents: shipping,
      total_cents: unit * 3 + shipping,
      tracking_number: null,
      tracking_url: null,
      items: [
        {
          product_name: 'Unisex T-Shirt',
          sku: 'unisex-tshirt',
          colour: 'Black',
          handle_colour: null,
          size: '3XL',
          quantity: 3,
          unit_price_cents: unit,
          line_total_cents: unit * 3,
          screenshot_url: `/media/screenshots/${product.thumbnailKey}`,
          video_title: product.videoTitle,
        },
      ],
      history: [{ status: 'pending' }],
    });

    for (const url of [
      `/api/orders/${order_id}?token=${token.slice(0, -2)}xx`,
      `/api/orders/${order_id}?token=wrongtoken0000`,
      `/api/orders/00000000-0000-4000-8000-000000000000?token=${token}`,
    ]) {
      const refused = await t.app.inject({ url });
      expect(refused.statusCode, url).toBe(404);
      expect(refused.json().error).toBe(CHECKOUT_MESSAGES.orderNotFound);
    }
    const noSession = await t.app.inject({ url: '/api/checkout/sessions/cs_test_neverissued000' });
    expect(noSession.statusCode).toBe(404);
    expect(noSession.json().error).toBe(CHECKOUT_MESSAGES.orderNotFound);
  });
});

describe('with the built web app served', () => {
  it('answers /pay/:sessionId from the payment page route, not the SPA fallback', async () => {
    const dist = await mkdtemp(path.join(os.tmpdir(), 'framemerch-dist-'));
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>SPA</title><div id="root"></div>');
    const web = await testApp({ config: await testConfig({ PUBLIC_URL: ORIGIN, WEB_DIST: dist }) });
    try {
      const p = await makeMerchProduct(web.db, { captures: 1 });
      const res = await web.app.inject({
        method: 'POST',
        url: '/api/create-checkout-session',
        payload: checkoutBody([{ product_id: p.id, variant_id: variantOf(catalogueProduct(web, 'unisex-tshirt'), 'M'), quantity: 1, selected_screenshot: 0 }]),
        headers: { origin: ORIGIN },
      });
      expect(res.statusCode, res.body).toBe(200);
      const page = await web.app.inject({ url: new URL(res.json().url).pathname });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('name="card_number"');
      expect(page.body).not.toContain('<title>SPA</title>');
      const unknown = await web.app.inject({ url: '/pay/cs_test_unknownsession0' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.body).toContain('Checkout not found');
      expect((await web.app.inject({ url: '/pay/assets/pay.css' })).headers['content-type']).toMatch(/^text\/css/);
      // Other client paths still get the app.
      expect((await web.app.inject({ url: '/checkout' })).body).toContain('<title>SPA</title>');
    } finally {
      await web.close();
      await rm(dist, { recursive: true, force: true });
    }
  });
});
