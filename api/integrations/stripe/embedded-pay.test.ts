/**
 * The embedded payment provider's hosted page (/pay/{session}): the test card pays (one signed
 * event, delivered to the webhook and retried until taken), the declining card and mistyped
 * fields change nothing, open sessions expire, refunds are announced; and the page is served
 * ahead of the web app's fallback.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhookBody } from './index.ts';
import { orderAccessToken } from '../../modules/orders/index.ts';
import { catalogueProduct, CHECKOUT_ORIGIN as ORIGIN, checkoutBody, checkoutClient, countRows, makeMerchProduct, testCard as card, variantOf, type TestProduct } from '../../test/checkout-support.ts';
import { testApp, testConfig, type TestApp } from '../../test/harness.ts';

let t: TestApp;
let product: TestProduct;

beforeAll(async () => {
  t = await testApp({ config: await testConfig({ PUBLIC_URL: ORIGIN }) });
  product = await makeMerchProduct(t.db, { captures: 2 });
});
afterAll(async () => t?.close());

const { post, payForm, session } = checkoutClient(() => t);
const shirt = () => catalogueProduct(t, 'unisex-tshirt');

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
    for (const field of ['email', 'name', 'address_line1', 'address_line2', 'city', 'state', 'postal_code', 'card_number', 'expiry', 'cvc']) expect(html).toContain(`name="${field}"`);
    expect(html).toContain('value="prefill@example.com"');
    // The address is in the quoted country, its postal code starting as the quoted ZIP.
    expect(html).toContain('Country: <strong>United States</strong>');
    expect(html).toMatch(/name="postal_code"[^>]*value="10001"/);
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
      // Every required part of the address; the state too, in the United States.
      ...(['name', 'address_line1', 'city', 'state', 'postal_code'] as const).map((field): [Record<string, string>, RegExp] => [card('4242 4242 4242 4242', { [field]: '  ' }), /Your shipping address is incomplete\./]),
      [card('4242 4242 4242 4242', { address_line1: 'x'.repeat(201) }), /Your shipping address is incomplete\./],
    ];
    for (const [fields, message] of cases) {
      const res = await payForm(o.session_id, fields);
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(res.body).toMatch(message);
    }
    // What was typed comes back, except the card number and CVC.
    const kept = await payForm(o.session_id, card('4242 4242 4242 4242', { city: '' }));
    expect(kept.body).toMatch(/name="address_line1"[^>]*value="1 Main St"/);
    expect(kept.body).toMatch(/name="state"[^>]*value="NY"/);
    expect(kept.body).toMatch(/<input id="card_number"(?![^>]*value=)[^>]*>/);
    expect(kept.body).toMatch(/<input id="cvc"(?![^>]*value=)[^>]*>/);
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
          // The address given on the page, in the quoted country, where Stripe puts it.
          collected_information: {
            shipping_details: { name: 'Pat Buyer', address: { line1: '1 Main St', line2: 'Apt 2', city: 'New York', state: 'NY', postal_code: '10001', country: 'US' } },
          },
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
    // The order keeps the name and street address for the print shop.
    const shippedTo = await t.db.selectFrom('orders').select(['shipping_name', 'shipping_address']).where('id', '=', o.order_id).executeTakeFirstOrThrow();
    expect(shippedTo).toEqual({
      shipping_name: 'Pat Buyer',
      shipping_address: { address1: '1 Main St', address2: 'Apt 2', city: 'New York', state_code: 'NY', zip: '10001', country_code: 'US' },
    });
    const orderPage = await t.app.inject({ url: `/api/orders/${o.order_id}?token=${token}` });
    expect(orderPage.json().order).toMatchObject({ shipping_name: 'Pat Buyer', shipping_address_lines: ['1 Main St', 'Apt 2', 'New York, NY 10001', 'United States'] });

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
