/**
 * Frames do not outlive their video. Deleting a video (by its creator, by an admin, or with the
 * creator's account) withdraws the products made from it: their page answers as a missing one,
 * checkout refuses them and their frames answer 404. An order already placed is still printed
 * from a private copy of its frame, removed once no order still to be printed needs it.
 */
import sharp from 'sharp';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKOUT_MESSAGES } from '../../../shared/schemas/checkout.ts';
import { PRODUCT_MESSAGES } from '../../../shared/schemas/products.ts';
import { storageKeyOf } from '../../platform/storage/media-urls.ts';
import { catalogueProduct, CHECKOUT_ORIGIN as ORIGIN, checkoutBody, checkoutClient, testCard, variantOf } from '../../test/checkout-support.ts';
import { testApp, testConfig, type TestApp } from '../../test/harness.ts';
import { person, type Person } from '../../test/subscription-support.ts';
import { multipart, testMedia, uploadParts } from '../../test/upload-helpers.ts';
import { deliver, type StripeLikeEvent } from '../../test/webhook-support.ts';
import { transitionOrder } from '../orders/index.ts';

let t: TestApp;
let admin: Person;
let buyer: Person;
let clip: Buffer;
let thumb: Buffer;

beforeAll(async () => {
  t = await testApp({ config: await testConfig({ PUBLIC_URL: ORIGIN }) });
  admin = await person(t, 'customer', 'admin');
  await t.db.updateTable('users').set({ is_admin: true }).where('id', '=', admin.id).execute();
  buyer = await person(t, 'customer', 'buyer');
  clip = await testMedia('h264-small.mp4');
  thumb = await testMedia('thumbnail.jpg');
});
afterAll(async () => t?.close());

const { post, payForm } = checkoutClient(() => t);

function call(as: Person | null, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method,
    url,
    headers: { host: 'localhost:3000', ...(method === 'GET' ? {} : { origin: ORIGIN }) },
    ...(payload ? { payload } : {}),
    ...(as ? { cookies: as.cookies } : {}),
  });
}

const frameDataUrl = async () =>
  `data:image/jpeg;base64,${(await sharp({ create: { width: 1280, height: 720, channels: 3, background: '#2a7fd0' } }).jpeg({ quality: 92 }).toBuffer()).toString('base64')}`;

/** A creator's uploaded video and a product a viewer made from one of its frames (the video's thumbnail comes with it). */
async function productFromUpload() {
  const creator = await person(t, 'creator', 'maker');
  const { payload, headers } = await multipart(uploadParts(clip, thumb, { title: 'Harbour at dusk' }));
  const up = await t.app.inject({ method: 'POST', url: '/api/videos', payload, headers: { ...headers, origin: ORIGIN }, cookies: creator.cookies });
  expect(up.statusCode, up.body).toBe(201);
  const videoId = up.json().video.id as string;
  const videoUrl = (await call(null, 'GET', `/api/videos/${videoId}`)).json().video.video_url as string;

  const viewer = await person(t, 'customer', 'viewer');
  const made = await call(viewer, 'POST', '/api/create-product', { videoUrl, screenshots: [await frameDataUrl()], category: 'mens' });
  expect(made.statusCode, made.body).toBe(200);
  const productId = made.json().product_id as string;
  const page = (await call(null, 'GET', `/api/product/${productId}`)).json().product;
  const captureKey = storageKeyOf('screenshots', page.screenshots[0])!;
  const thumbnailKey = storageKeyOf('screenshots', page.thumbnail_url)!;
  expect(captureKey).toBeTruthy();
  expect(thumbnailKey).toBeTruthy();
  return { creator, videoId, productId, captureKey, thumbnailKey };
}

const shirtLine = (productId: string) => ({ product_id: productId, variant_id: variantOf(catalogueProduct(t, 'unisex-tshirt'), 'M'), quantity: 1, selected_screenshot: 0 });

async function checkout(productId: string, key: string) {
  return post('/api/create-checkout-session', checkoutBody([shirtLine(productId)], { idempotency_key: key, email: buyer.email }));
}

const orderOf = (id: string) =>
  t.db.selectFrom('orders').select(['status']).where('id', '=', id).executeTakeFirstOrThrow();
const itemOf = (orderId: string) =>
  t.db.selectFrom('order_items').select(['merch_product_id', 'screenshot_id', 'print_file_key']).where('order_id', '=', orderId).executeTakeFirstOrThrow();
const stored = async (key: string) => (await t.storage.stat('screenshots', key)) !== null;
const frameStatus = async (as: Person | null, key: string) => (await call(as, 'GET', `/media/screenshots/${key}`)).statusCode;

type Deletion = (p: Awaited<ReturnType<typeof productFromUpload>>) => Promise<LightMyRequestResponse>;

const deletions: Array<[string, Deletion]> = [
  ['its creator deletes the video', (p) => call(p.creator, 'DELETE', `/api/videos/${p.videoId}`)],
  ['its creator deletes their account', (p) => call(p.creator, 'DELETE', `/api/users/${p.creator.id}/delete-account`)],
  ['an admin deletes the video', (p) => call(admin, 'DELETE', `/api/admin/videos/${p.videoId}`)],
];

describe.each(deletions)('when %s', (label, deleteIt) => {
  it('withdraws its products and frames; the paid order is still printed and the private frame removed once no order needs it', async () => {
    const p = await productFromUpload();
    const tag = label.replace(/\W+/g, '-');
    expect(await frameStatus(null, p.captureKey)).toBe(200);

    // One order paid, another left unpaid, both for a shirt of the captured frame.
    const paid = await checkout(p.productId, `${tag}-paid`);
    expect(paid.statusCode, paid.body).toBe(200);
    const { order_id: paidId, session_id: sessionId } = paid.json() as { order_id: string; session_id: string };
    expect((await payForm(sessionId, testCard('4242424242424242'))).statusCode).toBe(303);
    expect((await orderOf(paidId)).status).toBe('paid');
    const unpaid = await checkout(p.productId, `${tag}-unpaid`);
    expect(unpaid.statusCode, unpaid.body).toBe(200);
    const unpaidId = unpaid.json().order_id as string;

    const res = await deleteIt(p);
    expect(res.statusCode, res.body).toBe(200);

    // Nobody sees the frames any more, not even a buyer of them.
    for (const key of [p.captureKey, p.thumbnailKey]) {
      expect(await frameStatus(null, key)).toBe(404);
      expect(await frameStatus(buyer, key)).toBe(404);
    }
    // The product answers as one that never existed, and no new checkout takes it.
    const page = await call(null, 'GET', `/api/product/${p.productId}`);
    expect(page.statusCode).toBe(404);
    expect(page.json().error).toBe(PRODUCT_MESSAGES.productNotFound);
    const again = await checkout(p.productId, `${tag}-again`);
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe(CHECKOUT_MESSAGES.unknownProduct);
    // The thumbnail copy no order bought is gone; the captured frame is kept, privately, for the orders.
    expect(await stored(p.thumbnailKey)).toBe(false);
    expect(await stored(p.captureKey)).toBe(true);
    expect((await itemOf(paidId)).merch_product_id).toBeNull();

    // The paid order is printed from that frame and sent to the print shop.
    await t.app.jobs.runDue();
    expect((await orderOf(paidId)).status).toBe('submitted');
    const printed = await itemOf(paidId);
    expect(printed.print_file_key).toBeTruthy();
    expect(await t.storage.stat('prints', printed.print_file_key!)).not.toBeNull();
    // The unpaid order may still be paid, so its frame stays until its checkout expires.
    expect(await stored(p.captureKey)).toBe(true);
    expect(await frameStatus(null, p.captureKey)).toBe(404);

    await t.db.transaction().execute((trx) => transitionOrder(trx, unpaidId, 'cancelled', { reason: 'Checkout expired' }));
    await t.app.pendingObjects.sweep(false);
    expect(await stored(p.captureKey)).toBe(false);
    expect(await t.db.selectFrom('pending_objects').select('key').where('key', 'in', [p.captureKey, p.thumbnailKey]).execute()).toEqual([]);
  });
});

describe('a withdrawn frame only paid orders need', () => {
  it('is removed as soon as the last of them is sent to the print shop', async () => {
    const p = await productFromUpload();
    const paid = await checkout(p.productId, 'only-paid');
    const { order_id: paidId, session_id: sessionId } = paid.json() as { order_id: string; session_id: string };
    expect((await payForm(sessionId, testCard('4242424242424242'))).statusCode).toBe(303);

    expect((await call(p.creator, 'DELETE', `/api/videos/${p.videoId}`)).statusCode).toBe(200);
    expect(await stored(p.captureKey)).toBe(true);
    await t.app.jobs.runDue();
    expect((await orderOf(paidId)).status).toBe('submitted');
    expect(await stored(p.captureKey)).toBe(false);
  });
});

describe('a server that stops right after deleting a video', () => {
  it('leaves its withdrawn frames unseen, and to the next sweep to remove', async () => {
    const p = await productFromUpload();
    // The deletion committed and nothing after it ran: the database alone withdrew the product.
    await t.db.deleteFrom('videos').where('id', '=', p.videoId).execute();
    expect(await frameStatus(null, p.captureKey)).toBe(404);
    expect(await stored(p.captureKey)).toBe(true);
    await t.app.pendingObjects.sweep(false);
    expect(await stored(p.captureKey)).toBe(false);
    expect(await stored(p.thumbnailKey)).toBe(false);
  });
});

describe('a payment that arrives after the checkout expired and the video was deleted', () => {
  it('is refunded: there is nothing left to print, so the order is not revived', async () => {
    const p = await productFromUpload();
    const made = await checkout(p.productId, 'expired-then-deleted');
    const { order_id: orderId, session_id: sessionId } = made.json() as { order_id: string; session_id: string };
    await t.db.transaction().execute((trx) => transitionOrder(trx, orderId, 'cancelled', { reason: 'Checkout expired' }));
    expect((await call(p.creator, 'DELETE', `/api/videos/${p.videoId}`)).statusCode).toBe(200);

    const intent = 'pi_test_lateAfterDeletion01';
    const event = {
      id: 'evt_test_lateAfterDeletion01',
      object: 'event',
      type: 'checkout.session.completed',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      data: { object: { id: sessionId, object: 'checkout.session', payment_status: 'paid', currency: 'usd', payment_intent: intent, metadata: { order_id: orderId } } },
    };
    expect((await deliver(t, event as unknown as StripeLikeEvent)).statusCode).toBe(200);
    expect((await orderOf(orderId)).status).toBe('cancelled');
    const jobs = await t.db.selectFrom('jobs').select(['kind', 'dedupe_key']).where('dedupe_key', 'in', [`refund:${intent}`, `fulfil:${orderId}`]).execute();
    expect(jobs).toEqual([{ kind: 'payment.refund', dedupe_key: `refund:${intent}` }]);
  });
});
