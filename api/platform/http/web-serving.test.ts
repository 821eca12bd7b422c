import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, testConfig, type TestApp } from '../../test/harness.ts';

let t: TestApp;
const script = `console.log(${JSON.stringify('framemerch '.repeat(400))});`;

beforeAll(async () => {
  const dist = await mkdtemp(path.join(os.tmpdir(), 'fm-dist-'));
  await mkdir(path.join(dist, 'assets'));
  await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>FrameMerch</title><div id="root"></div>');
  await writeFile(path.join(dist, 'assets', 'index-AbC123.js'), script);
  await writeFile(path.join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  await writeFile(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  t = await testApp({ config: await testConfig({ WEB_DIST: dist }) });
});
afterAll(async () => t?.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

describe('serving the web app from the API process', () => {
  it('answers / and every client route with index.html, never cached', async () => {
    for (const url of ['/', '/video/0/8d1f0c1e-0000-4000-8000-000000000000', '/privacy-policy', '/search?q=cats']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.body, url).toContain('<div id="root">');
    }
  });

  it('caches hashed assets for a year and compresses them', async () => {
    const res = await get('/assets/index-AbC123.js', { 'accept-encoding': 'gzip' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.rawPayload.length).toBeLessThan(script.length / 4);
    const plain = await get('/assets/index-AbC123.js');
    expect(plain.body).toBe(script);
  });

  it('serves the service worker from the root, never cached, allowed the whole site', async () => {
    const res = await get('/sw.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['service-worker-allowed']).toBe('/');
    expect(res.body).toContain('addEventListener');
  });

  it('keeps unknown API and media paths as JSON 404s, not the app', async () => {
    for (const url of ['/api/nothing', '/media/videos/ab/none.mp4']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/application\/json/);
      expect(res.json().success, url).toBe(false);
    }
    const post = await t.app.inject({ method: 'POST', url: '/privacy-policy' });
    expect(post.statusCode).toBe(404);
  });
});
