/**
 * POST /api/webhooks/stripe: each payment event takes effect exactly once however it is
 * delivered (repeated, concurrent, out of order), and an event whose signature does not check
 * out changes nothing. Orders are written straight into the database as checkout leaves them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../accounts/index.ts';
import { checkOrderAccessToken } from '../orders/index.ts';
import { testApp, type TestApp } from '../../test/harness.ts';
import {
  completedEvent,
  deliver,
  expiredEvent,
  makeOrder,
  makeVideo,
  refundedEvent,
  type LineSpec,
  type TestOrder,
} from '../../test/webhook-support.ts';

let t: TestApp;
let creatorId: string;
let videoId: string;

beforeAll(async () => {
  t = await testApp();
  const creator = await createUser(t.db, { email: 'maker@example.com', displayName: 'Maker', role: 'creator', emailVerified: true });
  creatorId = creator.id;
  videoId = await makeVideo(t.db, creatorId, 'Sunset timelapse');
});
afterAll(async () => t?.close());

const shirt = (): LineSpec => ({ sku: 'unisex-tshirt', size: 'M', quantity: 1, creatorId, videoId });
const mug = (): LineSpec => ({ sku: 'white-glossy-mug', size: '11oz', quantity: 2, creatorId, videoId });

async function effects(order: TestOrder) {
  const o = await t.db.selectFrom('orders').selectAll().where('id', '=', order.id).executeTakeFirstOrThrow();
  const history = await t.db.selectFrom('order_status_history').select(['from_status', 'to_status', 'event_id']).where('order_id', '=', order.id).orderBy('id').execute();
  const jobs = await t.db
    .selectFrom('jobs')
    .select(['kind', 'payload', 'dedupe_key'])
    .where('kind', '=', 'order.fulfil')
    .where('dedupe_key', '=', `fulfil:${order.id}`)
    .execute();
  const earnings = await t.db
    .selectFrom('earnings')
    .select(['order_item_id', 'user_id', 'kind', 'amount_cents', 'margin_cents', 'creator_share_cents', 'source'])
    .where('order_item_id', 'in', order.itemIds)
    .orderBy('kind', 'desc')
    .execute();
  const mail = await t.db.selectFrom('email_outbox').select(['to_address', 'subject', 'payload', 'template']).where('dedupe_key', '=', `order-confirmation:${order.id}`).execute();
  return { order: o, history, jobs, earnings, mail };
}

async function processedCount() {
  const row = await t.db.selectFrom('processed_webhook_events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

async function creatorTotals() {
  return t.db.selectFrom('users').select(['total_earnings_cents', 'pending_payout_cents']).where('id', '=', creatorId).executeTakeFirstOrThrow();
}

describe('checkout.session.completed', () => {
  it('delivered 10 times in a row: one paid transition, one fulfilment job, one earning per item, one email', async () => {
    const order = await makeOrder(t.db, [shirt(), mug()], { email: null });
    const event = completedEvent(order);
    const before = await creatorTotals();
    const replies = [];
    for (let i = 0; i < 10; i++) replies.push(await deliver(t, event));
    expect(replies.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    expect(replies.map((r) => r.json().duplicate)).toEqual([false, ...Array(9).fill(true)]);

    const e = await effects(order);
    expect(e.order.status).toBe('paid');
    expect(e.order.payment_intent_id).toBe(order.paymentIntentId);
    expect(e.order.paid_at).toBeInstanceOf(Date);
    // The order had no email: the one the buyer paid with is kept, and gets the confirmation.
    expect(e.order.customer_email).toBe('paid-with@example.com');
    expect(e.history.filter((h) => h.to_status === 'paid')).toEqual([{ from_status: 'pending', to_status: 'paid', event_id: event.id }]);
    expect(e.jobs).toHaveLength(1);
    expect(e.jobs[0]!.payload).toEqual({ orderId: order.id });
    expect(e.earnings).toHaveLength(2);
    expect(e.earnings.map((r) => r.kind)).toEqual(['sale', 'sale']);
    expect(new Set(e.earnings.map((r) => r.order_item_id))).toEqual(new Set(order.itemIds));
    expect(e.mail).toHaveLength(1);
    expect(e.mail[0]!.to_address).toBe('paid-with@example.com');

    // Shirt M: margin 21.69 - 11.69 = 10.00, creator 7.00. Mug 11oz x2: (16.95 - 6.95) x 2 = 20.00, creator 14.00.
    const after = await creatorTotals();
    expect(after.total_earnings_cents - before.total_earnings_cents).toBe(700 + 1400);
    expect(after.pending_payout_cents - before.pending_payout_cents).toBe(700 + 1400);
  });

  it('delivered 50 times at once: exactly one takes effect, the rest answer 200 duplicate', async () => {
    const order = await makeOrder(t.db, [shirt(), mug()]);
    const event = completedEvent(order);
    const replies = await Promise.all(Array.from({ length: 50 }, () => deliver(t, event)));
    expect(replies.map((r) => r.statusCode)).toEqual(Array(50).fill(200));
    expect(replies.filter((r) => r.json().duplicate === false)).toHaveLength(1);
    expect(replies.filter((r) => r.json().duplicate === true)).toHaveLength(49);

    const e = await effects(order);
    expect(e.order.status).toBe('paid');
    expect(e.history.filter((h) => h.to_status === 'paid')).toHaveLength(1);
    expect(e.jobs).toHaveLength(1);
    expect(e.earnings).toHaveLength(2);
    expect(e.mail).toHaveLength(1);
    // The order's own email wins over the one given at payment.
    expect(e.mail[0]!.to_address).toBe('buyer@example.com');
  });

  it("mails the order id, its items, the total and the order's secret link", async () => {
    const order = await makeOrder(t.db, [shirt(), { sku: 'unisex-tshirt', size: '2XL', quantity: 2, creatorId, videoId, colour: 'Navy' }]);
    expect((await deliver(t, completedEvent(order))).statusCode).toBe(200);
    const { mail } = await effects(order);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.template).toBe('order-confirmation');
    expect(mail[0]!.subject).toContain(order.id);
    const text = String((mail[0]!.payload as { text: string }).text);
    expect(text).toContain(`Order ${order.id}`);
    expect(text).toContain('1 x Unisex T-Shirt (Black, M): $21.69');
    // 2XL: 21.69 + 1.65 = 23.34 each.
    expect(text).toContain('2 x Unisex T-Shirt (Navy, 2XL): $46.68');
    expect(text).toContain('Shipping (Standard, US 10001): $4.75');
    // No street address was collected for this order: no address block.
    expect(text).not.toContain('Ships to:');
    expect(text).toContain(`Total: $${((2169 + 4668 + 475) / 100).toFixed(2)}`);
    const link = /(http\S+\/orders\/([0-9a-f-]{36})\?token=(\S+))/.exec(text);
    expect(link, text).not.toBeNull();
    expect(link![1]!.startsWith(`${t.config.publicUrl}/orders/`)).toBe(true);
    expect(link![2]).toBe(order.id);
    expect(await checkOrderAccessToken(t.db, order.id, link![3]!)).toBe(true);
  });

  it('keeps the street address the hosted checkout collected, for the print shop', async () => {
    const order = await makeOrder(t.db, [shirt()]);
    const shipping_details = {
      name: 'Ada Buyer',
      address: { line1: '1 Main St', line2: 'Apt 4', city: 'New York', state: 'NY', postal_code: '10001-1234', country: 'US' },
    };
    // Newer Stripe API versions put it under collected_information.
    expect((await deliver(t, completedEvent(order, { collected_information: { shipping_details } }))).statusCode).toBe(200);
    const { order: row } = await effects(order);
    expect(row.shipping_name).toBe('Ada Buyer');
    expect(row.shipping_address).toEqual({ address1: '1 Main St', address2: 'Apt 4', city: 'New York', state_code: 'NY', zip: '10001-1234', country_code: 'US' });
    // The confirmation, written in the same transaction, says where it ships.
    const text = String(((await effects(order)).mail[0]!.payload as { text: string }).text);
    expect(text).toContain('Ships to:\n  Ada Buyer\n  1 Main St\n  Apt 4\n  New York, NY 10001-1234\n  United States\n');

    // A checkout that collected none leaves the order's address as it was.
    const other = await makeOrder(t.db, [shirt()]);
    expect((await deliver(t, completedEvent(other))).statusCode).toBe(200);
    expect((await effects(other)).order).toMatchObject({ status: 'paid', shipping_address: null });
  });

  it('for an unknown order, another order, or a different amount: recorded, no effect', async () => {
    const order = await makeOrder(t.db, [shirt()]);
    const other = await makeOrder(t.db, [shirt()]);
    const events = [
      completedEvent(order, { metadata: { order_id: '00000000-0000-4000-8000-000000000000' } }),
      completedEvent(order, { metadata: { order_id: other.id } }),
      completedEvent(order, { metadata: { order_id: 'not-a-uuid' }, id: 'cs_test_unknown_session' }),
      completedEvent(order, { amount_total: order.totalCents - 1 }),
      completedEvent(order, { payment_status: 'unpaid' }),
    ];
    const before = await processedCount();
    for (const ev of events) {
      const res = await deliver(t, ev);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ received: true, duplicate: false });
    }
    expect(await processedCount()).toBe(before + events.length);
    for (const o of [order, other]) {
      const e = await effects(o);
      expect(e.order.status).toBe('pending');
      expect(e.jobs).toHaveLength(0);
      expect(e.earnings).toHaveLength(0);
      expect(e.mail).toHaveLength(0);
    }
  });
  it('many orders sharing two creators, paid at once: every order paid once, every creator total exact', async () => {
    const other = await createUser(t.db, { email: 'second-maker@example.com', displayName: 'Second', role: 'creator', emailVerified: true });
    const otherVideo = await makeVideo(t.db, other.id, 'Second video');
    const theirs: LineSpec = { sku: 'unisex-tshirt', size: 'S', quantity: 1, creatorId: other.id, videoId: otherVideo };
    const orders = [];
    // Half list one creator first, half the other: their totals are updated in a fixed order all the same.
    for (let i = 0; i < 20; i++) orders.push(await makeOrder(t.db, i % 2 ? [shirt(), theirs] : [theirs, shirt()]));
    const before = await creatorTotals();
    const replies = await Promise.all(orders.map((o) => deliver(t, completedEvent(o))));
    expect(replies.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    for (const o of orders) expect((await effects(o)).order.status).toBe('paid');
    expect((await creatorTotals()).total_earnings_cents - before.total_earnings_cents).toBe(20 * 700);
    const theirTotals = await t.db.selectFrom('users').select('total_earnings_cents').where('id', '=', other.id).executeTakeFirstOrThrow();
    expect(theirTotals.total_earnings_cents).toBe(20 * 700);
  });
});

describe('refused events', () => {
  it('a forged signature, a wrong secret, a stale timestamp, a re-serialised body, no signature: 400 and nothing written', async () => {
    const order = await makeOrder(t.db, [shirt()]);
    const event = completedEvent(order);
    const body = JSON.stringify(event);
    const now = Math.floor(Date.now() / 1000);
    const { data, ...rest } = event;
    const reserialised = JSON.stringify({ data, ...rest }, null, 2);
    expect(JSON.parse(reserialised)).toEqual(event);
    const attempts = [
      { name: 'forged', opts: { signature: `t=${now},v1=${'ab'.repeat(32)}` } },
      { name: 'wrong secret', opts: { secret: 'whsec_not_the_secret_of_this_server_000000' } },
      { name: '301 s old', opts: { timestamp: now - 301 } },
      { name: 're-serialised', opts: { sentBody: reserialised } },
      { name: 'no signature', opts: { signature: null } },
    ];
    const before = await processedCount();
    for (const a of attempts) {
      const res = await deliver(t, body, a.opts);
      expect(res.statusCode, a.name).toBe(400);
      expect(res.json(), a.name).toEqual({ success: false, error: 'The event signature could not be verified.', code: 'INVALID_SIGNATURE' });
    }
    expect(await processedCount()).toBe(before);
    const e = await effects(order);
    expect(e.order.status).toBe('pending');
    expect(e.history.map((h) => h.to_status)).toEqual(['pending']);
    expect(e.jobs).toHaveLength(0);
    expect(e.earnings).toHaveLength(0);
    expect(e.mail).toHaveLength(0);

    // The same event, correctly signed and within the tolerance, is then accepted.
    const ok = await deliver(t, body, { timestamp: now - 299 });
    expect(ok.statusCode).toBe(200);
    expect((await effects(order)).order.status).toBe('paid');
  });

  it('malformed JSON, or JSON that is no event, with a valid signature: 400, not 500', async () => {
    const before = await processedCount();
    const malformed = await deliver(t, '{"id": "evt_1", "type": ');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe('MALFORMED_REQUEST');
    for (const notEvent of ['[]', '{"id": 5, "type": "charge.refunded", "data": {"object": {}}}', '{"id": "evt_test_x", "type": "charge.refunded"}', '"text"']) {
      const res = await deliver(t, notEvent);
      expect(res.statusCode, notEvent).toBe(400);
      expect(res.json().code, notEvent).toBe('MALFORMED_REQUEST');
    }
    expect(await processedCount()).toBe(before);
  });

  it('a body that is not JSON is refused as such', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/webhooks/stripe', headers: { 'content-type': 'text/plain', 'stripe-signature': 't=1,v1=00' }, payload: 'hello' });
    expect(res.statusCode).toBe(415);
    const big = await deliver(t, JSON.stringify({ id: 'evt_big', type: 'x', data: { object: { pad: 'x'.repeat(1024 * 1024) } } }));
    expect(big.statusCode).toBe(413);
  });
});

describe('refunds and out-of-order events', () => {
  async function netPerItem(order: TestOrder) {
    const { earnings } = await effects(order);
    return order.itemIds.map((id) => {
      const rows = earnings.filter((r) => r.order_item_id === id);
      return {
        rows: rows.map((r) => r.kind).sort(),
        amount: rows.reduce((s, r) => s + r.amount_cents, 0),
        margin: rows.reduce((s, r) => s + r.margin_cents, 0),
        share: rows.reduce((s, r) => s + r.creator_share_cents, 0),
      };
    });
  }

  it('completed then refunded: refunded, each sale reversed (a sale and a reversal per item, netting to zero)', async () => {
    const order = await makeOrder(t.db, [shirt(), mug()]);
    const before = await creatorTotals();
    expect((await deliver(t, completedEvent(order))).statusCode).toBe(200);
    const refund = refundedEvent(order);
    expect((await deliver(t, refund)).json()).toEqual({ received: true, duplicate: false });
    expect((await deliver(t, refund)).json()).toEqual({ received: true, duplicate: true });

    const e = await effects(order);
    expect(e.order.status).toBe('refunded');
    expect(e.order.refunded_at).toBeInstanceOf(Date);
    expect(e.history.map((h) => `${h.from_status}->${h.to_status}`)).toEqual(['null->pending', 'pending->paid', 'paid->refunded']);
    expect(await netPerItem(order)).toEqual([
      { rows: ['reversal', 'sale'], amount: 0, margin: 0, share: 0 },
      { rows: ['reversal', 'sale'], amount: 0, margin: 0, share: 0 },
    ]);
    const reversal = e.earnings.find((r) => r.kind === 'reversal' && r.order_item_id === order.itemIds[0]);
    expect(reversal).toMatchObject({ amount_cents: -2169, margin_cents: -1000, creator_share_cents: -700, user_id: creatorId });
    expect(await creatorTotals()).toEqual(before);
  });

  it('refunded then completed: refunded, never paid, fulfilled, mailed or credited (no earning rows)', async () => {
    const order = await makeOrder(t.db, [shirt(), mug()]);
    const before = await creatorTotals();
    // Stripe's charge does not carry the session's metadata: the order is found by its payment.
    await t.db
      .insertInto('embedded_payment_sessions')
      .values({
        id: order.sessionId,
        order_id: order.id,
        amount_total: order.totalCents,
        line_items: JSON.stringify([]),
        metadata: JSON.stringify({}),
        payment_intent_id: order.paymentIntentId,
        success_url: 'http://localhost/success',
        cancel_url: 'http://localhost/checkout',
        expires_at: new Date(Date.now() + 3600_000),
      })
      .execute();
    expect((await deliver(t, refundedEvent(order, { metadata: {} }))).statusCode).toBe(200);
    expect((await deliver(t, completedEvent(order))).json()).toEqual({ received: true, duplicate: false });

    const e = await effects(order);
    expect(e.order.status).toBe('refunded');
    expect(e.order.paid_at).toBeNull();
    expect(e.history.map((h) => `${h.from_status}->${h.to_status}`)).toEqual(['null->pending', 'pending->refunded']);
    expect(e.jobs).toHaveLength(0);
    expect(e.mail).toHaveLength(0);
    expect(await netPerItem(order)).toEqual([
      { rows: [], amount: 0, margin: 0, share: 0 },
      { rows: [], amount: 0, margin: 0, share: 0 },
    ]);
    expect(await creatorTotals()).toEqual(before);
  });

  it('a partial refund leaves the order paid and the earnings in place', async () => {
    const order = await makeOrder(t.db, [shirt()]);
    await deliver(t, completedEvent(order));
    expect((await deliver(t, refundedEvent(order, { amount_refunded: 500, refunded: false }))).statusCode).toBe(200);
    const e = await effects(order);
    expect(e.order.status).toBe('paid');
    expect(e.earnings.map((r) => r.kind)).toEqual(['sale']);
  });
});

describe('other events', () => {
  it('checkout.session.expired cancels a pending order, and never a paid one; a payment after the expiry revives the order', async () => {
    const order = await makeOrder(t.db, [shirt()]);
    expect((await deliver(t, expiredEvent(order))).statusCode).toBe(200);
    let e = await effects(order);
    expect(e.order.status).toBe('cancelled');
    expect(e.history.map((h) => h.to_status)).toEqual(['pending', 'cancelled']);
    expect(e.jobs).toHaveLength(0);
    // The buyer paid all the same: the order is revived, with every effect of a payment once.
    await deliver(t, completedEvent(order));
    e = await effects(order);
    expect(e.order.status).toBe('paid');
    expect(e.history.map((h) => h.to_status)).toEqual(['pending', 'cancelled', 'paid']);
    expect(e.earnings.map((r) => r.kind)).toEqual(['sale']);
    expect(e.jobs).toHaveLength(1);
    expect(e.mail).toHaveLength(1);

    const paid = await makeOrder(t.db, [shirt()]);
    await deliver(t, completedEvent(paid));
    await deliver(t, expiredEvent(paid));
    expect((await effects(paid)).order.status).toBe('paid');
  });

  it('20 events for one order at once, expiries among them, 20 times: every run ends paid, each effect once', async () => {
    for (let run = 0; run < 20; run++) {
      const order = await makeOrder(t.db, [shirt()]);
      const events = Array.from({ length: 20 }, (_, i) => (i % 3 === run % 3 ? completedEvent(order) : expiredEvent(order)));
      const replies = await Promise.all(events.map((ev) => deliver(t, ev)));
      expect(replies.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
      const e = await effects(order);
      expect(e.order.status, `run ${run}`).toBe('paid');
      expect(e.history.filter((h) => h.to_status === 'paid'), `run ${run}`).toHaveLength(1);
      expect(e.earnings.map((r) => r.kind), `run ${run}`).toEqual(['sale']);
      expect(e.jobs, `run ${run}`).toHaveLength(1);
      expect(e.mail, `run ${run}`).toHaveLength(1);
    }
  });

  it('a payment of another amount than the order total is refunded, and the order left unpaid', async () => {
    const order = await makeOrder(t.db, [shirt()]);
    await deliver(t, completedEvent(order, { amount_total: order.totalCents - 1 }));
    const e = await effects(order);
    expect(e.order.status).toBe('pending');
    expect(e.earnings).toHaveLength(0);
    const refunds = await t.db.selectFrom('jobs').select(['kind', 'payload']).where('dedupe_key', '=', `refund:${order.paymentIntentId}`).execute();
    expect(refunds).toEqual([{ kind: 'payment.refund', payload: expect.objectContaining({ orderId: order.id, paymentIntentId: order.paymentIntentId }) }]);
  });

  it('an event type nobody handles is recorded and answered 200, with no effect', async () => {
    const order = await makeOrder(t.db, [shirt()]);
    const ev = { ...completedEvent(order), type: 'customer.created' };
    const before = await processedCount();
    expect((await deliver(t, ev)).json()).toEqual({ received: true, duplicate: false });
    expect((await deliver(t, ev)).json()).toEqual({ received: true, duplicate: true });
    expect(await processedCount()).toBe(before + 1);
    const row = await t.db.selectFrom('processed_webhook_events').selectAll().where('event_id', '=', ev.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ provider: 'stripe', event_type: 'customer.created' });
    const e = await effects(order);
    expect(e.order.status).toBe('pending');
    expect(e.history).toHaveLength(1);
  });
});

describe('earnings', () => {
  it('credits 70 % of the margin per item, half-up to the cent; surcharges and shipping carry none; items without a creator earn nothing', async () => {
    const order = await makeOrder(t.db, [
      // 21.69 - 11.69 = 10.00 margin: creator 7.00, house 3.00.
      { sku: 'unisex-tshirt', size: 'L', quantity: 1, creatorId, videoId },
      // 2XL costs 23.34 but the 1.65 surcharge is no margin: 2 x 10.00 = 20.00, creator 14.00.
      { sku: 'unisex-tshirt', size: '2XL', quantity: 2, creatorId, videoId },
      // 4.29 - 2.57 = 1.72: 70 % is 1.204, creator 1.20 (down), house 0.52.
      { sku: 'kiss-cut-stickers', size: '3x3', quantity: 1, creatorId, videoId },
      // 2 x 1.72 = 3.44: 70 % is 2.408, creator 2.41 (up), house 1.03. The 5.5x5.5 surcharge (0.40) carries no margin.
      { sku: 'kiss-cut-stickers', size: '5.5x5.5', quantity: 2, creatorId, videoId },
      // No creator (the video was deleted): no earning.
      { sku: 'unisex-tshirt', size: 'M', quantity: 1, creatorId: null, videoId: null },
    ]);
    const before = await creatorTotals();
    expect((await deliver(t, completedEvent(order))).statusCode).toBe(200);
    const rows = await t.db
      .selectFrom('earnings')
      .innerJoin('order_items', 'order_items.id', 'earnings.order_item_id')
      .select(['order_items.position', 'earnings.user_id', 'earnings.kind', 'earnings.amount_cents', 'earnings.margin_cents', 'earnings.creator_share_cents', 'earnings.source'])
      .where('order_items.order_id', '=', order.id)
      .orderBy('order_items.position')
      .execute();
    const sale = { user_id: creatorId, kind: 'sale', source: 'Product Sale' };
    expect(rows).toEqual([
      { position: 0, ...sale, amount_cents: 2169, margin_cents: 1000, creator_share_cents: 700 },
      { position: 1, ...sale, amount_cents: 4668, margin_cents: 2000, creator_share_cents: 1400 },
      { position: 2, ...sale, amount_cents: 429, margin_cents: 172, creator_share_cents: 120 },
      { position: 3, ...sale, amount_cents: 938, margin_cents: 344, creator_share_cents: 241 },
    ]);
    const after = await creatorTotals();
    expect(after.total_earnings_cents - before.total_earnings_cents).toBe(700 + 1400 + 120 + 241);
  });
});
