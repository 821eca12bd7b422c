import { describe, expect, it } from 'vitest';
import { PRODUCT_MESSAGES } from '../../../shared/schemas/products.ts';
import { createApiClient, NETWORK_MESSAGE } from '../../lib/api.ts';
import { ApiError } from '../../lib/ApiError.ts';
import type { PendingMerch, PendingScreenshot } from '../../stores/pendingMerchRecord.ts';
import { blobToDataUrl, createProduct, createProductBody, createProductErrorMessage, imageTypeOf } from './createProduct.ts';

const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9]);

const shot = (id: string, bytes: Uint8Array, over: Partial<PendingScreenshot> = {}): PendingScreenshot => ({
  id,
  blob: new Blob([bytes as BlobPart], { type: '' }),
  width: 640,
  height: 360,
  source: 'canvas',
  timestamp: 1,
  ...over,
});

const record = (screenshots: PendingScreenshot[]): PendingMerch => ({
  videoId: 'v1',
  videoUrl: '/media/videos/ab/clip.mp4',
  thumbnail: '/media/thumbnails/ab/t.jpg',
  videoTitle: 'A clip',
  creatorName: 'Ada',
  screenshots,
  screenshot_timestamp: 7,
});

const decode = (dataUrl: string) => Uint8Array.from(atob(dataUrl.slice(dataUrl.indexOf(',') + 1)), (c) => c.charCodeAt(0));

describe('the create-product body', () => {
  it('sends captures as data URLs of their real type, leaves out the thumbnail, and names the category', async () => {
    const body = await createProductBody(
      record([
        shot('t', JPEG, { source: 'thumbnail', timestamp: null }),
        shot('a', PNG, { timestamp: 3.5 }),
        shot('b', JPEG, { timestamp: 9 }),
      ]),
      'mugs',
      'ada@example.com',
    );
    expect(body.screenshots).toHaveLength(2);
    expect(body.screenshots[0]!.startsWith('data:image/png;base64,')).toBe(true);
    expect(decode(body.screenshots[0]!)).toEqual(PNG);
    expect(body.screenshots[1]!.startsWith('data:image/jpeg;base64,')).toBe(true);
    expect(decode(body.screenshots[1]!)).toEqual(JPEG);
    expect(body).toMatchObject({
      videoUrl: '/media/videos/ab/clip.mp4',
      screenshot_timestamp: 3.5,
      category: 'mugs',
      videoTitle: 'A clip',
      creatorName: 'Ada',
      isAuthenticated: true,
      userEmail: 'ada@example.com',
    });
  });

  it('refuses a blob that is not an image', async () => {
    await expect(blobToDataUrl(new Blob(['hello']))).rejects.toThrow(/not a JPEG, PNG or WebP/);
    expect(imageTypeOf('', new Uint8Array([0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x45, 0x42, 0x50]))).toBe('image/webp');
  });

  it('never sends a preview in place of a full image still being encoded', async () => {
    const pending = shot('p', JPEG, { blob: null, preview: new Blob([PNG as BlobPart]) });
    await expect(createProductBody(record([pending]), null, null)).rejects.toThrow(/still being prepared/);
  });

  it('converts a large blob without overflowing the call stack', async () => {
    const big = new Uint8Array(300_000).map((_, i) => i % 251);
    big.set(JPEG);
    const back = decode(await blobToDataUrl(new Blob([big])));
    expect(back.length).toBe(big.length);
    expect(back.every((b, i) => b === big[i])).toBe(true);
  });
});

describe('create-product errors', () => {
  it('quote the server, or Unknown error when it gave no reason', () => {
    expect(createProductErrorMessage(new ApiError(400, 'BAD_REQUEST', 'x', 'Only videos on this site can be made into merch.'))).toBe(
      'Failed to create merch product page: Only videos on this site can be made into merch.',
    );
    expect(createProductErrorMessage(new ApiError(500, 'HTTP_ERROR', 'Request failed with status 500'))).toBe(
      'Failed to create merch product page: Unknown error',
    );
  });

  it('say the merch server was not reached', () => {
    expect(createProductErrorMessage(new ApiError(0, 'NETWORK_ERROR', NETWORK_MESSAGE))).toBe(`Error connecting to merch server: ${NETWORK_MESSAGE}`);
    expect(createProductErrorMessage(Object.assign(new Error('signal timed out'), { name: 'TimeoutError' }))).toMatch(/^Error connecting to merch server: /);
  });

  it('fall back to the generic message for anything else', () => {
    expect(createProductErrorMessage(new TypeError('boom'))).toBe(PRODUCT_MESSAGES.createError);
    expect(createProductErrorMessage(new ApiError(200, 'NOT_JSON', 'Unexpected response from server (not JSON)'))).toBe(PRODUCT_MESSAGES.createError);
  });
});

describe('createProduct', () => {
  it('posts the body and answers the product page address', async () => {
    const calls: Array<{ url: string; init: RequestInit }> = [];
    const request = createApiClient(async (url, init) => {
      calls.push({ url, init });
      return new Response(JSON.stringify({ success: true, product_id: 'p1', product_url: '/product/p1' }), { status: 200 });
    });
    await expect(createProduct(record([shot('a', JPEG)]), 'hats', { request })).resolves.toBe('/product/p1');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe('/api/create-product');
    expect(calls[0]!.init.method).toBe('POST');
    expect(JSON.parse(String(calls[0]!.init.body))).toMatchObject({ category: 'hats', isAuthenticated: false, userEmail: null });
  });

  it('throws the server refusal as the spec words it', async () => {
    const request = createApiClient(async () => new Response(JSON.stringify({ error: 'Video not found.', code: 'NOT_FOUND' }), { status: 404 }));
    await expect(createProduct(record([shot('a', JPEG)]), null, { request })).rejects.toThrow('Failed to create merch product page: Video not found.');
  });

  it('throws the connection message when the server cannot be reached', async () => {
    const request = createApiClient(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(createProduct(record([shot('a', JPEG)]), null, { request })).rejects.toThrow(`Error connecting to merch server: ${NETWORK_MESSAGE}`);
  });

  it('throws the generic message when a screenshot cannot be read', async () => {
    const request = createApiClient(async () => new Response('{}'));
    await expect(createProduct(record([shot('a', new Uint8Array([1, 2, 3]))]), null, { request })).rejects.toThrow(PRODUCT_MESSAGES.createError);
  });
});
