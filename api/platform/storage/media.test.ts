import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newKey } from './object-storage.ts';
import { testApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
let key: string;

beforeAll(async () => {
  t = await testApp();
  key = newKey('mp4');
  await t.storage.put('videos', key, bytes);
});
afterAll(async () => t?.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

describe('GET /media/:bucket/*', () => {
  it('serves the whole file with its type, length and long cache lifetime', async () => {
    const res = await get(`/media/videos/${key}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('video/mp4');
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toContain('immutable');
    expect(res.headers['content-security-policy']).toContain('sandbox');
    expect(Buffer.compare(res.rawPayload, bytes)).toBe(0);
  });

  it('answers a byte range with 206 and exactly those bytes', async () => {
    const res = await get(`/media/videos/${key}`, { range: 'bytes=1000-1999' });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe('bytes 1000-1999/5000');
    expect(res.headers['content-length']).toBe('1000');
    expect(Buffer.compare(res.rawPayload, bytes.subarray(1000, 2000))).toBe(0);
    const tail = await get(`/media/videos/${key}`, { range: 'bytes=-10' });
    expect(Buffer.compare(tail.rawPayload, bytes.subarray(4990))).toBe(0);
  });

  it('answers a range past the end with 416 and the size', async () => {
    const res = await get(`/media/videos/${key}`, { range: 'bytes=5000-6000' });
    expect(res.statusCode).toBe(416);
    expect(res.headers['content-range']).toBe('bytes */5000');
    expect(res.json()).toMatchObject({ success: false, code: 'RANGE_NOT_SATISFIABLE' });
  });

  it('answers 304 when the copy is current', async () => {
    const first = await get(`/media/videos/${key}`);
    const again = await get(`/media/videos/${key}`, { 'if-none-match': String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('finds nothing outside the stored keys', async () => {
    for (const url of [
      '/media/videos/ab/missing.mp4',
      `/media/thumbnails/${key}`,
      '/media/videos/..%2F..%2Fpglite%2FPG_VERSION',
      '/media/videos/../../package.json',
      '/media/videos/ab/x.html',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, url).toBeLessThan(500);
      expect(res.body).not.toContain('"name"');
    }
    expect((await get('/media/secrets/ab/x.mp4')).statusCode).toBe(400);
  });
});
