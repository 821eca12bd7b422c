/**
 * Compressed request bodies are refused with 415 before they are read, so a small body that
 * would expand without bound (a "zip bomb") costs the server nothing: no decompression, no
 * memory growth, an answer at once. Bodies sent as they are (or as "identity") are unaffected.
 */
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENCODED_BODY_MESSAGE } from '../platform/http/request-encoding.ts';
import { testApp, type TestApp } from './harness.ts';
import { signedInCreator } from './upload-helpers.ts';

let t: TestApp;
let creator: Awaited<ReturnType<typeof signedInCreator>>;
/** 128 MB of zeros, past every body limit (create-product takes the most, about 67 MB), in about 128 KB of gzip. */
const EXPANDED_BYTES = 128 * 1024 * 1024;
let bomb: Buffer;

beforeAll(async () => {
  t = await testApp();
  creator = await signedInCreator(t, 'bomber');
  bomb = gzipSync(Buffer.alloc(EXPANDED_BYTES), { level: 9 });
});
afterAll(async () => t?.close());

const ROUTES = [
  { url: '/api/create-product', type: 'application/json' },
  { url: '/api/videos', type: 'multipart/form-data; boundary=x' },
  { url: '/api/studio/profile/avatar', type: 'multipart/form-data; boundary=x' },
  { url: '/api/webhooks/stripe', type: 'application/json' },
  { url: '/api/process-thumbnail-print-quality', type: 'application/json' },
];

describe('compressed request bodies', () => {
  it('refuses a gzip bomb with 415 on every route that takes a body, quickly and without memory growth', async () => {
    expect(bomb.length).toBeLessThan(1024 * 1024);
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    for (const { url, type } of ROUTES) {
      const started = Date.now();
      const res = await t.app.inject({
        method: 'POST',
        url,
        payload: bomb,
        headers: { ...creator.headers, 'content-type': type, 'content-encoding': 'gzip' },
        cookies: creator.cookies,
      });
      expect(res.statusCode, url).toBe(415);
      expect(res.json(), url).toEqual({ success: false, error: ENCODED_BODY_MESSAGE, code: 'UNSUPPORTED_MEDIA_TYPE' });
      expect(Date.now() - started, url).toBeLessThan(1000);
    }
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(64 * 1024 * 1024);
  });

  it.each([
    ['deflate', deflateSync(Buffer.from('{"videoUrl": "/x", "screenshots": []}'))],
    ['br', brotliCompressSync(Buffer.from('{"videoUrl": "/x", "screenshots": []}'))],
    ['gzip, identity', gzipSync(Buffer.from('{"videoUrl": "/x", "screenshots": []}'))],
    ['x-unknown', Buffer.from('{"videoUrl": "/x", "screenshots": []}')],
  ])('refuses a body sent with Content-Encoding: %s', async (encoding, payload) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/create-product',
      payload,
      headers: { ...creator.headers, 'content-type': 'application/json', 'content-encoding': encoding },
      cookies: creator.cookies,
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().error).toBe(ENCODED_BODY_MESSAGE);
  });

  it('takes a body sent as it is, or as identity', async () => {
    for (const headers of [{}, { 'content-encoding': 'identity' }]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/create-product',
        payload: { videoUrl: '/media/videos/ab/none.mp4', screenshots: [] },
        headers: { ...creator.headers, ...headers },
        cookies: creator.cookies,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).not.toBe(ENCODED_BODY_MESSAGE);
    }
  });
});
