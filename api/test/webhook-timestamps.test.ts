/**
 * POST /api/webhooks/stripe takes a correctly signed event only when its timestamp is within
 * 300 s of the server's clock, whether the stamp is in the past or in the future; a refused
 * event has no effect. The clock is held still so a second's tick cannot move the boundary.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { testApp, type TestApp } from './harness.ts';
import { completedEvent, deliver, makeOrder, type TestOrder } from './webhook-support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => t?.close());
afterEach(() => vi.useRealTimers());

const NOW_S = Math.floor(Date.now() / 1000);
const holdClock = () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW_S * 1000 + 500);
};

async function state(order: TestOrder) {
  const o = await t.db.selectFrom('orders').select('status').where('id', '=', order.id).executeTakeFirstOrThrow();
  const processed = await t.db.selectFrom('processed_webhook_events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return { status: o.status, processed: Number(processed.n) };
}

describe('the Stripe webhook timestamp window', () => {
  it.each([
    ['301 s in the future', 301],
    ['301 s in the past', -301],
    ['one day in the future', 86_400],
    ['one day in the past', -86_400],
  ])('refuses an event stamped %s, with no effect', async (_name, offset) => {
    const order = await makeOrder(t.db, [{ sku: 'unisex-tshirt', size: 'M', quantity: 1 }]);
    const before = await state(order);
    holdClock();
    const res = await deliver(t, completedEvent(order), { timestamp: NOW_S + offset });
    vi.useRealTimers();
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, error: 'The event signature could not be verified.', code: 'INVALID_SIGNATURE' });
    expect(await state(order)).toEqual({ status: 'pending', processed: before.processed });
  });

  it.each([
    ['299 s in the future', 299],
    ['299 s in the past', -299],
  ])('accepts an event stamped %s', async (_name, offset) => {
    const order = await makeOrder(t.db, [{ sku: 'unisex-tshirt', size: 'M', quantity: 1 }]);
    const before = await state(order);
    holdClock();
    const res = await deliver(t, completedEvent(order), { timestamp: NOW_S + offset });
    vi.useRealTimers();
    expect(res.statusCode, res.body).toBe(200);
    expect(await state(order)).toEqual({ status: 'paid', processed: before.processed + 1 });
  });
});
