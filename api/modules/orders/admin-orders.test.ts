/**
 * The admin's orders: the list (search by a whole id, the start of one, or the customer email;
 * by status; paged newest first without skips or repeats), one order with its items and status
 * history, a full refund through the embedded payment provider (the order turns refunded and the
 * creator's earnings are reversed by the provider's event; logged once; a repeat, a concurrent
 * request, an unpaid or cancelled order answer 409; a provider's refusal 502 with nothing
 * logged; a provider that confirms later leaves the order paid, a refund on its way), and a failed fulfilment queued again (logged; 409 for anything but a paid order whose
 * fulfilment failed). Admins only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ORDER_MESSAGES as M, type AdminOrderDetail, type AdminOrderRow } from '../../../shared/schemas/admin-orders.ts';
import { AUTH_MESSAGES } from '../../../shared/schemas/auth.ts';
import type { OrderStatus } from '../../platform/db/schema.ts';
import { hex, order as plainOrder, person, send, type Person } from '../../test/admin-support.ts';
import { ORIGIN } from '../../test/browser.ts';
import { catalogueProduct, checkoutBody, checkoutClient, makeMerchProduct, testCard, variantOf, type TestProduct } from '../../test/checkout-support.ts';
import { testApp, testConfig, type TestApp } from '../../test/harness.ts';
import { completedEvent, deliver, makeOrder, refundedEvent, type TestOrder } from '../../test/webhook-support.ts';
import { refundOrder } from './admin-service.ts';

let t: TestApp;
let admin: Person;
let creator: Person;
let product: TestProduct;

beforeAll(async () => {
  t = await testApp({ config: await testConfig({ PUBLIC_URL: ORIGIN }) });
  admin = await person(t, { admin: true, name: 'Ada Admin' });
  creator = await person(t, { role: 'creator', name: 'Cora Creator' });
  product = await makeMerchProduct(t.db, { creatorId: creator.id, captures: 1 });
});
afterAll(async () => t?.close());

const { post, payForm } = checkoutClient(() => t);

/** An order paid at the embedded provider through its payment page: earnings credited, fulfil job queued. */
async function paidOrder(email = `buyer-${hex()}@example.com`): Promise<string> {
  const shirt = catalogueProduct(t, 'unisex-tshirt');
  const res = await post(
    '/api/create-checkout-session',
    checkoutBody([{ product_id: product.id, variant_id: variantOf(shirt, 'M'), quantity: 2, selected_screenshot: 0 }], { idempotency_key: `admin-orders-${hex(8)}`, email }),
  );
  expect(res.statusCode, res.body).toBe(200);
  const { order_id, session_id } = res.json() as { order_id: string; session_id: string };
  const paid = await payForm(session_id, testCard('4242424242424242', { email }));
  expect(paid.statusCode, paid.body).toBe(303);
  expect(await statusOf(order_id)).toBe('paid');
  return order_id;
}

/** A paid order the embedded provider has never heard of (its payment event delivered by hand). */
async function paidElsewhereOrder(): Promise<TestOrder> {
  const o = await makeOrder(t.db, [{ sku: 'unisex-tshirt', size: 'M', quantity: 1, creatorId: creator.id }]);
  expect((await deliver(t, completedEvent(o))).statusCode).toBe(200);
  return o;
}
const paidElsewhere = async () => (await paidElsewhereOrder()).id;

const statusOf = async (id: string) => (await t.db.selectFrom('orders').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
const logsAbout = (id: string) => t.db.selectFrom('admin_logs').selectAll().where('target_id', '=', id).orderBy('id').execute();
const fulfilJob = (id: string) => t.db.selectFrom('jobs').selectAll().where('dedupe_key', '=', `fulfil:${id}`).executeTakeFirstOrThrow();
const creatorTotals = () => t.db.selectFrom('users').select(['total_earnings_cents', 'pending_payout_cents']).where('id', '=', creator.id).executeTakeFirstOrThrow();
const earningsOf = (orderId: string) =>
  t.db
    .selectFrom('earnings as e')
    .innerJoin('order_items as i', 'i.id', 'e.order_item_id')
    .select(['e.kind', 'e.creator_share_cents'])
    .where('i.order_id', '=', orderId)
    .orderBy('e.created_at')
    .execute();

const list = async (as: Person | null, query: string) => send(t, as, { url: `/api/admin/orders${query}` });
const ids = async (query: string): Promise<string[]> => {
  const res = await list(admin, query);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().orders as AdminOrderRow[]).map((o) => o.id);
};
const detail = async (id: string): Promise<AdminOrderDetail> => {
  const res = await send(t, admin, { url: `/api/admin/orders/${id}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().order as AdminOrderDetail;
};
const refund = (as: Person | null, id: string, payload: Record<string, unknown> = { confirm: true }) =>
  send(t, as, { method: 'POST', url: `/api/admin/orders/${id}/refund`, payload });
const retry = (as: Person | null, id: string) => send(t, as, { method: 'POST', url: `/api/admin/orders/${id}/retry-fulfilment` });

/** An order written straight into the database, with an email and a creation time. */
async function rawOrder(email: string | null, status: OrderStatus = 'pending', createdAt?: Date): Promise<string> {
  const row = await t.db
    .insertInto('orders')
    .values({
      status,
      customer_email: email,
      shipping_zip: '10001',
      shipping_country: 'US',
      subtotal_cents: 1000,
      shipping_cents: 475,
      total_cents: 1475,
      ...(createdAt ? { created_at: createdAt } : {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

describe('the order list', () => {
  it('finds an order by its whole id, in any case, and by the start of its id as the order page writes it', async () => {
    const id = await rawOrder(`find-${hex()}@example.com`);
    expect(await ids(`?q=${id}`)).toEqual([id]);
    expect(await ids(`?q=${id.toUpperCase()}`)).toEqual([id]);
    expect(await ids(`?q=${encodeURIComponent(`  ${id} `)}`)).toEqual([id]);
    // The start of the id: the first group, the first two with their hyphen, in upper case, and without hyphens.
    expect(await ids(`?q=${id.slice(0, 8)}`)).toContain(id);
    expect(await ids(`?q=${id.slice(0, 13)}`)).toContain(id);
    expect(await ids(`?q=${id.slice(0, 13).toUpperCase()}`)).toContain(id);
    expect(await ids(`?q=${id.replace(/-/g, '').slice(0, 14)}`)).toContain(id);
    // A whole id that is no order's finds nothing; nor does a start that is not this id's.
    expect(await ids('?q=00000000-0000-4000-8000-000000000000')).toEqual([]);
    const other = id.slice(0, 7) + (id[7] === 'f' ? '0' : 'f');
    expect(await ids(`?q=${other}`)).not.toContain(id);
  });

  it('finds orders by customer email in any case, with % and _ taken as typed', async () => {
    const tag = hex();
    const plain = await rawOrder(`Mixed.Case-${tag}@Example.com`);
    const percent = await rawOrder(`per%cent-${tag}@example.com`);
    const notPercent = await rawOrder(`perXcent-${tag}@example.com`);
    const under = await rawOrder(`under_score-${tag}@example.com`);
    const notUnder = await rawOrder(`underXscore-${tag}@example.com`);
    expect(await ids(`?q=mixed.case-${tag}@EXAMPLE.COM`)).toEqual([plain]);
    expect(await ids(`?q=MIXED.CASE-${tag}`)).toEqual([plain]);
    expect(await ids(`?q=${encodeURIComponent(`per%cent-${tag}`)}`)).toEqual([percent]);
    expect(await ids(`?q=${encodeURIComponent(`under_score-${tag}`)}`)).toEqual([under]);
    expect(new Set(await ids(`?q=${tag}`))).toEqual(new Set([plain, percent, notPercent, under, notUnder]));
    // Text with an '@' is an email only; an order without an email is found by its id.
    const noEmail = await rawOrder(null);
    expect(await ids(`?q=${noEmail.slice(0, 8)}`)).toContain(noEmail);
    expect(await ids(`?q=${noEmail.slice(0, 8)}@`)).not.toContain(noEmail);
  });

  it('filters by status', async () => {
    const tag = hex();
    const refunded = await rawOrder(`status-${tag}@example.com`, 'refunded');
    const shipped = await rawOrder(`status-${tag}@example.com`, 'shipped');
    expect(await ids(`?q=status-${tag}&status=refunded`)).toEqual([refunded]);
    expect(await ids(`?q=status-${tag}&status=shipped`)).toEqual([shipped]);
    const res = await list(admin, '?status=refunded&limit=100');
    expect((res.json().orders as AdminOrderRow[]).every((o) => o.status === 'refunded')).toBe(true);
    expect((await list(admin, '?status=lost')).statusCode).toBe(400);
  });

  it('pages newest first with the cursor, with no order skipped or repeated (orders made at the same moment too)', async () => {
    const tag = hex();
    const same = new Date(Date.now() - 60_000);
    const made: string[] = [];
    for (let i = 0; i < 9; i++) made.push(await rawOrder(`page-${tag}-${i}@example.com`, 'pending', same));
    for (let i = 0; i < 8; i++) made.push(await rawOrder(`page-${tag}-x${i}@example.com`, 'pending', new Date(same.getTime() - (i + 1) * 1000)));
    const seen: AdminOrderRow[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await list(admin, `?q=page-${tag}&limit=4${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['cache-control']).toBe('private, no-store');
      const body = res.json() as { orders: AdminOrderRow[]; next_cursor: string | null };
      expect(body.orders.length).toBeLessThanOrEqual(4);
      seen.push(...body.orders);
      cursor = body.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(5);
    expect(seen).toHaveLength(made.length);
    expect(new Set(seen.map((o) => o.id))).toEqual(new Set(made));
    // Newest first, ties by id descending.
    const sorted = [...seen].sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1));
    expect(seen.map((o) => o.id)).toEqual(sorted.map((o) => o.id));

    // 20 a page by default; more than 100 or a cursor this API did not make is refused.
    const all = await list(admin, '');
    expect((all.json().orders as unknown[]).length).toBeLessThanOrEqual(20);
    expect((await list(admin, '?limit=101')).statusCode).toBe(400);
    const bad = await list(admin, '?cursor=bm9wZQ');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe(M.badCursor);
  });

  it('shows each order with its items, totals and fulfilment state', async () => {
    const email = `row-${hex()}@example.com`;
    const id = await paidOrder(email);
    const noJob = await rawOrder(email);
    const rows = (await list(admin, `?q=${email}`)).json().orders as AdminOrderRow[];
    expect(rows.map((r) => r.id)).toEqual([noJob, id]);
    expect(rows[1]).toMatchObject({ id, customer_email: email, status: 'paid', item_count: 2, refunded_at: null, fulfilment: 'queued' });
    expect(rows[1]!.paid_at).not.toBeNull();
    const stored = await t.db.selectFrom('orders').select(['total_cents', 'subtotal_cents']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored.subtotal_cents).toBe(2 * 2169);
    expect(rows[1]!.total_cents).toBe(stored.total_cents);
    expect(rows[0]).toMatchObject({ id: noJob, status: 'pending', item_count: 0, paid_at: null, fulfilment: 'none' });
  });
});

describe('one order', () => {
  it('shows the items, the payment, the fulfilment and the status history', async () => {
    const id = await paidOrder();
    const o = await detail(id);
    expect(o).toMatchObject({
      id,
      status: 'paid',
      subtotal_cents: 2 * 2169,
      shipping_country: 'US',
      payment_provider: 'embedded',
      fulfilment_provider: null,
      fulfilment_order_id: null,
      tracking_url: null,
      fulfilment: 'queued',
      last_fulfilment_error: null,
      refund_requested_at: null,
      items: [{ label: 'Unisex T-Shirt (Black, M)', quantity: 2, unit_price_cents: 2169, creator_username: creator.username }],
      can_refund: true,
      can_retry_fulfilment: false,
    });
    expect(o.total_cents).toBe(o.subtotal_cents + o.shipping_cents);
    expect(o.history.map((h) => [h.from_status, h.to_status, h.reason])).toEqual([
      [null, 'pending', 'Order created'],
      ['pending', 'paid', 'Payment received'],
    ]);

    const missing = await send(t, admin, { url: '/api/admin/orders/00000000-0000-4000-8000-000000000000' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ success: false, error: M.orderNotFound, code: 'NOT_FOUND' });
    expect((await send(t, admin, { url: '/api/admin/orders/not-an-id' })).statusCode).toBe(400);
  });
});

describe('refund', () => {
  it("refunds a paid order in full: the order turns refunded, the creator's earnings are reversed, logged once; again is 409", async () => {
    const id = await paidOrder();
    const sales = await earningsOf(id);
    expect(sales.map((e) => e.kind)).toEqual(['sale']);
    const share = Number(sales[0]!.creator_share_cents);
    expect(share).toBeGreaterThan(0);
    const before = await creatorTotals();

    const res = await refund(admin, id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const body = res.json() as { message: string; order: AdminOrderDetail };
    expect(body.message).toBe(M.refunded);
    expect(body.order).toMatchObject({ id, status: 'refunded', can_refund: false, can_retry_fulfilment: false, refund_requested_at: null });
    expect(body.order.refunded_at).not.toBeNull();
    expect(body.order.history.at(-1)).toMatchObject({ from_status: 'paid', to_status: 'refunded', reason: 'Payment refunded' });

    // Reversed as the provider's event does it: a reversal per sale, the pending balance down by the share.
    const after = await earningsOf(id);
    expect(after.map((e) => [e.kind, Number(e.creator_share_cents)])).toEqual([
      ['sale', share],
      ['reversal', -share],
    ]);
    const totals = await creatorTotals();
    expect(before.pending_payout_cents - totals.pending_payout_cents).toBe(share);
    expect(before.total_earnings_cents - totals.total_earnings_cents).toBe(share);

    const logs = await logsAbout(id);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ admin_user_id: admin.id, action_type: 'refund_order', target_type: 'order', target_id: id, details: { payment_provider: 'embedded', status_before: 'paid' } });

    const again = await refund(admin, id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ success: false, error: M.alreadyRefunded, code: 'CONFLICT' });
    expect(await logsAbout(id)).toHaveLength(1);
    expect(await earningsOf(id)).toHaveLength(2);
  });

  it('refunds once when two requests arrive together', async () => {
    const id = await paidOrder();
    const answers = await Promise.all([refund(admin, id), refund(admin, id)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await statusOf(id)).toBe('refunded');
    expect(await logsAbout(id)).toHaveLength(1);
    const events = await t.db.selectFrom('embedded_payment_events').select('payload').where('type', '=', 'charge.refunded').execute();
    expect(events.filter((e) => JSON.stringify(e.payload).includes(id))).toHaveLength(1);
  });

  it('refuses an order never paid, a cancelled one, a missing one and an unconfirmed request, logging nothing', async () => {
    const pending = await rawOrder(`unpaid-${hex()}@example.com`, 'pending');
    const r1 = await refund(admin, pending);
    expect(r1.statusCode).toBe(409);
    expect(r1.json().error).toBe(M.notPaid);
    const cancelled = await rawOrder(null, 'cancelled');
    const r2 = await refund(admin, cancelled);
    expect(r2.statusCode).toBe(409);
    expect(r2.json().error).toBe(M.cancelled);
    const missing = await refund(admin, '00000000-0000-4000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe(M.orderNotFound);
    const paid = await paidOrder();
    for (const payload of [{}, { confirm: false }, { confirm: 'yes' }]) expect((await refund(admin, paid, payload)).statusCode).toBe(400);
    expect(await statusOf(paid)).toBe('paid');
    for (const id of [pending, cancelled, paid]) expect(await logsAbout(id)).toEqual([]);
    expect((await detail(pending)).can_refund).toBe(false);
  });

  it('answers 502 with the reason when the provider refuses: nothing changes, nothing is logged, and it may be tried again', async () => {
    const id = await paidElsewhere();
    const res = await refund(admin, id);
    expect(res.statusCode).toBe(502);
    expect(res.json().code).toBe('SERVICE_UNAVAILABLE');
    expect(res.json().error).toMatch(/^The payment provider refused the refund, so nothing changed: No such payment_intent/);
    expect(await statusOf(id)).toBe('paid');
    expect(await logsAbout(id)).toEqual([]);
    const o = await detail(id);
    expect(o).toMatchObject({ status: 'paid', refund_requested_at: null, can_refund: true });
    // Not held as a refund on its way: the next request goes to the provider again.
    expect((await refund(admin, id)).statusCode).toBe(502);
  });

  it("answers at once when the provider confirms later (as Stripe does): the order stays paid until the provider's event", async () => {
    const o = await paidElsewhereOrder();
    const asked: string[] = [];
    const later = { refund: async (paymentIntentId: string) => void asked.push(paymentIntentId) };
    const res = await refundOrder({ db: t.db, payments: later }, admin.id, o.id, true);
    expect(asked).toEqual([o.paymentIntentId]);
    expect(res.message).toBe(M.refundSent);
    expect(res.order).toMatchObject({ status: 'paid', refunded_at: null, can_refund: false });
    expect(res.order.refund_requested_at).not.toBeNull();
    expect(await logsAbout(o.id)).toHaveLength(1);
    // Asked again before the provider's answer: refused, not sent, not logged.
    await expect(refundOrder({ db: t.db, payments: later }, admin.id, o.id, true)).rejects.toMatchObject({ statusCode: 409, message: M.refundPending });
    expect(asked).toHaveLength(1);
    const viaApi = await refund(admin, o.id);
    expect(viaApi.statusCode).toBe(409);
    expect(viaApi.json().error).toBe(M.refundPending);
    // The provider's event arrives: refunded, the request no longer shown, the earnings reversed.
    expect((await deliver(t, refundedEvent(o))).statusCode).toBe(200);
    expect(await detail(o.id)).toMatchObject({ status: 'refunded', refund_requested_at: null, can_refund: false });
    expect((await earningsOf(o.id)).map((e) => e.kind)).toEqual(['sale', 'reversal']);
    expect(await logsAbout(o.id)).toHaveLength(1);
  });

  it('refuses a second request while a refund awaits the provider, and sends it again once that is old', async () => {
    const id = await paidOrder();
    await t.db.updateTable('orders').set({ refund_requested_at: new Date() }).where('id', '=', id).execute();
    expect((await detail(id)).can_refund).toBe(false);
    const res = await refund(admin, id);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe(M.refundPending);
    expect(await logsAbout(id)).toEqual([]);

    await t.db.updateTable('orders').set({ refund_requested_at: new Date(Date.now() - 60 * 60_000) }).where('id', '=', id).execute();
    expect((await detail(id)).can_refund).toBe(true);
    const later = await refund(admin, id);
    expect(later.statusCode, later.body).toBe(200);
    expect(later.json().order.status).toBe('refunded');
    expect(await logsAbout(id)).toHaveLength(1);
  });
});

describe('retry a failed fulfilment', () => {
  async function failJob(orderId: string) {
    await t.db
      .updateTable('jobs')
      .set({ status: 'failed', attempts: 12, last_error: 'The print shop is down.', run_after: new Date(Date.now() - 3600_000) })
      .where('dedupe_key', '=', `fulfil:${orderId}`)
      .execute();
  }

  it('queues the failed job again from its first attempt, logged once; again is 409', async () => {
    const id = await paidElsewhere();
    await failJob(id);
    const before = await detail(id);
    expect(before).toMatchObject({ fulfilment: 'failed', last_fulfilment_error: 'The print shop is down.', can_retry_fulfilment: true });
    expect(((await list(admin, `?q=${id}`)).json().orders as AdminOrderRow[])[0]!.fulfilment).toBe('failed');

    const res = await retry(admin, id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.json()).toMatchObject({ success: true, message: M.retryQueued, order: { id, status: 'paid', fulfilment: 'queued', can_retry_fulfilment: false } });
    const job = await fulfilJob(id);
    expect(job).toMatchObject({ status: 'queued', attempts: 0, locked_by: null, locked_until: null });
    expect(job.run_after.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    expect(job.run_after.getTime()).toBeGreaterThan(Date.now() - 60_000);
    const logs = await logsAbout(id);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ admin_user_id: admin.id, action_type: 'retry_fulfilment', target_type: 'order', target_id: id, details: { job_id: job.id, attempts_before: 12 } });

    const again = await retry(admin, id);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(M.retryNotFailed('queued'));
    expect(await logsAbout(id)).toHaveLength(1);
  });

  it('refuses an order that is not paid, refunded, without a job, or whose job has not failed', async () => {
    const queued = await paidElsewhere();
    const r1 = await retry(admin, queued);
    expect(r1.statusCode).toBe(409);
    expect(r1.json().error).toBe(M.retryNotFailed('queued'));

    const pending = await rawOrder(null, 'pending');
    expect((await retry(admin, pending)).json().error).toBe(M.retryNotPaid);

    const refunded = await paidOrder();
    await failJob(refunded);
    expect((await refund(admin, refunded)).statusCode).toBe(200);
    const r3 = await retry(admin, refunded);
    expect(r3.statusCode).toBe(409);
    expect(r3.json().error).toBe(M.retryRefunded);
    expect((await detail(refunded)).can_retry_fulfilment).toBe(false);
    expect((await fulfilJob(refunded)).status).toBe('failed');

    const noJob = await plainOrder(t, 'paid', 1000, 475);
    expect((await retry(admin, noJob)).json().error).toBe(M.retryNoJob);
    expect((await retry(admin, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    for (const id of [queued, pending, noJob]) expect(await logsAbout(id)).toEqual([]);
    expect((await logsAbout(refunded)).map((l) => l.action_type)).toEqual(['refund_order']);
  });
});

describe('who may', () => {
  it('answers 401 signed out and 403 to anyone but an admin, changing nothing', async () => {
    const customer = await person(t, { role: 'customer' });
    const id = await paidElsewhere();
    await t.db.updateTable('jobs').set({ status: 'failed' }).where('dedupe_key', '=', `fulfil:${id}`).execute();
    const calls = (as: Person | null) => [list(as, ''), send(t, as, { url: `/api/admin/orders/${id}` }), refund(as, id), retry(as, id)];
    for (const res of await Promise.all(calls(null))) {
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe(AUTH_MESSAGES.notAuthenticated);
    }
    for (const who of [customer, creator]) {
      for (const res of await Promise.all(calls(who))) {
        expect(res.statusCode).toBe(403);
        expect(res.json().error).toBe(AUTH_MESSAGES.adminRequired);
      }
    }
    expect(await statusOf(id)).toBe('paid');
    expect((await fulfilJob(id)).status).toBe('failed');
    expect(await logsAbout(id)).toEqual([]);
  });
});
