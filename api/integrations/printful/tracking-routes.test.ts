/**
 * The tracking page answers a limited number of lookups per address (found or not), then 429
 * with Retry-After; another address is not held by it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FULFILMENT_MESSAGES } from '../../../shared/schemas/fulfilment.ts';
import { testApp, type TestApp } from '../../test/harness.ts';
import { TRACKING_LOOKUPS } from './tracking-routes.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => t?.close());

const lookup = (n: number, remoteAddress: string) =>
  t.app.inject({ url: `/track/FM${String(n).padStart(12, '0')}`, remoteAddress });

describe('GET /track/:number', () => {
  it(`answers ${TRACKING_LOOKUPS.max} lookups per address in the window, then 429 with Retry-After`, async () => {
    for (let n = 0; n < TRACKING_LOOKUPS.max; n++) {
      const res = await lookup(n, '203.0.113.40');
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe(FULFILMENT_MESSAGES.unknownParcel);
    }
    const refused = await lookup(999, '203.0.113.40');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ success: false, code: 'RATE_LIMITED', error: FULFILMENT_MESSAGES.tooManyLookups });
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(TRACKING_LOOKUPS.windowMs / 1000);
    // Another address is not held by this one's lookups.
    expect((await lookup(999, '203.0.113.41')).statusCode).toBe(404);
  });
});
