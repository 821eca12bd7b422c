import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { API_ROUTES } from '../../../shared/schemas/index.ts';
import { testApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => t?.close());

describe('GET /api/health', () => {
  it('reports the database and storage as working', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, status: 'ok', database: { ok: true }, storage: { ok: true, kind: 'local' } });
    expect(['pglite', 'postgres']).toContain(body.database.kind);
  });
});

describe('errors', () => {
  it('answers an unknown API route with 404 and a stable code', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, error: 'No route GET /api/nothing-here', code: 'ROUTE_NOT_FOUND' });
  });

  it('answers a malformed query with 400, never 500', async () => {
    for (const url of ['/api/videos?limit=abc', '/api/videos?limit=0', '/api/videos?limit=5000', '/api/videos?category=shoes', '/api/videos?before=%00%01']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      // A NUL character is refused before the schema is checked (text-input.ts), the rest by the schema.
      expect(res.json(), url).toMatchObject({ success: false, code: url.includes('%00') ? 'MALFORMED_REQUEST' : 'VALIDATION_FAILED' });
      expect(res.body).not.toMatch(/at .*\.ts:\d+/);
    }
  });

  it('answers a cursor that decodes to nonsense with 400', async () => {
    const before = Buffer.from('yesterday|not-a-uuid').toString('base64url');
    const res = await t.app.inject({ method: 'GET', url: `/api/videos?before=${before}` });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/cursor/);
  });

  it('answers malformed JSON, an empty JSON body and a wrong content type with 4xx', async () => {
    const bad = await t.app.inject({ method: 'DELETE', url: '/api/videos', headers: { 'content-type': 'application/json' }, payload: '{"a":' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ success: false, code: 'MALFORMED_REQUEST' });
    const empty = await t.app.inject({ method: 'POST', url: '/api/videos', headers: { 'content-type': 'application/json' }, payload: '' });
    expect([400, 404]).toContain(empty.statusCode);
    expect(empty.json().success).toBe(false);
    const odd = await t.app.inject({ method: 'POST', url: '/api/videos', headers: { 'content-type': 'application/x-weird' }, payload: 'x' });
    expect(odd.statusCode).toBeGreaterThanOrEqual(400);
    expect(odd.statusCode).toBeLessThan(500);
  });

  it('answers an oversized body with 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/videos',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ x: 'a'.repeat(2 * 1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE' });
  });
});

describe('request ids and security headers', () => {
  it('echoes a request id, or makes one', async () => {
    const given = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'trace-12345678' } });
    expect(given.headers['x-request-id']).toBe('trace-12345678');
    const made = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'bad id with spaces' } });
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends a CSP that allows own wasm and workers and no other origin', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(csp).toContain("worker-src 'self' blob:");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/https?:\/\//);
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('OpenAPI', () => {
  it('documents every API route from the shared schemas', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.title).toBe('FrameMerch API');
    const documented = new Set(Object.entries(doc.paths as Record<string, object>).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`)));
    for (const route of API_ROUTES) {
      const openApiPath = route.url.replace(/:([A-Za-z_]+)/g, '{$1}').replace(/\*$/, '{*}');
      expect(documented, route.url).toContain(`${route.method} ${openApiPath}`);
      expect(t.app.hasRoute({ method: route.method, url: route.url }), route.url).toBe(true);
    }
    const feed = doc.paths['/api/videos'].get;
    expect(feed.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['category', 'limit', 'before']));
    expect(feed.responses['200']).toBeDefined();
    expect(feed.responses['400']).toBeDefined();
  });

  it('serves a docs page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
  });
});

describe('GET /api/catalogue/products', () => {
  it('lists the 50 products with prices in cents, by category on request', async () => {
    const all = (await t.app.inject({ method: 'GET', url: '/api/catalogue/products' })).json();
    expect(all.products).toHaveLength(50);
    const mugs = (await t.app.inject({ method: 'GET', url: '/api/catalogue/products?category=mugs' })).json();
    expect(mugs.products.map((p: { sku: string }) => p.sku)).toEqual(['white-glossy-mug', 'colored-mug', 'enamel-mug', 'travel-mug']);
    expect(mugs.products[0]).toMatchObject({ price_cents: 1695, size_surcharges_cents: { '15oz': 150, '20oz': 300 } });
    expect(mugs.products[0]).not.toHaveProperty('base_cost_cents');
  });

  it('keeps the catalogue in the database too', async () => {
    const rows = await t.db.selectFrom('catalogue_products').select(['sku', 'price_cents', 'base_cost_cents']).where('active', '=', true).execute();
    expect(rows).toHaveLength(50);
    expect(rows.find((r) => r.sku === 'unisex-tshirt')).toEqual({ sku: 'unisex-tshirt', price_cents: 2169, base_cost_cents: 1169 });
  });
});

describe('GET /api/health when a part is down', () => {
  it('answers 503 and names the part that failed', async () => {
    const broken = await testApp();
    try {
      await rm(path.join(broken.config.dataDir, 'storage', '.tmp'), { recursive: true, force: true });
      const storageDown = await broken.app.inject({ method: 'GET', url: '/api/health' });
      expect(storageDown.statusCode).toBe(503);
      expect(storageDown.json()).toMatchObject({ success: false, status: 'degraded', database: { ok: true }, storage: { ok: false } });
      await mkdir(path.join(broken.config.dataDir, 'storage', '.tmp'));
      await broken.database.close();
      const dbDown = await broken.app.inject({ method: 'GET', url: '/api/health' });
      expect(dbDown.statusCode).toBe(503);
      expect(dbDown.json()).toMatchObject({ status: 'degraded', database: { ok: false }, storage: { ok: true } });
    } finally {
      await broken.close();
    }
  });
});
