/**
 * Fulfilment: print files at 300 DPI for the product's print area (fitted, never stretched),
 * the fulfil job submitting a paid order exactly once, the embedded print shop moving it to
 * delivered with a tracking number, page and one shipped email, and a refunded order that is
 * never made.
 */
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_KINDS, enqueueJob } from '../../platform/jobs/enqueue.ts';
import { renderPrintFile } from '../merch/index.ts';
import { applyFulfilmentEvent, fulfilOrder, orderPagePath, transitionOrder } from './index.ts';
import { listKeys, merchProduct, shopOrder, twoColourJpeg } from '../../test/fulfilment-helpers.ts';
import { testApp, testConfig, type TestApp } from '../../test/harness.ts';
import { deliver, refundedEvent } from '../../test/webhook-support.ts';

const PUBLIC_URL = 'http://shop.example.test';
let t: TestApp;
let deps: { db: TestApp['db']; storage: TestApp['storage']; catalogue: TestApp['app']['catalogue'] };

beforeAll(async () => {
  t = await testApp({ config: await testConfig({ PUBLIC_URL }) });
  deps = { db: t.db, storage: t.storage, catalogue: t.app.catalogue };
});
afterAll(async () => t?.close());

const orderRow = (id: string) => t.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const history = async (id: string) =>
  (await t.db.selectFrom('order_status_history').select(['from_status', 'to_status']).where('order_id', '=', id).orderBy('id').execute()).map(
    (h) => `${h.from_status}>${h.to_status}`,
  );
const podOrders = (id: string) => t.db.selectFrom('embedded_pod_orders').selectAll().where('external_id', '=', id).execute();
const fulfil = async (orderId: string, dedupeKey = `fulfil:${orderId}`) => {
  await enqueueJob(t.db, JOB_KINDS.fulfilOrder, { orderId }, { dedupeKey });
  await t.app.jobs.runDue();
};
/** The simulator's clock, sped up: every order is due for its next step now. */
const step = async () => {
  await t.db.updateTable('embedded_pod_orders').set({ next_step_at: sql<Date>`now() - interval '1 second'` }).execute();
  return t.app.embeddedPod.tick();
};

async function pixel(png: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(png).extract({ left: x, top: y, width: 1, height: 1 }).raw().toBuffer({ resolveWithObject: true });
  return [...data.subarray(0, Math.min(3, info.channels))];
}

describe('print files', () => {
  it('fills a 12x16 in area at 300 DPI as far as a 1280x720 frame allows: 3600x2025, never stretched', async () => {
    // By hand: the area is 3600 x 4800 px; 3600 / 1280 = 2.8125 < 4800 / 720, so the width
    // fills and the height is 720 x 2.8125 = 2025.
    const { png, width, height } = await renderPrintFile(await twoColourJpeg(1280, 720), { widthIn: 12, heightIn: 16 });
    const meta = await sharp(png).metadata();
    expect(meta.format).toBe('png');
    expect({ width: meta.width, height: meta.height, density: meta.density }).toEqual({ width: 3600, height: 2025, density: 300 });
    expect({ width, height }).toEqual({ width: 3600, height: 2025 });
    expect(Math.abs(meta.width / meta.height - 1280 / 720)).toBeLessThan(1 / 2025);
    // The frame itself: red on the left, blue on the right.
    const [r1, , b1] = await pixel(png, 100, 1000);
    const [r2, , b2] = await pixel(png, 3500, 1000);
    expect(r1).toBeGreaterThan(200);
    expect(b1).toBeLessThan(50);
    expect(r2).toBeLessThan(50);
    expect(b2).toBeGreaterThan(200);
  });

  it('fits a portrait frame by its height, and uses the larger area of the larger sizes', async () => {
    // 720x1280 on 12x16: 4800 / 1280 = 3.75 < 3600 / 720, so 720 x 3.75 = 2700 wide, 4800 high.
    const portrait = await renderPrintFile(await twoColourJpeg(720, 1280), { widthIn: 12, heightIn: 16 });
    expect({ width: portrait.width, height: portrait.height }).toEqual({ width: 2700, height: 4800 });
    // unisex-tshirt L is 15x18 in: 4500 x 5400 px; 4500 / 1280 = 3.515625, 720 x 3.515625 = 2531.25.
    const shirt = t.app.catalogue.products.find((p) => p.sku === 'unisex-tshirt')!;
    expect(shirt.printAreas.bySize.L).toEqual({ widthIn: 15, heightIn: 18 });
    const large = await renderPrintFile(await twoColourJpeg(1280, 720), shirt.printAreas.bySize.L!);
    expect({ width: large.width, height: large.height }).toEqual({ width: 4500, height: 2531 });
  });
});

describe('the fulfil job', () => {
  it('renders the print files, submits the order once and marks it submitted', async () => {
    const product = await merchProduct(deps);
    const orderId = await shopOrder(deps, product, [
      { sku: 'mens-fitted-tshirt', colour: 'Black', size: 'M' },
      { sku: 'unisex-tshirt', colour: 'White', size: 'L', quantity: 2 },
    ]);
    const printsBefore = await listKeys(t.storage, 'prints');
    await fulfil(orderId);

    const order = await orderRow(orderId);
    expect(order.status).toBe('submitted');
    expect(order.fulfilment_provider).toBe('embedded');
    const pods = await podOrders(orderId);
    expect(pods).toHaveLength(1);
    expect(order.fulfilment_order_id).toBe(pods[0]!.id);
    expect(pods[0]!.status).toBe('pending');
    expect(await history(orderId)).toEqual(['pending>paid', 'paid>submitted']);
    const job = await t.db.selectFrom('jobs').select(['status', 'attempts', 'max_attempts']).where('dedupe_key', '=', `fulfil:${orderId}`).executeTakeFirstOrThrow();
    expect(job).toEqual({ status: 'done', attempts: 1, max_attempts: 12 });

    // One print file per item, at the size of each item's print area, served by the media route.
    const items = await t.db.selectFrom('order_items').select(['sku', 'print_file_key']).where('order_id', '=', orderId).orderBy('position').execute();
    const expected = [
      { width: 3600, height: 2025 },
      { width: 4500, height: 2531 },
    ];
    for (const [i, item] of items.entries()) {
      expect(item.print_file_key).toMatch(/\.png$/);
      const res = await t.app.inject({ url: `/media/prints/${item.print_file_key}` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      const meta = await sharp(res.rawPayload).metadata();
      expect({ width: meta.width, height: meta.height }).toEqual(expected[i]);
      expect(meta.density).toBe(300);
    }
    // What the print shop was sent: the files by absolute URL.
    const sent = pods[0]!.items as Array<{ printFileUrl: string; sku: string; quantity: number }>;
    expect(sent.map((s) => [s.sku, s.quantity, s.printFileUrl])).toEqual(
      items.map((i, n) => [i.sku, n === 0 ? 1 : 2, `${PUBLIC_URL}/media/prints/${i.print_file_key}`]),
    );
    const printsAfter = await listKeys(t.storage, 'prints');
    expect(printsAfter.length).toBe(printsBefore.length + 2);
    expect(await t.db.selectFrom('pending_objects').selectAll().where('bucket', '=', 'prints').execute()).toEqual([]);

    // Asked again (a second job, a repeated run): nothing is rendered or submitted again.
    await fulfil(orderId, `fulfil-again:${orderId}`);
    await fulfil(orderId);
    expect(await podOrders(orderId)).toHaveLength(1);
    expect(await listKeys(t.storage, 'prints')).toEqual(printsAfter);
    expect((await orderRow(orderId)).fulfilment_order_id).toBe(pods[0]!.id);
    expect(await history(orderId)).toEqual(['pending>paid', 'paid>submitted']);
  });

  it('makes one print-shop order and one print file per item when two runs race', async () => {
    const product = await merchProduct(deps);
    const orderId = await shopOrder(deps, product, [
      { sku: 'mens-fitted-tshirt', colour: 'Black', size: 'M' },
      { sku: 'mens-fitted-tshirt', colour: 'White', size: 'S' },
    ]);
    const before = await listKeys(t.storage, 'prints');
    const fulfilDeps = { ...deps, pending: t.app.pendingObjects, provider: t.app.fulfilment, publicUrl: PUBLIC_URL };
    const outcomes = await Promise.all([fulfilOrder(fulfilDeps, orderId), fulfilOrder(fulfilDeps, orderId)]);
    expect(outcomes.every((o) => o === 'submitted' || o === 'already-submitted')).toBe(true);
    expect(await podOrders(orderId)).toHaveLength(1);
    const keys = (await t.db.selectFrom('order_items').select('print_file_key').where('order_id', '=', orderId).execute()).map((r) => r.print_file_key);
    expect(new Set(keys).size).toBe(2);
    const after = await listKeys(t.storage, 'prints');
    expect(after.filter((k) => !before.includes(k)).sort()).toEqual([...keys].sort());
    expect(await t.db.selectFrom('pending_objects').selectAll().where('bucket', '=', 'prints').execute()).toEqual([]);
    expect(await history(orderId)).toEqual(['pending>paid', 'paid>submitted']);
  });

  it('submits nothing new when a crash came between the submission and its record', async () => {
    const product = await merchProduct(deps);
    const orderId = await shopOrder(deps, product, [{ sku: 'mens-fitted-tshirt', colour: 'Navy', size: 'S' }]);
    // The earlier run submitted the order and died before recording it.
    const earlier = await t.app.embeddedPod.submitOrder({ externalId: orderId, recipient: { zip: '10001', country_code: 'US' }, items: [] });
    await fulfil(orderId);
    const pods = await podOrders(orderId);
    expect(pods.map((p) => p.id)).toEqual([earlier.providerOrderId]);
    expect(await orderRow(orderId)).toMatchObject({ status: 'submitted', fulfilment_order_id: earlier.providerOrderId });
  });

  it('reuses print files an earlier run made', async () => {
    const product = await merchProduct(deps);
    const orderId = await shopOrder(deps, product, [{ sku: 'mens-fitted-tshirt', colour: 'Navy', size: 'S' }]);
    const key = 'pr/00000000-0000-4000-8000-00000000abcd.png';
    await t.storage.put('prints', key, await sharp({ create: { width: 10, height: 10, channels: 3, background: '#00ff00' } }).png().toBuffer());
    await t.db.updateTable('order_items').set({ print_file_key: key }).where('order_id', '=', orderId).execute();
    const before = await listKeys(t.storage, 'prints');
    await fulfil(orderId);
    expect(await listKeys(t.storage, 'prints')).toEqual(before);
    const [pod] = await podOrders(orderId);
    expect((pod!.items as Array<{ printFileKey: string }>)[0]!.printFileKey).toBe(key);
  });

  it('does not make an order refunded before it reached the print shop', async () => {
    const product = await merchProduct(deps);
    const orderId = await shopOrder(deps, product, [{ sku: 'mens-fitted-tshirt', colour: 'Black', size: 'M' }]);
    await t.db.transaction().execute((trx) => transitionOrder(trx, orderId, 'refunded', { reason: 'refund', set: { refunded_at: new Date() } }));
    const before = await listKeys(t.storage, 'prints');
    await fulfil(orderId);
    expect(await podOrders(orderId)).toEqual([]);
    expect(await orderRow(orderId)).toMatchObject({ status: 'refunded', fulfilment_order_id: null });
    expect(await listKeys(t.storage, 'prints')).toEqual(before);
    const job = await t.db.selectFrom('jobs').select('status').where('dedupe_key', '=', `fulfil:${orderId}`).executeTakeFirstOrThrow();
    expect(job.status).toBe('done');
  });

  it('fails the job for good when the screenshot is gone, and leaves the order paid', async () => {
    const product = await merchProduct(deps);
    const orderId = await shopOrder(deps, product, [{ sku: 'mens-fitted-tshirt', colour: 'Black', size: 'M' }]);
    await t.db.deleteFrom('merch_screenshots').where('id', '=', product.screenshotId).execute();
    await fulfil(orderId);
    const job = await t.db.selectFrom('jobs').select(['status', 'attempts', 'last_error']).where('dedupe_key', '=', `fulfil:${orderId}`).executeTakeFirstOrThrow();
    expect(job).toMatchObject({ status: 'failed', attempts: 1 });
    expect(job.last_error).toMatch(/screenshot/);
    expect((await orderRow(orderId)).status).toBe('paid');
    expect(await podOrders(orderId)).toEqual([]);
  });
});

describe('the embedded print shop', () => {
  it('moves a submitted order through production, shipping and delivery, with tracking and one shipped email', async () => {
    const product = await merchProduct(deps);
    const orderId = await shopOrder(deps, product, [{ sku: 'mens-fitted-tshirt', colour: 'Black', size: 'M' }], { email: 'parcel@example.com' });
    await fulfil(orderId);
    expect((await orderRow(orderId)).status).toBe('submitted');

    // Not due yet: the clock has not reached the next step.
    expect(await t.app.embeddedPod.tick()).toBe(0);

    expect(await step()).toBeGreaterThanOrEqual(1);
    expect((await orderRow(orderId)).status).toBe('in_production');
    expect((await orderRow(orderId)).tracking_number).toBeNull();

    await step();
    const shipped = await orderRow(orderId);
    expect(shipped.status).toBe('shipped');
    expect(shipped.tracking_number).toMatch(/^FM[0-9]{12}$/);
    expect(shipped.tracking_url).toBe(`${PUBLIC_URL}/track/${shipped.tracking_number}`);
    const mails = await t.db.selectFrom('email_outbox').selectAll().where('dedupe_key', '=', `order-shipped:${orderId}`).execute();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to_address).toBe('parcel@example.com');
    const text = (mails[0]!.payload as { text: string }).text;
    expect(text).toContain(shipped.tracking_url!);
    expect(text).toContain(`${PUBLIC_URL}${await orderPagePath(t.db, orderId)}`);

    const transit = await t.app.inject({ url: `/track/${shipped.tracking_number}` });
    expect(transit.statusCode).toBe(200);
    expect(transit.headers['content-type']).toMatch(/^text\/html/);
    expect(transit.body).toContain('data-status="fulfilled"');
    expect(transit.body).toContain('In transit');

    await step();
    expect(await orderRow(orderId)).toMatchObject({ status: 'delivered', tracking_number: shipped.tracking_number, tracking_url: shipped.tracking_url });
    expect((await t.app.inject({ url: `/track/${shipped.tracking_number}` })).body).toContain('data-status="delivered"');
    expect(await history(orderId)).toEqual(['pending>paid', 'paid>submitted', 'submitted>in_production', 'in_production>shipped', 'shipped>delivered']);

    // Nothing is left to do for this order; a report delivered again, or late, changes nothing.
    await step();
    expect((await podOrders(orderId))[0]!.status).toBe('delivered');
    const pod = (await podOrders(orderId))[0]!;
    const again = await applyFulfilmentEvent(
      t.db,
      { type: 'package_shipped', data: { order: { external_id: orderId, status: 'fulfilled' }, shipment: { tracking_number: 'FM999999999999' } } },
      { publicUrl: PUBLIC_URL, eventId: `pod:${pod.id}:fulfilled` },
    );
    expect(again.firstDelivery).toBe(false);
    const late = await applyFulfilmentEvent(t.db, { type: 'order_updated', data: { order: { external_id: orderId, status: 'inprocess' } } }, { publicUrl: PUBLIC_URL });
    expect(late).toMatchObject({ firstDelivery: true, changed: false, status: 'delivered' });
    expect(await orderRow(orderId)).toMatchObject({ status: 'delivered', tracking_number: shipped.tracking_number });
    expect(await history(orderId)).toHaveLength(5);
    expect(await t.db.selectFrom('email_outbox').select('id').where('dedupe_key', '=', `order-shipped:${orderId}`).execute()).toHaveLength(1);
  });

  it('keeps a refunded order refunded whatever the print shop reports', async () => {
    const product = await merchProduct(deps);
    const orderId = await shopOrder(deps, product, [{ sku: 'mens-fitted-tshirt', colour: 'Black', size: 'M' }]);
    await fulfil(orderId);
    await t.db.transaction().execute((trx) => transitionOrder(trx, orderId, 'refunded', { reason: 'refund' }));
    await step();
    await step();
    expect(await orderRow(orderId)).toMatchObject({ status: 'refunded', tracking_number: null });
    expect(await t.db.selectFrom('email_outbox').select('id').where('dedupe_key', '=', `order-shipped:${orderId}`).execute()).toEqual([]);
  });

  /** A full refund of the order, through the payment webhook as the payment provider sends it. */
  const refund = async (orderId: string) => {
    const { total_cents } = await orderRow(orderId);
    const res = await deliver(t, refundedEvent({ id: orderId, totalCents: total_cents, paymentIntentId: `pi_${orderId.slice(0, 8)}`, sessionId: '', itemIds: [] }));
    expect(res.json()).toEqual({ received: true, duplicate: false });
    await t.app.jobs.runDue();
  };
  const cancelJobs = async (orderId: string) =>
    (await t.db.selectFrom('jobs').select(['status', 'dedupe_key', 'payload']).where('kind', '=', JOB_KINDS.cancelFulfilment).execute())
      .filter((j) => (j.payload as { orderId?: string }).orderId === orderId)
      .map(({ status, dedupe_key }) => ({ status, dedupe_key }));

  it('cancels the print-shop order of an order refunded before printing started; nothing is made or shipped', async () => {
    const product = await merchProduct(deps);
    const orderId = await shopOrder(deps, product, [{ sku: 'mens-fitted-tshirt', colour: 'Black', size: 'M' }]);
    await fulfil(orderId);
    expect((await podOrders(orderId))[0]!.status).toBe('pending');
    await refund(orderId);

    expect(await cancelJobs(orderId)).toEqual([{ status: 'done', dedupe_key: `cancel-fulfilment:${orderId}` }]);
    expect((await podOrders(orderId))[0]!.status).toBe('canceled');
    // The print shop's report of the cancellation is recorded; the order stays refunded.
    const pod = (await podOrders(orderId))[0]!;
    expect(await t.db.selectFrom('processed_webhook_events').select('event_id').where('event_id', 'like', `%${pod.id}:canceled%`).execute()).toHaveLength(1);
    await step();
    await step();
    await step();
    expect((await podOrders(orderId))[0]!.status).toBe('canceled');
    expect(await orderRow(orderId)).toMatchObject({ status: 'refunded', tracking_number: null });
    expect(await history(orderId)).toEqual(['pending>paid', 'paid>submitted', 'submitted>refunded']);
    expect(await t.db.selectFrom('email_outbox').select('id').where('dedupe_key', '=', `order-shipped:${orderId}`).execute()).toEqual([]);
  });

  it('leaves an order the print shop has started printing to go on, the order refunded', async () => {
    const product = await merchProduct(deps);
    const orderId = await shopOrder(deps, product, [{ sku: 'mens-fitted-tshirt', colour: 'Black', size: 'M' }]);
    await fulfil(orderId);
    await step();
    expect((await podOrders(orderId))[0]!.status).toBe('inprocess');
    await refund(orderId);
    expect(await cancelJobs(orderId)).toEqual([{ status: 'done', dedupe_key: `cancel-fulfilment:${orderId}` }]);
    expect((await podOrders(orderId))[0]!.status).toBe('inprocess');
    await step();
    expect((await podOrders(orderId))[0]!.status).toBe('fulfilled');
    expect((await orderRow(orderId)).status).toBe('refunded');
  });

  it('cancels an order refunded while its print files were being made, once it has reached the print shop', async () => {
    const product = await merchProduct(deps);
    const orderId = await shopOrder(deps, product, [{ sku: 'mens-fitted-tshirt', colour: 'Black', size: 'M' }]);
    // The refund lands between the job's check that the order is paid and the submission.
    const provider = {
      kind: 'embedded' as const,
      submitOrder: async (request: Parameters<typeof t.app.embeddedPod.submitOrder>[0]) => {
        await refund(orderId);
        return t.app.embeddedPod.submitOrder(request);
      },
      cancelOrder: (externalId: string) => t.app.embeddedPod.cancelOrder(externalId),
    };
    expect(await fulfilOrder({ ...deps, pending: t.app.pendingObjects, provider, publicUrl: PUBLIC_URL }, orderId)).toBe('submitted');
    // The refund saw no print-shop order yet; the submission, recorded after it, asks for the cancellation.
    expect((await cancelJobs(orderId)).map((j) => j.dedupe_key)).toEqual([`cancel-fulfilment:${orderId}:after-submission`]);
    await t.app.jobs.runDue();
    expect((await podOrders(orderId))[0]!.status).toBe('canceled');
    expect(await orderRow(orderId)).toMatchObject({ status: 'refunded', fulfilment_provider: 'embedded' });
  });

  it('reports each step to the app as Printful would, again until it is taken; the app applies it once', async () => {
    const product = await merchProduct(deps);
    const orderId = await shopOrder(deps, product, [{ sku: 'mens-fitted-tshirt', colour: 'Black', size: 'M' }]);
    await fulfil(orderId);
    const dueNow = () => t.db.updateTable('embedded_pod_orders').set({ next_step_at: sql<Date>`now() - interval '1 second'` }).where('external_id', '=', orderId).execute();
    const app = t.app as { fulfilmentWebhooks: TestApp['app']['fulfilmentWebhooks'] };
    const real = app.fulfilmentWebhooks;

    // The webhook refuses the report: the print shop does not take the step.
    await dueNow();
    app.fulfilmentWebhooks = { accept: () => null };
    try {
      expect(await t.app.embeddedPod.tick()).toBe(0);
    } finally {
      app.fulfilmentWebhooks = real;
    }
    expect((await podOrders(orderId))[0]!.status).toBe('pending');
    expect((await orderRow(orderId)).status).toBe('submitted');

    await dueNow();
    expect(await t.app.embeddedPod.tick()).toBe(1);
    const [pod] = await podOrders(orderId);
    expect(pod!.status).toBe('inprocess');
    expect((await orderRow(orderId)).status).toBe('in_production');

    // The step's own record is lost after the app applied its report (the process died between): the same report again, a duplicate.
    await t.db.updateTable('embedded_pod_orders').set({ status: 'pending' }).where('id', '=', pod!.id).execute();
    await dueNow();
    expect(await t.app.embeddedPod.tick()).toBe(1);
    expect((await podOrders(orderId))[0]!.status).toBe('inprocess');
    expect(await history(orderId)).toEqual(['pending>paid', 'paid>submitted', 'submitted>in_production']);
    expect(await t.db.selectFrom('processed_webhook_events').select('event_id').where('event_id', '=', `pod:${pod!.id}:inprocess`).execute()).toHaveLength(1);
  });

  it('runs on its own clock while the app serves, and stops with it', async () => {
    const product = await merchProduct(deps);
    const orderId = await shopOrder(deps, product, [{ sku: 'mens-fitted-tshirt', colour: 'Black', size: 'M' }]);
    await fulfil(orderId);
    await t.db.updateTable('embedded_pod_orders').set({ next_step_at: sql<Date>`now()` }).where('external_id', '=', orderId).execute();
    t.app.embeddedPod.start(20);
    try {
      for (let i = 0; i < 100 && (await orderRow(orderId)).status === 'submitted'; i++) await new Promise((r) => setTimeout(r, 20));
    } finally {
      await t.app.embeddedPod.stop();
    }
    expect((await orderRow(orderId)).status).toBe('in_production');
  });

  it('answers 404 for a tracking number it does not know', async () => {
    expect((await t.app.inject({ url: '/track/FM000000000001' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/track/<script>' })).statusCode).toBe(404);
  });
});
