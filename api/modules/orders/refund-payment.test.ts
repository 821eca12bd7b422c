/**
 * A paid order the print shop cancels is refunded in full: its refund job asks the payment
 * provider, whose charge.refunded event moves the order to refunded and reverses its earnings,
 * each once however often the cancellation is reported.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueProduct, CHECKOUT_ORIGIN as ORIGIN, checkoutBody, checkoutClient, makeMerchProduct, testCard, variantOf, type TestProduct } from '../../test/checkout-support.ts';
import { testApp, testConfig, type TestApp } from '../../test/harness.ts';
import { applyFulfilmentEvent } from './index.ts';

let t: TestApp;
let product: TestProduct;
beforeAll(async () => {
  t = await testApp({ config: await testConfig({ PUBLIC_URL: ORIGIN }) });
  product = await makeMerchProduct(t.db, { captures: 1 });
});
afterAll(async () => t?.close());

const { post, payForm } = checkoutClient(() => t);

const orderOf = (id: string) => t.db.selectFrom('orders').select(['status', 'payment_intent_id']).where('id', '=', id).executeTakeFirstOrThrow();
const earningKinds = async (orderId: string) =>
  (await t.db.selectFrom('earnings as e').innerJoin('order_items as i', 'i.id', 'e.order_item_id').select('e.kind').where('i.order_id', '=', orderId).orderBy('e.kind', 'desc').execute()).map((r) => r.kind);

describe('a paid order the print shop cancels', () => {
  it('is refunded in full, once, with its earnings reversed', async () => {
    const res = await post(
      '/api/create-checkout-session',
      checkoutBody([{ product_id: product.id, variant_id: variantOf(catalogueProduct(t, 'unisex-tshirt'), 'M'), quantity: 1, selected_screenshot: 0 }], {
        idempotency_key: 'print-shop-cancel-01',
        email: 'cancelled-buyer@example.com',
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const { order_id: orderId, session_id: sessionId } = res.json() as { order_id: string; session_id: string };
    expect((await payForm(sessionId, testCard('4242424242424242'))).statusCode).toBe(303);
    expect(await orderOf(orderId)).toMatchObject({ status: 'paid' });
    expect(await earningKinds(orderId)).toEqual(['sale']);

    const canceled = { type: 'order_canceled', data: { order: { external_id: orderId, status: 'canceled' } } };
    for (let i = 0; i < 3; i++) await applyFulfilmentEvent(t.db, canceled, { publicUrl: ORIGIN });
    expect((await orderOf(orderId)).status).toBe('cancelled');
    const { payment_intent_id: intent } = await orderOf(orderId);
    const refunds = await t.db.selectFrom('jobs').select(['kind', 'status']).where('dedupe_key', '=', `refund:${intent}`).execute();
    expect(refunds).toEqual([{ kind: 'payment.refund', status: 'queued' }]);

    await t.app.jobs.runDue();
    await expect.poll(async () => (await orderOf(orderId)).status).toBe('refunded');
    expect(await t.db.selectFrom('jobs').select('status').where('dedupe_key', '=', `refund:${intent}`).executeTakeFirstOrThrow()).toEqual({ status: 'done' });
    expect(await t.db.selectFrom('embedded_payment_sessions').select('payment_status').where('id', '=', sessionId).executeTakeFirstOrThrow()).toEqual({
      payment_status: 'refunded',
    });
    expect(await earningKinds(orderId)).toEqual(['sale', 'reversal']);
  });
});
