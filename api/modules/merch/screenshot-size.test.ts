/**
 * Screenshots are frames of a video, so none is larger than the largest frame a video can have:
 * a larger image is refused from its header, before it is decoded, and a flood of them costs
 * the server almost no memory.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_MESSAGES } from '../../../shared/schemas/products.ts';
import type { TestApp } from '../../test/harness.ts';
import { seededApp } from '../../test/seeded.ts';
import { signedInCreator } from '../../test/upload-helpers.ts';

let t: TestApp;
let videoUrl: string;
let me: Awaited<ReturnType<typeof signedInCreator>>;

/** A solid colour compresses small, so a 49-megapixel screenshot fits well inside the body limit. */
const pngDataUrl = async (width: number, height: number) =>
  `data:image/png;base64,${(await sharp({ create: { width, height, channels: 3, background: '#c63' } }).png().toBuffer()).toString('base64')}`;

beforeAll(async () => {
  t = await seededApp();
  const card = (await t.app.inject({ url: '/api/videos?limit=1' })).json().videos[0];
  videoUrl = (await t.app.inject({ url: `/api/videos/${card.id}` })).json().video.video_url;
  me = await signedInCreator(t, 'screenshots');
});
afterAll(async () => t?.close());

const create = (screenshots: string[]) =>
  t.app.inject({ method: 'POST', url: '/api/create-product', headers: me.headers, cookies: me.cookies, payload: { videoUrl, screenshots } });

async function storedState() {
  const files: string[] = [];
  for await (const key of t.storage.list('screenshots')) files.push(key);
  const products = await t.db.selectFrom('merch_products').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return { files: files.sort(), products: Number(products.n) };
}

describe('POST /api/create-product and the size of a screenshot', () => {
  it('refuses a 49-megapixel screenshot with 413 and says why, storing nothing', async () => {
    const huge = await pngDataUrl(7000, 7000);
    const small = await pngDataUrl(320, 180);
    const before = await storedState();
    for (const screenshots of [[huge], [small, huge]]) {
      const res = await create(screenshots);
      expect(res.statusCode, res.body).toBe(413);
      expect(res.json()).toMatchObject({
        success: false,
        code: 'PAYLOAD_TOO_LARGE',
        error: `${PRODUCT_MESSAGES.tooLarge} Images can be at most 3840 x 2160 pixels (8,294,400 pixels); this one is 7000 x 7000.`,
      });
    }
    expect(await storedState()).toEqual(before);
    expect(await t.db.selectFrom('pending_objects').selectAll().execute()).toEqual([]);
  });

  it('keeps a 3840 x 2160 screenshot, and a portrait 2160 x 3840 one, at full size', async () => {
    const res = await create([await pngDataUrl(3840, 2160), await pngDataUrl(2160, 3840)]);
    expect(res.statusCode, res.body).toBe(200);
    const product = (await t.app.inject({ url: `/api/product/${res.json().product_id}` })).json().product;
    expect(product.screenshot_sizes).toEqual([
      { width: 3840, height: 2160 },
      { width: 2160, height: 3840 },
    ]);
  });

  it('keeps a lossless frame larger than 8 MB, and refuses a body larger than the limit with 413', async () => {
    // Stored, not compressed: 2880 x 1620 x 3 bytes, about 14 MB, as large as a 4K frame's PNG gets.
    const big = (await sharp({ create: { width: 2880, height: 1620, channels: 3, background: '#c63' } }).png({ compressionLevel: 0 }).toBuffer()).toString('base64');
    expect(big.length).toBeGreaterThan((8 * 1024 * 1024 * 4) / 3);
    const ok = await create([`data:image/png;base64,${big}`]);
    expect(ok.statusCode, ok.body).toBe(200);
    const product = (await t.app.inject({ url: `/api/product/${ok.json().product_id}` })).json().product;
    expect(product.screenshot_sizes).toEqual([{ width: 2880, height: 1620 }]);
    const tooMuch = await create(Array.from({ length: 4 }, () => `data:image/png;base64,${big}`));
    expect(tooMuch.statusCode).toBe(413);
  });

  it('answers ten concurrent 49-megapixel uploads quickly, without the memory their pixels would take', async () => {
    const huge = await pngDataUrl(7000, 7000);
    const grown = process.memoryUsage().rss;
    const started = Date.now();
    const replies = await Promise.all(Array.from({ length: 10 }, () => create([huge])));
    expect(replies.map((r) => r.statusCode)).toEqual(Array(10).fill(413));
    // Decoded, each would be 147 MB of pixels (three bytes each) before any resizing.
    expect(process.memoryUsage().rss - grown).toBeLessThan(256 * 1024 * 1024);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
