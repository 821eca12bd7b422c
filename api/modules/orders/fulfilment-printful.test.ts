/**
 * The Printful side of fulfilment: the adapter against a fake Printful on 127.0.0.1 (the order
 * it creates, its variants and files, and exactly one order when submitted twice), and the
 * Printful webhook, which acts only with the secret token in its URL.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fulfilOrder } from './index.ts';
import { PrintfulClient, PrintfulFulfilment, printfulExternalId } from '../../integrations/printful/index.ts';
import { merchProduct, shopOrder } from '../../test/fulfilment-helpers.ts';
import { testApp, testConfig, type TestApp } from '../../test/harness.ts';

const PUBLIC_URL = 'https://framemerch.example.test';
const TOKEN = 'pf-webhook-token-0123456789';
const NO_ORDER = '00000000-0000-4000-8000-000000000000';
let t: TestApp;

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown> | null;
}

/** A small Printful: products with variants, and orders kept by external id. */
function fakePrintful() {
  const seen: Seen[] = [];
  const orders = new Map<string, { id: number; external_id: string; status: string }>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(json));
      };
      if (req.headers.authorization !== 'Bearer pf-key') return send(401, { code: 401, result: 'Unauthorized' });
      if (req.method === 'GET' && req.url === '/products/108') {
        return send(200, {
          code: 200,
          result: {
            product: { id: 108 },
            variants: [
              { id: 4011, color: 'Black', size: 'S' },
              { id: 4012, color: 'Black', size: 'M' },
              { id: 4013, color: 'White', size: 'M' },
            ],
          },
        });
      }
      if (req.method === 'POST' && req.url === '/orders?confirm=true') {
        const ext = String(body?.external_id);
        if (orders.has(ext)) return send(400, { code: 400, result: 'Order with this external ID already exists', error: { reason: 'BadRequest', message: 'Order with this external ID already exists' } });
        const order = { id: 9000 + orders.size, external_id: ext, status: 'pending' };
        orders.set(ext, order);
        return send(200, { code: 200, result: order });
      }
      const byExternal = /^\/orders\/@([a-z0-9]+)$/.exec(req.url ?? '');
      if (req.method === 'GET' && byExternal && orders.has(byExternal[1]!)) return send(200, { code: 200, result: orders.get(byExternal[1]!) });
      // Printful cancels an order it has not started on, and refuses one in production.
      if (req.method === 'DELETE' && byExternal && orders.has(byExternal[1]!)) {
        const order = orders.get(byExternal[1]!)!;
        if (order.status === 'canceled') return send(400, { code: 400, result: 'Order is already canceled', error: { reason: 'BadRequest', message: 'Order is already canceled' } });
        if (order.status !== 'pending') return send(400, { code: 400, result: 'This order can not be canceled', error: { reason: 'BadRequest', message: 'This order can not be canceled' } });
        order.status = 'canceled';
        return send(200, { code: 200, result: order });
      }
      if (req.method === 'DELETE' && req.url === '/orders/@broken') return send(500, { code: 500, result: 'Internal error' });
      send(404, { code: 404, result: 'Not found', error: { reason: 'NotFound', message: 'Not found' } });
    });
  });
  return { server, seen, orders };
}

beforeAll(async () => {
  t = await testApp({ config: await testConfig({ PUBLIC_URL, PRINTFUL_API_KEY: 'pf-key', PRINTFUL_STORE_ID: '777', PRINTFUL_WEBHOOK_TOKEN: TOKEN }) });
});
afterAll(async () => t?.close());

const deps = () => ({ db: t.db, storage: t.storage, catalogue: t.app.catalogue });
const orderRow = (id: string) => t.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('the Printful adapter', () => {
  it('creates a confirmed order with the variant of each colour and size and an absolute print file URL, once', async () => {
    const fake = fakePrintful();
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
    try {
      expect(t.app.fulfilment.kind).toBe('printful');
      const provider = new PrintfulFulfilment(new PrintfulClient({ apiKey: 'pf-key', storeId: '777', baseUrl: base }));
      const product = await merchProduct(deps());
      const orderId = await shopOrder(deps(), product, [
        { sku: 'mens-fitted-tshirt', colour: 'Black', size: 'M', quantity: 2 },
        { sku: 'mens-fitted-tshirt', colour: 'White', size: 'M' },
      ]);
      const run = () =>
        fulfilOrder({ ...deps(), pending: t.app.pendingObjects, provider, publicUrl: PUBLIC_URL }, orderId);
      expect(await run()).toBe('submitted');

      const posts = fake.seen.filter((s) => s.method === 'POST');
      expect(posts).toHaveLength(1);
      const post = posts[0]!;
      expect(post.url).toBe('/orders?confirm=true');
      expect(post.headers.authorization).toBe('Bearer pf-key');
      expect(post.headers['x-pf-store-id']).toBe('777');
      expect(post.headers['content-type']).toBe('application/json');
      const keys = (await t.db.selectFrom('order_items').select('print_file_key').where('order_id', '=', orderId).orderBy('position').execute()).map(
        (r) => r.print_file_key!,
      );
      expect(keys.every((k) => /\.png$/.test(k))).toBe(true);
      expect(post.body).toMatchObject({
        external_id: orderId.replace(/-/g, ''),
        recipient: { country_code: 'US', zip: '10001' },
        items: [
          { variant_id: 4012, quantity: 2, retail_price: '24.11', files: [{ type: 'default', url: `${PUBLIC_URL}/media/prints/${keys[0]}` }] },
          { variant_id: 4013, quantity: 1, retail_price: '24.11', files: [{ type: 'default', url: `${PUBLIC_URL}/media/prints/${keys[1]}` }] },
        ],
      });
      const order = await orderRow(orderId);
      expect(order).toMatchObject({ status: 'submitted', fulfilment_provider: 'printful', fulfilment_order_id: '9000' });

      // The job runs again as if the record had been lost: Printful refuses the duplicate and
      // the adapter answers the order Printful already has.
      await t.db.updateTable('orders').set({ fulfilment_order_id: null, status: 'paid' }).where('id', '=', orderId).execute();
      const again = await provider.submitOrder({ externalId: orderId, recipient: { zip: '10001', country_code: 'US' }, items: [] });
      expect(again).toEqual({ providerOrderId: '9000', status: 'pending' });
      expect(fake.orders.size).toBe(1);
      expect(fake.seen.at(-1)).toMatchObject({ method: 'GET', url: `/orders/@${printfulExternalId(orderId)}` });
      // The product's variants were looked up once.
      expect(fake.seen.filter((s) => s.url === '/products/108')).toHaveLength(1);
    } finally {
      await new Promise((resolve) => fake.server.close(resolve));
    }
  });

  it('cancels an order Printful has not started on, and says so when it has', async () => {
    const fake = fakePrintful();
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
    try {
      const provider = new PrintfulFulfilment(new PrintfulClient({ apiKey: 'pf-key', storeId: '777', baseUrl: base }));
      const product = await merchProduct(deps());
      const [first, second] = [
        await shopOrder(deps(), product, [{ sku: 'mens-fitted-tshirt', colour: 'Black', size: 'M' }]),
        await shopOrder(deps(), product, [{ sku: 'mens-fitted-tshirt', colour: 'Black', size: 'S' }]),
      ];
      for (const id of [first, second]) expect(await fulfilOrder({ ...deps(), pending: t.app.pendingObjects, provider, publicUrl: PUBLIC_URL }, id)).toBe('submitted');
      fake.orders.get(printfulExternalId(second))!.status = 'inprocess';

      expect(await provider.cancelOrder(first)).toBe('cancelled');
      expect(fake.seen.at(-1)).toMatchObject({ method: 'DELETE', url: `/orders/@${printfulExternalId(first)}` });
      expect(fake.seen.at(-1)!.headers['x-pf-store-id']).toBe('777');
      expect(fake.orders.get(printfulExternalId(first))!.status).toBe('canceled');
      // Asked again (a job retried): still cancelled.
      expect(await provider.cancelOrder(first)).toBe('cancelled');
      expect(await provider.cancelOrder(second)).toBe('too-late');
      expect(fake.orders.get(printfulExternalId(second))!.status).toBe('inprocess');
      expect(await provider.cancelOrder(NO_ORDER)).toBe('not-found');
      // A Printful failure is thrown, so the job tries again later.
      await expect(provider.cancelOrder('broken')).rejects.toMatchObject({ name: 'PrintfulError', status: 500 });
    } finally {
      await new Promise((resolve) => fake.server.close(resolve));
    }
  });

  it('fails for good on a colour Printful does not have, submitting nothing', async () => {
    const fake = fakePrintful();
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
    try {
      const provider = new PrintfulFulfilment(new PrintfulClient({ apiKey: 'pf-key', storeId: null, baseUrl: base }));
      await expect(provider.variantId(108, 'Navy', 'M')).rejects.toMatchObject({ name: 'PermanentJobError' });
      expect(fake.seen.filter((s) => s.method === 'POST')).toHaveLength(0);
      expect(fake.seen[0]!.headers['x-pf-store-id']).toBeUndefined();
      // A refused key is worth another try once it is fixed: not a permanent failure.
      const wrongKey = new PrintfulFulfilment(new PrintfulClient({ apiKey: 'not-the-key', storeId: null, baseUrl: base }));
      const item = { sku: 'mens-fitted-tshirt', podCatalogId: 108, colour: 'Black', size: 'M', quantity: 1, printFileUrl: `${PUBLIC_URL}/x.png`, printFileKey: 'x', retailPriceCents: 2411 };
      await expect(wrongKey.submitOrder({ externalId: NO_ORDER, recipient: { zip: '10001', country_code: 'US' }, items: [item] })).rejects.toMatchObject({
        name: 'PrintfulError',
        status: 401,
      });
    } finally {
      await new Promise((resolve) => fake.server.close(resolve));
    }
  });
});

describe('POST /api/webhooks/printful', () => {
  const shippedEvent = (orderId: string) => ({
    type: 'package_shipped',
    created: 1700000000,
    retries: 0,
    store: 777,
    data: {
      shipment: { id: 55, carrier: 'USPS', tracking_number: '9400111', tracking_url: 'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111' },
      order: { id: 9000, external_id: printfulExternalId(orderId), status: 'fulfilled' },
    },
  });
  const post = (token: string | null, payload: object) =>
    t.app.inject({ method: 'POST', url: `/api/webhooks/printful${token === null ? '' : `?token=${encodeURIComponent(token)}`}`, payload });

  it('refuses a missing or wrong token and changes nothing', async () => {
    const product = await merchProduct(deps());
    const orderId = await shopOrder(deps(), product, [{ sku: 'mens-fitted-tshirt', colour: 'Black', size: 'M' }], { status: 'submitted' });
    for (const token of [null, '', 'wrong', `${TOKEN}x`, TOKEN.slice(0, -1)]) {
      const res = await post(token, shippedEvent(orderId));
      expect(res.statusCode, String(token)).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    }
    expect(await orderRow(orderId)).toMatchObject({ status: 'submitted', tracking_number: null });
    expect(await t.db.selectFrom('processed_webhook_events').selectAll().where('provider', '=', 'printful').execute()).toEqual([]);
  });

  it('with the token, ships the order with its tracking, once however often Printful retries', async () => {
    const product = await merchProduct(deps());
    const orderId = await shopOrder(deps(), product, [{ sku: 'mens-fitted-tshirt', colour: 'Black', size: 'M' }], { status: 'submitted' });
    const first = await post(TOKEN, shippedEvent(orderId));
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ success: true, duplicate: false, status: 'shipped' });
    for (let i = 0; i < 3; i++) {
      const again = await post(TOKEN, { ...shippedEvent(orderId), retries: i + 1 });
      expect(again.json()).toMatchObject({ success: true, duplicate: true });
    }
    expect(await orderRow(orderId)).toMatchObject({
      status: 'shipped',
      tracking_number: '9400111',
      tracking_url: 'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111',
    });
    const moves = await t.db.selectFrom('order_status_history').select('to_status').where('order_id', '=', orderId).where('to_status', '=', 'shipped').execute();
    expect(moves).toHaveLength(1);
    expect(await t.db.selectFrom('email_outbox').select('id').where('dedupe_key', '=', `order-shipped:${orderId}`).execute()).toHaveLength(1);

    // A body that is not a Printful event is refused before anything happens.
    expect((await post(TOKEN, { data: {} })).statusCode).toBe(400);
  });
});
