/**
 * Numbers that are not finite are refused with 400 naming the field wherever they arrive (a query
 * string coerced from 'Infinity' or '1e999', a JSON body's 1e999): they used to pass an integer
 * type and fail in the database or the image code with 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nonFiniteAt } from './number-input.ts';
import { testApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => t?.close());

const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('numbers that are not finite', () => {
  it('are found in nested values, with their path', () => {
    expect(nonFiniteAt({ a: [1, { b: Infinity }] }, 'body')).toBe('body.a.1.b');
    expect(nonFiniteAt({ a: -Infinity }, 'querystring')).toBe('querystring.a');
    expect(nonFiniteAt({ a: NaN }, 'params')).toBe('params.a');
    expect(nonFiniteAt({ a: [1, 2.5, -3, 'Infinity', null] }, 'body')).toBeNull();
    expect(nonFiniteAt(undefined, 'body')).toBeNull();
  });

  it('are refused with 400 naming the field in a query string and a JSON body', async () => {
    const requests = [
      { method: 'GET' as const, url: '/api/videos?limit=Infinity', field: 'querystring.limit' },
      { method: 'GET' as const, url: '/api/videos?limit=1e999', field: 'querystring.limit' },
      { method: 'GET' as const, url: '/api/videos?limit=-1e999', field: 'querystring.limit' },
      { method: 'POST' as const, url: '/api/process-shirt-image', body: `{"image_data":"${PNG}","feather_radius":1e999}`, field: 'body.feather_radius' },
      { method: 'POST' as const, url: '/api/process-thumbnail-print-quality', body: `{"thumbnail_data":"${PNG}","print_dpi":1e999}`, field: 'body.print_dpi' },
      {
        method: 'POST' as const,
        url: '/api/process-thumbnail-print-quality',
        body: `{"thumbnail_data":"${PNG}","print_area_in":{"width_in":-1e999,"height_in":4}}`,
        field: 'body.print_area_in.width_in',
      },
    ];
    for (const r of requests) {
      const res = await t.app.inject({ method: r.method, url: r.url, ...(r.body ? { payload: r.body, headers: { 'content-type': 'application/json' } } : {}) });
      expect(res.statusCode, `${r.method} ${r.url} ${r.body ?? ''}: ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
      expect(res.json().error).toContain(r.field);
    }
  });

  it('leaves finite numbers in range to the schema as before', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/videos?limit=5' })).statusCode).toBe(200);
    const tooLarge = await t.app.inject({ method: 'GET', url: '/api/videos?limit=500' });
    expect(tooLarge.statusCode).toBe(400);
    expect(tooLarge.json().error).toContain('querystring.limit');
  });
});
