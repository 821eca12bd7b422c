/**
 * Payment reconciliation: every payment the provider took ends with a paid (or revived) order or
 * a refund, even when its event was lost; each run is recorded for the admin portal, and a second
 * run finds everything in order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SucceededPayment } from '../../integrations/stripe/index.ts';
import { person, send, type Person } from '../../test/admin-support.ts';
import { catalogueProduct, CHECKOUT_ORIGIN as ORIGIN, checkoutBody, checkoutClient, makeMerchProduct, testCard, variantOf, type TestProduct } from '../../test/checkout-support.ts';
import { testApp, testConfig, type TestApp } from '../../test/harness.ts';
import { nextReconcileAt, reconcilePayments } from './reconcile.ts';

let t: TestApp;
let product: TestProduct;
let admin: Person;
beforeAll(async () => {
  t = await testApp({ config: await testConfig({ PUBLIC_URL: ORIGIN }) });
  product = await makeMerchProduct(t.db, { captures: 1 });
  admin = await person(t, { admin: true, name: 'Rita Reconciler' });
});
afterAll(async () => t?.close());

const { post, payForm } = checkoutClient(() => t);
let n = 0;

async function checkout(): Promise<{ orderId: string; sessionId: string }> {
  const res = await post(
    '/api/create-checkout-session',
    checkoutBody([{ product_id: product.id, variant_id: variantOf(catalogueProduct(t, 'unisex-tshirt'), 'M'), quantity: 1, selected_screenshot: 0 }], {
      idempotency_key: `reconcile-${n++}-${Date.now()}`,
      email: 'reconciled@example.com',
    }),
  );
  expect(res.statusCode, res.body).toBe(200);
  const { order_id: orderId, session_id: sessionId } = res.json() as { order_id: string; session_id: string };
  return { orderId, sessionId };
}

/** The provider took the payment, and its event never reached the shop. */
async function paidWithEventLost(sessionId: string): Promise<void> {
  await t.db
    .updateTable('embedded_payment_sessions')
    .set({ status: 'complete', payment_status: 'paid', payment_intent_id: `pi_test_lost${sessionId.slice(-16)}`, updated_at: new Date() })
    .where('id', '=', sessionId)
    .execute();
}

const orderOf = (id: string) => t.db.selectFrom('orders').select(['status', 'payment_intent_id']).where('id', '=', id).executeTakeFirstOrThrow();
const effectsOf = async (orderId: string) => ({
  earnings: (await t.db.selectFrom('earnings as e').innerJoin('order_items as i', 'i.id', 'e.order_item_id').select('e.kind').where('i.order_id', '=', orderId).execute()).length,
  jobs: (await t.db.selectFrom('jobs').select('id').where('dedupe_key', '=', `fulfil:${orderId}`).execute()).length,
  mail: (await t.db.selectFrom('email_outbox').select('id').where('dedupe_key', '=', `order-confirmation:${orderId}`).execute()).length,
});
const deps = () => ({ db: t.db, publicUrl: ORIGIN, log: t.app.log, payments: t.app.payments });

describe('payment reconciliation', () => {
  it('pays the orders whose payment event was lost, revives one whose checkout had expired, and leaves the rest', async () => {
    const normal = await checkout();
    expect((await payForm(normal.sessionId, testCard('4242424242424242'))).statusCode).toBe(303);
    const lost = await checkout();
    await paidWithEventLost(lost.sessionId);
    const expired = await checkout();
    await t.db.updateTable('orders').set({ status: 'cancelled' }).where('id', '=', expired.orderId).execute();
    await paidWithEventLost(expired.sessionId);
    const unpaid = await checkout();

    const run = await reconcilePayments(deps(), new Date());
    expect(run.checked).toBeGreaterThanOrEqual(3);
    expect(run.repaired).toEqual(
      expect.arrayContaining([
        { session_id: lost.sessionId, order_id: lost.orderId, effect: 'pending -> paid' },
        { session_id: expired.sessionId, order_id: expired.orderId, effect: 'cancelled -> paid' },
      ]),
    );
    expect(run.repaired).toHaveLength(2);
    expect(run.refunded).toEqual([]);
    for (const o of [normal, lost, expired]) {
      expect((await orderOf(o.orderId)).status).toBe('paid');
      expect(await effectsOf(o.orderId)).toEqual({ earnings: 1, jobs: 1, mail: 1 });
    }
    expect((await orderOf(unpaid.orderId)).status).toBe('pending');

    // A second run finds everything in order and changes nothing.
    const again = await reconcilePayments(deps(), new Date());
    expect(again).toMatchObject({ repaired: [], refunded: [] });
    expect(again.inOrder).toBe(again.checked);
    for (const o of [lost, expired]) expect(await effectsOf(o.orderId)).toEqual({ earnings: 1, jobs: 1, mail: 1 });
  });

  it('refunds a payment for no order of this shop, once', async () => {
    const stray: SucceededPayment = { sessionId: 'cs_test_strayPayment0001', paymentIntentId: 'pi_test_strayPayment0001', orderId: null, amountCents: 1999, currency: 'usd', refunded: false };
    const payments = { kind: 'embedded' as const, succeededPayments: async () => [stray] };
    const run = await reconcilePayments({ ...deps(), payments }, new Date());
    expect(run.refunded).toEqual([{ session_id: stray.sessionId, order_id: null, why: 'no order' }]);
    await reconcilePayments({ ...deps(), payments }, new Date());
    const jobs = await t.db.selectFrom('jobs').select(['kind', 'payload']).where('dedupe_key', '=', `refund:${stray.paymentIntentId}`).execute();
    expect(jobs).toEqual([{ kind: 'payment.refund', payload: expect.objectContaining({ paymentIntentId: stray.paymentIntentId }) }]);
  });

  it('shows admins the latest runs and runs one on request; nobody else', async () => {
    const ran = await send(t, admin, { method: 'POST', url: '/api/admin/payment-reconciliations' });
    expect(ran.statusCode, ran.body).toBe(200);
    expect(ran.json().run).toMatchObject({ provider: 'embedded', repaired: [], refunded: [] });
    const list = await send(t, admin, { url: '/api/admin/payment-reconciliations' });
    expect(list.statusCode).toBe(200);
    expect(list.json().runs.length).toBeGreaterThanOrEqual(3);
    expect(list.json().runs[0]).toMatchObject({ provider: 'embedded', repaired: [], refunded: [] });
    const someone = await person(t, { role: 'creator' });
    expect((await send(t, someone, { url: '/api/admin/payment-reconciliations' })).statusCode).toBe(403);
    expect((await send(t, null, { method: 'POST', url: '/api/admin/payment-reconciliations' })).statusCode).toBe(401);
  });

  it('runs each day at 03:00 UTC', () => {
    expect(nextReconcileAt(new Date('2026-11-27T02:59:00Z')).toISOString()).toBe('2026-11-27T03:00:00.000Z');
    expect(nextReconcileAt(new Date('2026-11-27T03:00:00Z')).toISOString()).toBe('2026-11-28T03:00:00.000Z');
  });
});
