/**
 * The payment portal (GET /api/payouts/portal) and the monthly statement (GET
 * /api/payouts/statement): balances read from the earning records, the threshold, the next and
 * last payout, the recent lists (capped and newest first), and the statement's CSV with its
 * escaping and formula neutralising. Earnings and payouts are written straight into the tables
 * (the payout run is another change), with buyer details on every order that must never show.
 */
import type { InjectOptions } from 'fastify';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PORTAL_MESSAGES } from '../../../shared/schemas/payouts.ts';
import { ORIGIN } from '../../test/browser.ts';
import { testApp, type TestApp } from '../../test/harness.ts';
import { EMPTY_PAYOUT_SETUP } from '../../test/payout-support.ts';
import { signedInCreator } from '../../test/upload-helpers.ts';
import { comingFirstOfMonth, isPayoutSetUp, orderRef } from './portal.ts';
import { csvField, csvText, dollars, earningDescription, payoutDescription, statementCsv, statementMonth } from './statement.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => t?.close());

type Me = Awaited<ReturnType<typeof signedInCreator>>;
let counter = 0;
const creator = () => signedInCreator(t, `portal${++counter}`);

const as = (me: Me, opts: InjectOptions) => t.app.inject({ ...opts, headers: { ...me.headers, ...(opts.headers as object) }, cookies: me.cookies });
const portal = (me: Me) => as(me, { method: 'GET', url: '/api/payouts/portal' });
const statement = (me: Me, month: string) => as(me, { method: 'GET', url: `/api/payouts/statement?month=${encodeURIComponent(month)}` });
const setUpPaypal = async (me: Me, email = `${me.user.username}-paypal@example.com`) => {
  const res = await as(me, { method: 'PUT', url: '/api/payouts/method', payload: { method: 'paypal', paypal_email: email } });
  expect(res.statusCode, res.body).toBe(200);
  return email;
};

/** Buyer details every test order carries: none may reach a portal or a statement. */
const BUYER = { email: 'buyer.secret@example.com', name: 'Bea Buyer-Secret', zip: '10001' };

async function video(userId: string, title: string): Promise<string> {
  const row = await t.db
    .insertInto('videos')
    .values({ user_id: userId, title, video_key: `videos/${randomBytes(6).toString('hex')}.mp4`, content_type: 'video/mp4', size_bytes: 1000, duration_ms: 5000, verification_status: 'approved' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A paid order with one item of the creator's; answers the order and the item. */
async function orderItem(creatorId: string, opts: { productName?: string; videoId?: string | null } = {}) {
  const order = await t.db
    .insertInto('orders')
    .values({
      status: 'paid',
      customer_email: BUYER.email,
      shipping_name: BUYER.name,
      shipping_zip: BUYER.zip,
      shipping_country: 'US',
      shipping_address: JSON.stringify({ name: BUYER.name, address_line1: '1 Secret St' }),
      subtotal_cents: 2500,
      shipping_cents: 500,
      total_cents: 3000,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const item = await t.db
    .insertInto('order_items')
    .values({
      order_id: order.id,
      position: 0,
      sku: 'unisex-tshirt',
      product_name: opts.productName ?? 'Unisex T-Shirt',
      video_id: opts.videoId ?? null,
      creator_id: creatorId,
      colour: 'Black',
      size: 'M',
      quantity: 1,
      unit_price_cents: 2500,
      base_cost_cents: 1200,
      line_total_cents: 2500,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { orderId: order.id, itemId: item.id };
}

/** One earning record: a sale of `share` cents, or its reversal (kind 'reversal', the share negated). */
async function earning(userId: string, share: number, opts: { kind?: 'sale' | 'reversal'; at?: Date; itemId?: string | null; payoutId?: string | null } = {}) {
  const kind = opts.kind ?? 'sale';
  const sign = kind === 'sale' ? 1 : -1;
  const row = await t.db
    .insertInto('earnings')
    .values({
      user_id: userId,
      order_item_id: opts.itemId ?? null,
      kind,
      amount_cents: sign * share * 2,
      margin_cents: sign * share * 2,
      creator_share_cents: sign * share,
      payout_id: opts.payoutId ?? null,
      ...(opts.at ? { created_at: opts.at } : {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function payout(
  userId: string,
  opts: { amount: number; fee?: number; period: string; date?: string; status?: 'pending' | 'processing' | 'paid' | 'failed'; method?: 'paypal' | 'ach' | 'stripe_connect' },
) {
  const row = await t.db
    .insertInto('payouts')
    .values({
      user_id: userId,
      amount_cents: opts.amount,
      fee_cents: opts.fee ?? 0,
      method: opts.method ?? 'paypal',
      period: opts.period,
      payout_date: opts.date ?? opts.period,
      status: opts.status ?? 'paid',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const thisMonth = () => new Date().toISOString().slice(0, 7);
const monthOf = (offset: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1)).toISOString().slice(0, 7);
};

describe('GET /api/payouts/portal', () => {
  it('for a creator with no setup: nothing earned, payouts not set up, nothing scheduled', async () => {
    const me = await creator();
    const res = await portal(me);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toContain('no-store');
    expect(res.json()).toEqual({
      success: true,
      setup: EMPTY_PAYOUT_SETUP,
      total_earnings_cents: 0,
      pending_payout_cents: 0,
      payout_threshold_cents: 5000,
      ready_for_payout: false,
      last_payout_date: null,
      next_payout_date: null,
      recent_earnings: [],
      recent_payouts: [],
    });
  });

  it('with PayPal set up: below $50 it is not ready and no payout is scheduled; at $50 it is ready for the coming 1st', async () => {
    const me = await creator();
    const email = await setUpPaypal(me);
    await earning(me.user.id, 3000);
    await earning(me.user.id, 1999);
    let body = (await portal(me)).json();
    expect(body).toMatchObject({
      setup: { preferred_payment_method: 'paypal', payout_enabled: true, paypal_email: email },
      total_earnings_cents: 4999,
      pending_payout_cents: 4999,
      ready_for_payout: false,
      last_payout_date: null,
      next_payout_date: null,
    });

    await earning(me.user.id, 1);
    body = (await portal(me)).json();
    expect(body).toMatchObject({ total_earnings_cents: 5000, pending_payout_cents: 5000, ready_for_payout: true, next_payout_date: comingFirstOfMonth(new Date()) });
    expect(body.next_payout_date).toMatch(/^\d{4}-\d{2}-01$/);
    expect(body.next_payout_date > new Date().toISOString().slice(0, 10)).toBe(true);

    await earning(me.user.id, 120_000);
    body = (await portal(me)).json();
    expect(body).toMatchObject({ total_earnings_cents: 125_000, pending_payout_cents: 125_000, ready_for_payout: true });
  });

  it('is never ready without a payment method, however much is pending', async () => {
    const me = await creator();
    await earning(me.user.id, 90_000);
    expect((await portal(me)).json()).toMatchObject({ pending_payout_cents: 90_000, ready_for_payout: false, next_payout_date: null });
  });

  it('a refund after a payout leaves a negative balance; a failed payout gives its earnings back; an in-flight one holds them', async () => {
    const me = await creator();
    await setUpPaypal(me);
    const { itemId } = await orderItem(me.user.id);
    const paid = await payout(me.user.id, { amount: 6000, fee: 204, period: '2025-03-01', date: '2025-03-01', status: 'paid' });
    await earning(me.user.id, 6000, { itemId, payoutId: paid, at: new Date('2025-02-10T12:00:00Z') });
    await earning(me.user.id, 6000, { itemId, kind: 'reversal', at: new Date('2025-03-05T12:00:00Z') });
    let body = (await portal(me)).json();
    expect(body).toMatchObject({ total_earnings_cents: 0, pending_payout_cents: -6000, ready_for_payout: false, last_payout_date: '2025-03-01' });

    // Later earnings pay the debt off first.
    await earning(me.user.id, 4000);
    body = (await portal(me)).json();
    expect(body).toMatchObject({ total_earnings_cents: 4000, pending_payout_cents: -2000, ready_for_payout: false });

    // A failed payout's earnings are pending again; a processing one's are not; neither is the last payout date.
    const failed = await payout(me.user.id, { amount: 7000, period: '2025-04-01', status: 'failed' });
    await earning(me.user.id, 7000, { payoutId: failed });
    const inFlight = await payout(me.user.id, { amount: 9000, period: '2025-05-01', status: 'processing' });
    await earning(me.user.id, 9000, { payoutId: inFlight });
    body = (await portal(me)).json();
    expect(body).toMatchObject({ total_earnings_cents: 20_000, pending_payout_cents: 5000, ready_for_payout: true, last_payout_date: '2025-03-01' });
  });

  it('lists the latest 10 earnings and the latest 5 payouts, newest first, with no buyer data', async () => {
    const me = await creator();
    const title = `Sunset ${randomBytes(3).toString('hex')}`;
    const videoId = await video(me.user.id, title);
    const items: { orderId: string; itemId: string }[] = [];
    for (let i = 0; i < 12; i++) {
      const item = await orderItem(me.user.id, { productName: `Mug ${i}`, videoId });
      items.push(item);
      await earning(me.user.id, 100 + i, { itemId: item.itemId, at: new Date(Date.UTC(2025, 0, 1 + i, 12)) });
    }
    await earning(me.user.id, 111, { itemId: items[11]!.itemId, kind: 'reversal', at: new Date(Date.UTC(2025, 0, 20, 12)) });
    const periods = ['2024-09-01', '2024-10-01', '2024-11-01', '2024-12-01', '2025-01-01', '2025-02-01', '2025-03-01'];
    // Written out of order: the reply sorts them.
    for (const [i, period] of [...periods.entries()].reverse()) {
      await payout(me.user.id, { amount: 5000 + i, fee: i, period, date: period.replace(/-01$/, '-02'), status: i === 6 ? 'processing' : i === 5 ? 'failed' : 'paid', method: i % 2 ? 'ach' : 'paypal' });
    }

    const res = await portal(me);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.recent_earnings).toHaveLength(10);
    expect(body.recent_earnings[0]).toEqual({
      date: '2025-01-20T12:00:00.000Z',
      kind: 'reversal',
      source: 'Product Sale',
      product_name: 'Mug 11',
      video_title: title,
      order_ref: orderRef(items[11]!.orderId),
      creator_share_cents: -111,
    });
    expect(body.recent_earnings[1]).toMatchObject({ date: '2025-01-12T12:00:00.000Z', kind: 'sale', product_name: 'Mug 11', creator_share_cents: 111 });
    expect(body.recent_earnings.map((e: { product_name: string }) => e.product_name)).toEqual(['Mug 11', 'Mug 11', 'Mug 10', 'Mug 9', 'Mug 8', 'Mug 7', 'Mug 6', 'Mug 5', 'Mug 4', 'Mug 3']);
    expect(body.recent_earnings[0].order_ref).toMatch(/^[0-9A-F]{8}$/);

    expect(body.recent_payouts).toEqual([
      { date: '2025-03-02', period: '2025-03', amount_cents: 5006, fee_cents: 6, method: 'paypal', status: 'processing' },
      { date: '2025-02-02', period: '2025-02', amount_cents: 5005, fee_cents: 5, method: 'ach', status: 'failed' },
      { date: '2025-01-02', period: '2025-01', amount_cents: 5004, fee_cents: 4, method: 'paypal', status: 'paid' },
      { date: '2024-12-02', period: '2024-12', amount_cents: 5003, fee_cents: 3, method: 'ach', status: 'paid' },
      { date: '2024-11-02', period: '2024-11', amount_cents: 5002, fee_cents: 2, method: 'paypal', status: 'paid' },
    ]);
    // The last payout is the latest paid one, not the failed or the processing one.
    expect(body.last_payout_date).toBe('2025-01-02');

    for (const secret of [BUYER.email, BUYER.name, 'Secret St', ...items.map((i) => i.orderId)]) expect(res.body).not.toContain(secret);
  });

  it("shows a creator their own figures only, never another creator's", async () => {
    const [a, b] = [await creator(), await creator()];
    const paypal = await setUpPaypal(a);
    const { itemId } = await orderItem(a.user.id, { productName: 'Only-A Hoodie' });
    await earning(a.user.id, 7777, { itemId });
    await payout(a.user.id, { amount: 8888, period: '2025-01-01' });
    const res = await portal(b);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ total_earnings_cents: 0, pending_payout_cents: 0, recent_earnings: [], recent_payouts: [], last_payout_date: null });
    for (const secret of [paypal, 'Only-A Hoodie', '7777', '8888']) expect(res.body).not.toContain(secret);
  });

  it('shows only the last 4 digits of a bank account', async () => {
    const me = await creator();
    const res = await as(me, { method: 'PUT', url: '/api/payouts/method', payload: { method: 'ach', routing_number: '021000021', account_number: '000123456789', holder_name: 'Pat Payee', account_type: 'checking' } });
    expect(res.statusCode, res.body).toBe(200);
    const got = await portal(me);
    expect(got.json().setup.ach).toEqual({ routing_last4: '0021', account_last4: '6789', account_type: 'checking', holder_name: 'Pat Payee', verified: false });
    expect(got.body).not.toContain('021000021');
    expect(got.body).not.toContain('123456789');
  });
});

/** The CSV's rows, split as a spreadsheet would (no field here holds a line break). */
function csvRows(text: string): string[][] {
  expect(text.startsWith('\uFEFF')).toBe(true);
  expect(text.endsWith('\r\n')).toBe(true);
  return text
    .slice(1, -2)
    .split('\r\n')
    .map((line) => {
      const cells: string[] = [];
      let cell = '';
      let quoted = false;
      for (let i = 0; i < line.length; i++) {
        const ch = line[i]!;
        if (quoted && ch === '"' && line[i + 1] === '"') {
          cell += '"';
          i++;
        } else if (ch === '"') {
          quoted = !quoted;
        } else if (ch === ',' && !quoted) {
          cells.push(cell);
          cell = '';
        } else {
          cell += ch;
        }
      }
      cells.push(cell);
      return cells;
    });
}

describe('GET /api/payouts/statement', () => {
  it("answers the month's earnings, reversals and payouts as a CSV attachment, with totals, escaped and neutralised", async () => {
    const me = await creator();
    const title = 'Live, "unplugged"';
    const videoId = await video(me.user.id, title);
    const sale1 = await orderItem(me.user.id, { productName: '=HYPERLINK("http://evil.example","click")', videoId });
    const sale2 = await orderItem(me.user.id, { productName: 'Classic Mug', videoId });
    const sale3 = await orderItem(me.user.id, { productName: '@SUM(A1:A9)' });
    await earning(me.user.id, 910, { itemId: sale1.itemId, at: new Date('2025-05-03T09:00:00Z') });
    await earning(me.user.id, 455, { itemId: sale2.itemId, at: new Date('2025-05-10T23:59:59Z') });
    await earning(me.user.id, 455, { itemId: sale2.itemId, kind: 'reversal', at: new Date('2025-05-20T08:00:00Z') });
    await earning(me.user.id, 1234, { itemId: sale3.itemId, at: new Date('2025-05-31T23:59:59.999Z') });
    // Outside May: the day before and the first instant of June.
    await earning(me.user.id, 1, { at: new Date('2025-04-30T23:59:59.999Z') });
    await earning(me.user.id, 2, { at: new Date('2025-06-01T00:00:00Z') });
    await payout(me.user.id, { amount: 123_456, fee: 3610, period: '2025-05-01', date: '2025-05-01', status: 'paid' });
    await payout(me.user.id, { amount: 7000, fee: 25, period: '2025-04-01', date: '2025-04-01', status: 'paid', method: 'ach' });
    // Another creator's May is not in it.
    const other = await creator();
    await earning(other.user.id, 4242, { at: new Date('2025-05-15T12:00:00Z') });

    const res = await statement(me, '2025-05');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="framemerch-statement-2025-05.csv"');
    expect(res.headers['cache-control']).toContain('no-store');
    const ref = (id: string) => orderRef(id)!;
    expect(csvRows(res.body)).toEqual([
      ['Date', 'Type', 'Description', 'Method', 'Status', 'Amount (USD)', 'Fee (USD)'],
      ['2025-05-01', 'payout', 'Earnings up to 2025-04-30', 'PayPal', 'paid', '1234.56', '36.10'],
      ['2025-05-03', 'sale', `'=HYPERLINK("http://evil.example","click") from "${title}" (order ${ref(sale1.orderId)})`, '', '', '9.10', ''],
      ['2025-05-10', 'sale', `Classic Mug from "${title}" (order ${ref(sale2.orderId)})`, '', '', '4.55', ''],
      ['2025-05-20', 'reversal', `Classic Mug from "${title}" (order ${ref(sale2.orderId)})`, '', '', '-4.55', ''],
      ['2025-05-31', 'sale', `'@SUM(A1:A9) (order ${ref(sale3.orderId)})`, '', '', '12.34', ''],
      ['2025-05', 'total', 'Sales', '', '', '25.99', ''],
      ['2025-05', 'total', 'Reversals', '', '', '-4.55', ''],
      ['2025-05', 'total', 'Net earnings', '', '', '21.44', ''],
      ['2025-05', 'total', 'Payouts (not counting failed ones)', '', '', '1234.56', '36.10'],
    ]);
    // On the wire: the formula text quoted (it holds quotes and commas) and its quotes doubled.
    expect(res.body).toContain(`"'=HYPERLINK(""http://evil.example"",""click"") from ""Live, ""unplugged"""" (order `);
    for (const secret of [BUYER.email, BUYER.name, 'Secret St', sale1.orderId, '42.42']) expect(res.body).not.toContain(secret);
  });

  it('answers the header and zero totals for a month with nothing in it, and the current month', async () => {
    const me = await creator();
    for (const month of ['2001-01', thisMonth()]) {
      const res = await statement(me, month);
      expect(res.statusCode, res.body).toBe(200);
      const rows = csvRows(res.body);
      expect(rows).toHaveLength(5);
      expect(rows.slice(1).map((r) => [r[0], r[5]])).toEqual([
        [month, '0.00'],
        [month, '0.00'],
        [month, '0.00'],
        [month, '0.00'],
      ]);
    }
  });

  it.each(['', '2025', '2025-1', '2025-13', '2025-00', '25-05', '2025/05', '2025-05-01', 'abc', '1999-12', monthOf(1), monthOf(13)])('refuses the month %j with 400', async (month) => {
    const me = await creator();
    const res = await statement(me, month);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
    expect(res.headers['content-disposition']).toBeUndefined();
  });

  it('refuses a missing month, and signed-out callers (the role table in access.test.ts tries customers)', async () => {
    const me = await creator();
    expect((await as(me, { method: 'GET', url: '/api/payouts/statement' })).statusCode).toBe(400);
    const anonymous = await t.app.inject({ method: 'GET', url: `/api/payouts/statement?month=${thisMonth()}`, headers: { origin: ORIGIN } });
    expect(anonymous.statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/payouts/portal' })).statusCode).toBe(401);
  });
});

describe('the statement and portal rules', () => {
  it('statementMonth: the month in UTC, refusing a later month than now', () => {
    const now = new Date('2025-06-30T23:30:00Z');
    expect(statementMonth('2025-06', now)).toEqual({ month: '2025-06', from: new Date('2025-06-01T00:00:00Z'), to: new Date('2025-07-01T00:00:00Z') });
    expect(statementMonth('2024-12', now).to).toEqual(new Date('2025-01-01T00:00:00Z'));
    expect(() => statementMonth('2025-07', now)).toThrow(PORTAL_MESSAGES.statementMonth);
    expect(() => statementMonth('2025-7', now)).toThrow(PORTAL_MESSAGES.statementMonth);
    expect(statementMonth('2025-07', new Date('2025-07-01T00:00:00Z')).month).toBe('2025-07');
  });

  it('comingFirstOfMonth: the first day of the next month, in UTC', () => {
    expect(comingFirstOfMonth(new Date('2025-01-31T23:59:59Z'))).toBe('2025-02-01');
    expect(comingFirstOfMonth(new Date('2025-12-15T00:00:00Z'))).toBe('2026-01-01');
    expect(comingFirstOfMonth(new Date('2025-03-01T00:00:00Z'))).toBe('2025-04-01');
    expect(comingFirstOfMonth(new Date('2024-02-29T12:00:00Z'))).toBe('2024-03-01');
  });

  it('csvText neutralises every formula start; csvField quotes commas, quotes and line breaks', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) expect(csvText(`${start}1+1`).replace(/^"/, '')).toMatch(/^'/);
    expect(csvText('=1+1')).toBe("'=1+1");
    expect(csvText('\tcmd')).toBe("'\tcmd");
    expect(csvText('\rcmd')).toBe(`"'\rcmd"`);
    expect(csvText('Plain text')).toBe('Plain text');
    expect(csvText(' =not a start')).toBe(' =not a start');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
  });

  it('dollars: whole cents to 2 decimals, signs kept', () => {
    expect([0, 5, -5, 100, 123_456, -123_456, 99].map(dollars)).toEqual(['0.00', '0.05', '-0.05', '1.00', '1234.56', '-1234.56', '0.99']);
  });

  it('earningDescription: product first, then the video and the order; the source when no product is known', () => {
    expect(earningDescription({ source: 'Product Sale', productName: null, videoTitle: null, orderId: null })).toBe('Product Sale');
    expect(earningDescription({ source: 'Product Sale', productName: 'Mug', videoTitle: 'Clip', orderId: 'abcdef12-0000-4000-8000-000000000000' })).toBe('Mug from "Clip" (order ABCDEF12)');
  });

  it("payoutDescription: a period's run pays the earnings made before the month began", () => {
    expect(payoutDescription('2025-06')).toBe('Earnings up to 2025-05-31');
    expect(payoutDescription('2025-01')).toBe('Earnings up to 2024-12-31');
    expect(payoutDescription('2024-03')).toBe('Earnings up to 2024-02-29');
  });

  it('statementCsv: a statement of nothing is the header and zero totals', () => {
    expect(statementCsv('2025-01', [], [])).toBe(
      '\uFEFFDate,Type,Description,Method,Status,Amount (USD),Fee (USD)\r\n' +
        '2025-01,total,Sales,,,0.00,\r\n2025-01,total,Reversals,,,0.00,\r\n2025-01,total,Net earnings,,,0.00,\r\n' +
        '2025-01,total,Payouts (not counting failed ones),,,0.00,0.00\r\n',
    );
  });

  it('isPayoutSetUp: on, with the chosen method saved', () => {
    const base = { preferred_payment_method: null, payout_enabled: false, paypal_email: null, ach: null, stripe_connect: null, tax_email: null, tax_info_verified: false, payout_threshold_cents: 5000 } as const;
    expect(isPayoutSetUp(base)).toBe(false);
    expect(isPayoutSetUp({ ...base, payout_enabled: true, preferred_payment_method: 'paypal', paypal_email: 'a@example.com' })).toBe(true);
    expect(isPayoutSetUp({ ...base, payout_enabled: false, preferred_payment_method: 'paypal', paypal_email: 'a@example.com' })).toBe(false);
    expect(isPayoutSetUp({ ...base, payout_enabled: true, preferred_payment_method: 'stripe_connect' })).toBe(false);
  });
});
