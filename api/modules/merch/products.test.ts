/**
 * Merch products: a video's frames stored as image files, linked to the video's creator by id,
 * and nothing stored when anything in the request is wrong.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MERCH_CATEGORIES } from '../../../shared/categories.ts';
import { PRODUCT_MESSAGES } from '../../../shared/schemas/products.ts';
import { createSession, SESSION_COOKIE } from '../../platform/sessions/sessions.ts';
import { createUser } from '../accounts/index.ts';
import { readCatalogue } from './catalogue.ts';
import { ORIGIN } from '../../test/browser.ts';
import type { TestApp } from '../../test/harness.ts';
import { seededApp } from '../../test/seeded.ts';

let t: TestApp;
let video: { id: string; video_url: string; user_id: string; channel_title: string; title: string };
let buyer: { id: string; cookie: string };

const jpegDataUrl = async (width: number, height: number, colour: string) =>
  `data:image/jpeg;base64,${(await sharp({ create: { width, height, channels: 3, background: colour } }).jpeg({ quality: 92 }).toBuffer()).toString('base64')}`;
const pngDataUrl = async (width: number, height: number) =>
  `data:image/png;base64,${(await sharp({ create: { width, height, channels: 4, background: { r: 10, g: 200, b: 30, alpha: 1 } } }).png().toBuffer()).toString('base64')}`;

beforeAll(async () => {
  t = await seededApp();
  const card = (await t.app.inject({ url: '/api/videos?limit=1' })).json().videos[0];
  const detail = (await t.app.inject({ url: `/api/videos/${card.id}` })).json().video;
  const row = await t.db.selectFrom('videos').select('user_id').where('id', '=', card.id).executeTakeFirstOrThrow();
  const owner = await t.db.selectFrom('users').select('display_name').where('id', '=', row.user_id).executeTakeFirstOrThrow();
  video = { id: card.id, video_url: detail.video_url, user_id: row.user_id, channel_title: owner.display_name, title: detail.title };
  const user = await createUser(t.db, { email: 'buyer@example.com', displayName: 'Buyer', role: 'customer', emailVerified: true });
  const session = await createSession(t.db, user.id, 1, {});
  buyer = { id: user.id, cookie: `${SESSION_COOKIE}=${session.token}` };
});
afterAll(async () => t?.close());

const create = (payload: object, cookie: string | null = buyer.cookie) =>
  t.app.inject({
    method: 'POST',
    url: '/api/create-product',
    headers: { host: 'localhost:3000', origin: ORIGIN, ...(cookie ? { cookie } : {}) },
    payload,
  });

async function storedState() {
  const files: string[] = [];
  for await (const key of t.storage.list('screenshots')) files.push(key);
  const products = await t.db.selectFrom('merch_products').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const shots = await t.db.selectFrom('merch_screenshots').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return { files: files.sort(), products: Number(products.n), shots: Number(shots.n) };
}

describe('POST /api/create-product', () => {
  it("stores the screenshots as images and links the product to the video's creator, whatever the names say", async () => {
    const before = await storedState();
    const res = await create({
      videoUrl: video.video_url,
      thumbnail: 'https://elsewhere.example/thumb.jpg',
      screenshots: [await jpegDataUrl(1280, 720, '#3366cc'), await pngDataUrl(320, 200)],
      screenshot_timestamp: 1.25,
      videoTitle: 'Not the title',
      creatorName: 'Somebody Else',
      isAuthenticated: true,
      userEmail: 'admin@example.com',
      category: 'mens',
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.product_url).toBe(`/product/${body.product_id}`);

    const row = await t.db.selectFrom('merch_products').selectAll().where('id', '=', body.product_id).executeTakeFirstOrThrow();
    expect(row.video_id).toBe(video.id);
    expect(row.creator_id).toBe(video.user_id);
    expect(row.created_by).toBe(buyer.id);
    expect(row.video_title).toBe(video.title);
    expect(row.creator_name).toBe(video.channel_title);
    expect(row.screenshot_timestamp_ms).toBe(1250);

    const after = await storedState();
    expect(after.products).toBe(before.products + 1);
    expect(after.shots).toBe(before.shots + 3); // the video's thumbnail and the two screenshots
    expect(after.files.length).toBe(before.files.length + 3);

    const page = await t.app.inject({ url: `/api/product/${body.product_id}` });
    expect(page.statusCode).toBe(200);
    const { product, products, category, img_url } = page.json();
    expect(product.screenshots).toHaveLength(2);
    expect(product.screenshot_sizes).toEqual([{ width: 1280, height: 720 }, { width: 320, height: 200 }]);
    expect(product.thumbnail_url).toMatch(/^\/media\/screenshots\//);
    expect(product.video_url).toBe(video.video_url);
    expect(category).toBe('mens');
    expect(products.length).toBeGreaterThan(0);
    expect(products.every((p: { category: string }) => p.category === 'mens')).toBe(true);
    expect(img_url).toBe(product.screenshots[0]);

    // The stored files are real images of the same size (re-encoded, so no data URL is kept).
    for (const [i, url] of product.screenshots.entries()) {
      const file = await t.app.inject({ url });
      expect(file.statusCode).toBe(200);
      const meta = await sharp(file.rawPayload).metadata();
      expect({ width: meta.width, height: meta.height }).toEqual(product.screenshot_sizes[i]);
    }
    const stored = await t.db.selectFrom('merch_screenshots').select('storage_key').where('merch_product_id', '=', body.product_id).execute();
    expect(stored.every((s) => !s.storage_key.startsWith('data:'))).toBe(true);
  });

  it('refuses 7 screenshots, a screenshot that is not the image it claims (415), and a video not on this site, storing nothing', async () => {
    const good = await jpegDataUrl(64, 64, '#ff0000');
    const before = await storedState();
    const cases: Array<[string, object, string | RegExp]> = [
      ['seven screenshots', { videoUrl: video.video_url, screenshots: Array(7).fill(good) }, /screenshots/],
      ['text as a PNG', { videoUrl: video.video_url, screenshots: [good, `data:image/png;base64,${Buffer.from('not an image at all').toString('base64')}`] }, PRODUCT_MESSAGES.notAnImage],
      ['a truncated JPEG', { videoUrl: video.video_url, screenshots: [good, good.slice(0, 200)] }, PRODUCT_MESSAGES.notAnImage],
      ['a JPEG that claims to be a PNG', { videoUrl: video.video_url, screenshots: [good.replace('data:image/jpeg;', 'data:image/png;')] }, PRODUCT_MESSAGES.notAnImage],
      ['an unknown stored video', { videoUrl: '/media/videos/ab/none.mp4', screenshots: [good] }, PRODUCT_MESSAGES.unknownVideo],
      ['another site', { videoUrl: `https://evil.example${video.video_url}`, screenshots: [good] }, PRODUCT_MESSAGES.unknownVideo],
      ['a file path', { videoUrl: 'file:///etc/passwd', screenshots: [good] }, PRODUCT_MESSAGES.unknownVideo],
      ['an unknown category', { videoUrl: video.video_url, screenshots: [good], category: 'boats' }, /category/],
    ];
    for (const [name, payload, message] of cases) {
      const res = await create(payload);
      // Bytes that are not the image they claim to be are an unsupported media type; the rest is a bad request.
      expect(res.statusCode, `${name}: ${res.body.slice(0, 300)}`).toBe(message === PRODUCT_MESSAGES.notAnImage ? 415 : 400);
      const body = res.json();
      expect(body.success, name).toBe(false);
      expect(body.error, name).toMatch(message);
    }
    expect(await storedState()).toEqual(before);
  });

  it('needs a signed-in user, whatever the body claims', async () => {
    const res = await create({ videoUrl: video.video_url, screenshots: [await jpegDataUrl(64, 64, '#00ff00')], isAuthenticated: true, userEmail: 'buyer@example.com' }, null);
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /api/product/browse', () => {
  it("lists a category's catalogue products, or all of them, ignoring cache-busting parameters", async () => {
    const mugs = await t.app.inject({ url: '/api/product/browse?category=mugs&authenticated=true&email=a%40b.c&_=123' });
    expect(mugs.statusCode, mugs.body).toBe(200);
    const body = mugs.json();
    expect(body.category).toBe('mugs');
    expect(body.products.length).toBeGreaterThan(0);
    expect(body.products.every((p: { category: string }) => p.category === 'mugs')).toBe(true);
    const all = (await t.app.inject({ url: '/api/product/browse?category=all' })).json();
    expect(all.category).toBeNull();
    expect(all.products.length).toBe((await readCatalogue()).products.length);
    expect((await t.app.inject({ url: '/api/product/browse?category=boats' })).statusCode).toBe(400);
  });
});

describe('product pages by category', () => {
  it('browse lists exactly the catalogue products of each category, in catalogue order', async () => {
    const catalogue = await readCatalogue();
    for (const category of MERCH_CATEGORIES) {
      const res = await t.app.inject({ url: `/api/product/browse?category=${category}` });
      expect(res.statusCode, category).toBe(200);
      const body = res.json();
      expect(body.category, category).toBe(category);
      const expected = catalogue.products.filter((p) => p.category === category).map((p) => p.sku);
      expect(expected.length, `${category} has products`).toBeGreaterThan(0);
      expect(body.products.map((p: { sku: string }) => p.sku), category).toEqual(expected);
    }
    const none = (await t.app.inject({ url: '/api/product/browse' })).json();
    expect(none.category).toBeNull();
    expect(none.products).toHaveLength(catalogue.products.length);
  });

  it("a product page lists its own category by default, another one when asked, and every one for 'all'", async () => {
    const made = (await create({ videoUrl: video.video_url, screenshots: [await jpegDataUrl(1280, 720, '#aa3300')], category: 'hats' })).json();
    const url = `/api/product/${made.product_id}`;
    const own = (await t.app.inject({ url })).json();
    expect(own.category).toBe('hats');
    expect(own.products.every((p: { category: string }) => p.category === 'hats')).toBe(true);
    const mugs = await t.app.inject({ url: `${url}?category=mugs&authenticated=true&_=1` });
    expect(mugs.statusCode).toBe(200);
    expect(mugs.json().category).toBe('mugs');
    expect(mugs.json().products.length).toBeGreaterThan(0);
    expect(mugs.json().products.every((p: { category: string }) => p.category === 'mugs')).toBe(true);
    // The product itself is the same whichever category is listed.
    expect(mugs.json().product).toEqual(own.product);
    const all = (await t.app.inject({ url: `${url}?category=all` })).json();
    expect(all.category).toBeNull();
    expect(all.products).toHaveLength((await readCatalogue()).products.length);
    expect((await t.app.inject({ url: `${url}?category=` })).json().category).toBe('hats');

    // Made without a category (from the video page): every product.
    const plain = (await create({ videoUrl: video.video_url, screenshots: [await jpegDataUrl(640, 360, '#0033aa')] })).json();
    const page = (await t.app.inject({ url: `/api/product/${plain.product_id}` })).json();
    expect(page.category).toBeNull();
    expect(page.products).toHaveLength((await readCatalogue()).products.length);
  });

  it('refuses a category that does not exist with 400 and a code, on both addresses, never a 500', async () => {
    const made = (await create({ videoUrl: video.video_url, screenshots: [await jpegDataUrl(64, 64, '#123456')], category: 'mugs' })).json();
    for (const url of [
      '/api/product/browse?category=boats',
      '/api/product/browse?category=MUGS',
      `/api/product/browse?category=${'x'.repeat(5000)}`,
      '/api/product/browse?category=mugs&category=hats',
      `/api/product/${made.product_id}?category=boats`,
    ]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, `${url.slice(0, 80)}: ${res.body.slice(0, 200)}`).toBe(400);
      expect(res.json(), url.slice(0, 80)).toMatchObject({ success: false, code: expect.any(String) });
    }
  });
});

describe('GET /api/product/:productId', () => {
  it('says Product Not Found for an unknown product and refuses a malformed id', async () => {
    const missing = await t.app.inject({ url: '/api/product/00000000-0000-4000-8000-000000000000' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe(PRODUCT_MESSAGES.productNotFound);
    expect((await t.app.inject({ url: "/api/product/1' OR '1'='1" })).statusCode).toBe(400);
  });
});
