/**
 * Checkout with the embedded payment provider: the server prices the cart itself, writes the
 * order and its items in one transaction, answers the same order for a repeated request, and
 * refuses bad carts with nothing written; and the buyer's order page behind its secret link.
 * The hosted payment page itself is in embedded-pay.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKOUT_MESSAGES } from '../../../shared/schemas/checkout.ts';
import { unitPriceCents } from '../../../shared/shop/pricing.ts';
import { quoteShipping } from '../../../shared/shop/shipping.ts';
import type { CheckoutSessionRequest, PaymentProvider } from '../../integrations/stripe/index.ts';
import { orderAccessToken } from '../orders/index.ts';
import { catalogueProduct, CHECKOUT_ORIGIN as ORIGIN, checkoutBody, checkoutClient, countRows, makeMerchProduct, variantOf, type TestProduct } from '../../test/checkout-support.ts';
import { testApp, testConfig, type TestApp } from '../../test/harness.ts';
import { signedInCreator } from '../../test/upload-helpers.ts';
import { SESSION_COOKIE } from '../../platform/sessions/sessions.ts';
import { insertPendingOrder } from './repository.ts';
import { SMS_CONSENT_MESSAGE } from './routes.ts';

let t: TestApp;

/** The app's payment provider, with its checkout sessions opened by `open` instead. */
function openingSessionsWith(real: PaymentProvider, open: (r: CheckoutSessionRequest) => ReturnType<PaymentProvider['createCheckoutSession']>): PaymentProvider {
  return {
    kind: real.kind,
    createCheckoutSession: open,
    createSubscriptionCheckout: real.createSubscriptionCheckout.bind(real),
    retrieveSubscriptionSession: real.retrieveSubscriptionSession.bind(real),
    retrieveSubscription: real.retrieveSubscription.bind(real),
    manageSubscriptionUrl: real.manageSubscriptionUrl.bind(real),
    verifyWebhook: real.verifyWebhook.bind(real),
    refund: real.refund.bind(real),
    succeededPayments: real.succeededPayments.bind(real),
  };
}
let product: TestProduct;

beforeAll(async () => {
  t = await testApp({ config: await testConfig({ PUBLIC_URL: ORIGIN }) });
  product = await makeMerchProduct(t.db, { captures: 2 });
});
afterAll(async () => t?.close());

const { post, session } = checkoutClient(() => t);
const shirt = () => catalogueProduct(t, 'unisex-tshirt');
const mug = () => catalogueProduct(t, 'white-glossy-mug');

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

  it("binds a key to its first request: another cart, email, address or buyer with it gets 409 and nothing of that order", async () => {
    const line = { product_id: product.id, variant_id: variantOf(shirt(), 'L'), quantity: 1, selected_screenshot: 0 as const };
    const first = checkoutBody([line], { email: 'first-buyer@example.com', idempotency_key: 'bound-key-0000001' });
    const made = await post('/api/create-checkout-session', first);
    expect(made.statusCode, made.body).toBe(200);
    const before = await countRows(t.db);
    // The same request again, as typed differently (spaces, case): the same order.
    const again = await post('/api/create-checkout-session', { ...first, email: ' First-Buyer@example.com ', shipping_address: { zip: ' 10001 ', country_code: 'us' } });
    expect(again.json()).toEqual(made.json());
    const others = [
      { ...first, email: 'someone-else@example.com' },
      { ...first, cart: [{ ...line, quantity: 2 }] },
      { ...first, cart: [{ ...line, variant_id: variantOf(shirt(), 'XL') }] },
      { ...first, shipping_address: { zip: '94105', country_code: 'US' } },
      { ...first, sms_consent: true },
    ];
    for (const other of others) {
      for (const url of ['/api/create-checkout-session', '/api/place-order']) {
        const res = await post(url, other);
        expect(res.statusCode, `${url} ${JSON.stringify(other)}: ${res.body}`).toBe(409);
        expect(res.json()).toEqual({ success: false, code: 'CONFLICT', error: CHECKOUT_MESSAGES.keyReused });
        expect(res.body).not.toContain(made.json().order_id);
      }
    }
    // A signed-in buyer who sends the same body with that key is another buyer.
    const buyer = await signedInCreator(t, 'bound-key-buyer');
    const signedIn = await post('/api/create-checkout-session', first, { cookie: `${SESSION_COOKIE}=${buyer.cookies[SESSION_COOKIE]}` });
    expect(signedIn.statusCode).toBe(409);
    expect(await countRows(t.db)).toEqual(before);
  });

  it('makes a new order for each request without a key', async () => {
    const body = checkoutBody([{ product_id: product.id, variant_id: variantOf(shirt(), 'S'), quantity: 1, selected_screenshot: 0 }]);
    const a = (await post('/api/create-checkout-session', body)).json();
    const b = (await post('/api/create-checkout-session', body)).json();
    expect(a.order_id).not.toBe(b.order_id);
    expect(a.session_id).not.toBe(b.session_id);
  });

  it('stores the SMS consent as given (false when left out), and refuses anything but a boolean (400) with nothing written', async () => {
    const line = { product_id: product.id, variant_id: variantOf(shirt(), 'M'), quantity: 1, selected_screenshot: 0 as const };
    const consentOf = async (extra: Record<string, unknown>) => {
      const res = await post('/api/create-checkout-session', { ...checkoutBody([line]), ...extra });
      expect(res.statusCode, res.body).toBe(200);
      const row = await t.db.selectFrom('orders').select('sms_consent').where('id', '=', res.json().order_id).executeTakeFirstOrThrow();
      return row.sms_consent;
    };
    expect(await consentOf({ sms_consent: true })).toBe(true);
    expect(await consentOf({ sms_consent: false })).toBe(false);
    expect(await consentOf({})).toBe(false);

    const before = await countRows(t.db);
    for (const url of ['/api/create-checkout-session', '/api/place-order']) {
      for (const value of ['true', 'yes', 1, 0, null, {}, []]) {
        const res = await post(url, { ...checkoutBody([line]), sms_consent: value });
        expect(res.statusCode, `${url} ${JSON.stringify(value)}: ${res.body}`).toBe(400);
        expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', error: SMS_CONSENT_MESSAGE });
      }
    }
    expect(await countRows(t.db)).toEqual(before);
  });

  it('answers 502 when the payment provider fails, leaving the order pending with no session; a retry opens it', async () => {
    const real = t.app.payments;
    const failing = openingSessionsWith(real, async () => {
      throw new Error('provider down');
    });
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

  it('asks the provider for a new order exactly what a repeated request reads back from the stored order', async () => {
    const real = t.app.payments;
    const asked: CheckoutSessionRequest[] = [];
    const recording = openingSessionsWith(real, async (r) => {
      asked.push(r);
      return real.createCheckoutSession(r);
    });
    const body = checkoutBody(
      [
        { product_id: product.id, variant_id: variantOf(shirt(), '2XL', 'Navy'), quantity: 2, selected_screenshot: 1 },
        { product_id: product.id, variant_id: variantOf(mug(), '15oz'), quantity: 1, selected_screenshot: 'thumbnail' },
      ],
      { email: 'same-ask@example.com', idempotency_key: 'same-ask-0000001', shipping_address: { zip: 'sw1a 1aa', country_code: 'gb' } },
    );
    (t.app as { payments: PaymentProvider }).payments = recording;
    try {
      const first = await post('/api/create-checkout-session', body);
      const again = await post('/api/create-checkout-session', body);
      expect(first.statusCode, first.body).toBe(200);
      expect(again.json()).toEqual(first.json());
    } finally {
      (t.app as { payments: PaymentProvider }).payments = real;
    }
    expect(asked).toHaveLength(2);
    expect(asked[0]).toMatchObject({ shippingZip: 'SW1A 1AA', shippingCountry: 'GB', customerEmail: 'same-ask@example.com' });
    expect(asked[0]!.lineItems.map((l) => l.imageUrl)).toEqual([
      `${ORIGIN}/media/screenshots/${product.captureKeys[1]}`,
      `${ORIGIN}/media/screenshots/${product.thumbnailKey}`,
    ]);
    // The second request found the order by its key and read the request back from the stored rows.
    expect(asked[1]).toEqual(asked[0]);
  });

  it('writes an order, its items and its history all together or not at all', async () => {
    const before = await countRows(t.db);
    const order = {
      customer_user_id: null,
      customer_email: null,
      shipping_zip: '10001',
      shipping_country: 'US' as const,
      shipping_method: 'Standard',
      subtotal_cents: 2169,
      shipping_cents: 475,
      total_cents: 2644,
      sms_consent: false,
      idempotency_key: 'all-or-nothing-01',
      idempotency_fingerprint: 'f'.repeat(64),
    };
    const item = {
      position: 0,
      sku: 'unisex-tshirt',
      product_name: 'Unisex T-Shirt',
      merch_product_id: product.id,
      screenshot_id: product.screenshotIds.captures[0]!,
      video_id: product.videoId,
      creator_id: product.creatorId,
      colour: 'Black',
      handle_colour: null,
      size: 'M',
      quantity: 1,
      unit_price_cents: 2169,
      size_surcharge_cents: 0,
      base_cost_cents: shirt().baseCostCents,
      line_total_cents: 2169,
    };
    // The second item names a product the catalogue does not have: the database refuses it, and with it the whole order.
    await expect(insertPendingOrder(t.db, order, [item, { ...item, position: 1, sku: 'no-such-sku' }], 'Order created')).rejects.toThrow();
    expect(await countRows(t.db)).toEqual(before);

    const id = await insertPendingOrder(t.db, order, [item], 'Order created');
    expect(id).toBeTruthy();
    // The same key again writes nothing and answers null.
    expect(await insertPendingOrder(t.db, order, [item], 'Order created')).toBeNull();
    const after = await countRows(t.db);
    expect([after.orders - before.orders, after.items - before.items, after.history - before.history]).toEqual([1, 1, 1]);
  });

  it('limits checkouts per address with Retry-After (loopback is exempt outside production)', async () => {
    const from = { remoteAddress: '203.0.113.7' };
    const send = () => t.app.inject({ method: 'POST', url: '/api/create-checkout-session', payload: checkoutBody([]), headers: { origin: ORIGIN }, ...from });
    for (let i = 0; i < 60; i++) expect((await send()).statusCode).toBe(400);
    const limited = await send();
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Another address, and loopback, are not held back.
    const other = await t.app.inject({ method: 'POST', url: '/api/create-checkout-session', payload: checkoutBody([]), headers: { origin: ORIGIN }, remoteAddress: '203.0.113.8' });
    expect(other.statusCode).toBe(400);
    expect((await post('/api/create-checkout-session', checkoutBody([]))).statusCode).toBe(400);
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
      // No street address until the payment collects one.
      shipping_name: null,
      shipping_address_lines: [],
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
