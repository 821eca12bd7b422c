/**
 * The whole subscribe flow against the embedded payment provider (no fakes): the checkout route
 * opens its session for the signed-in user, the card is paid on its page, its signed events
 * reach /api/webhooks/stripe, and the success page's verification and activation then answer the
 * trial at once, to that user only; the manage link is the provider's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBSCRIPTION_MESSAGES } from '../../../shared/schemas/subscriptions.ts';
import { ORIGIN } from '../../test/browser.ts';
import { testCard } from '../../test/checkout-support.ts';
import { testApp, testConfig, type TestApp } from '../../test/harness.ts';
import { person, send } from '../../test/subscription-support.ts';

let t: TestApp;

beforeAll(async () => {
  t = await testApp({ config: await testConfig({ PUBLIC_URL: ORIGIN }) });
});
afterAll(async () => t?.close());

describe('subscribing through the embedded provider', () => {
  it('checkout, pay, events, verify, activate, manage', async () => {
    const [a, b] = [await person(t), await person(t)];
    const open = await send(t, a, { method: 'POST', url: '/api/subscriptions/checkout', payload: { tier: 'pro', user_id: b.id } });
    expect(open.statusCode, open.body).toBe(200);
    const url = new URL(open.json().url as string);
    const sessionId = url.pathname.split('/').pop()!;

    const before = await send(t, a, { url: `/api/subscriptions/verify/${sessionId}` });
    expect(before.json()).toMatchObject({ success: false, status: 'open', message: SUBSCRIPTION_MESSAGES.notCompleteYet });
    expect((await send(t, b, { url: `/api/subscriptions/verify/${sessionId}` })).statusCode).toBe(404);

    const paid = await t.app.inject({
      method: 'POST',
      url: url.pathname,
      payload: new URLSearchParams(testCard('4242424242424242', { email: a.email })).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
    });
    expect(paid.statusCode, paid.body).toBe(303);
    expect(paid.headers.location).toBe(`${ORIGIN}/subscription-success?session_id=${sessionId}`);
    await t.app.embeddedPayments.deliverDue();

    const row = await t.db.selectFrom('user_subscriptions').selectAll().where('user_id', '=', a.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ tier: 'pro', status: 'trialing', stripe_status: 'trialing' });
    expect(row.stripe_subscription_id).toMatch(/^sub_/);
    expect(row.stripe_customer_id).toMatch(/^cus_/);
    expect(row.trial_end!.getTime() - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    expect(await t.db.selectFrom('user_subscriptions').select('id').where('user_id', '=', b.id).execute()).toEqual([]);

    const verified = await send(t, a, { url: `/api/subscriptions/verify/${sessionId}` });
    expect(verified.json()).toEqual({ success: true, status: 'complete', subscription_id: row.stripe_subscription_id, customer_id: row.stripe_customer_id, message: SUBSCRIPTION_MESSAGES.alreadyProcessed });
    expect((await send(t, b, { url: `/api/subscriptions/verify/${sessionId}` })).statusCode).toBe(404);
    const activated = await send(t, a, { method: 'POST', url: '/api/subscriptions/activate', payload: { session_id: sessionId } });
    expect(activated.json().subscription).toMatchObject({ tier: 'pro', status: 'trialing', stripe_subscription_id: row.stripe_subscription_id });
    expect((await send(t, b, { method: 'POST', url: '/api/subscriptions/activate', payload: { session_id: sessionId } })).statusCode).toBe(404);

    expect((await send(t, a, { method: 'POST', url: '/api/subscriptions/checkout', payload: { tier: 'pro' } })).statusCode).toBe(409);
    expect((await send(t, null, { url: `/api/users/${a.username}/subscription` })).json()).toEqual({ success: true, tier: 'pro', status: 'trialing', isThirdTier: false });
    const manage = await send(t, a, { method: 'POST', url: '/api/subscriptions/manage' });
    expect(manage.statusCode, manage.body).toBe(200);
    expect(manage.json().url).toMatch(/\/pay\/manage\//);
  });

  it('activation from the verified session alone, before any event arrives', async () => {
    const a = await person(t);
    t.app.embeddedPayments.setDelivery(async () => ({ statusCode: 503, body: 'held back' }));
    try {
      const open = await send(t, a, { method: 'POST', url: '/api/subscriptions/checkout', payload: { tier: 'pro' } });
      const url = new URL(open.json().url as string);
      const sessionId = url.pathname.split('/').pop()!;
      const paid = await t.app.inject({
        method: 'POST',
        url: url.pathname,
        payload: new URLSearchParams(testCard('4242424242424242', { email: a.email })).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
      });
      expect(paid.statusCode, paid.body).toBe(303);
      expect(await t.db.selectFrom('user_subscriptions').select('id').where('user_id', '=', a.id).execute()).toEqual([]);
      const verified = await send(t, a, { url: `/api/subscriptions/verify/${sessionId}` });
      expect(verified.json()).toMatchObject({ success: true, status: 'complete', message: SUBSCRIPTION_MESSAGES.verified });
      const activated = await send(t, a, { method: 'POST', url: '/api/subscriptions/activate', payload: { session_id: sessionId } });
      expect(activated.statusCode, activated.body).toBe(200);
      expect(activated.json().subscription).toMatchObject({ tier: 'pro', status: 'trialing', can_manage: true });
    } finally {
      t.app.embeddedPayments.setDelivery(async (body, signature) => {
        const res = await t.app.inject({ method: 'POST', url: '/api/webhooks/stripe', payload: body, headers: { 'content-type': 'application/json', 'stripe-signature': signature } });
        return { statusCode: res.statusCode, body: res.body };
      });
    }
    // The held-back events arrive late, after the activation: the row stays the same trial.
    const before = await t.db.selectFrom('user_subscriptions').select(['tier', 'status', 'stripe_subscription_id', 'trial_end']).where('user_id', '=', a.id).executeTakeFirstOrThrow();
    await t.app.embeddedPayments.deliverDue();
    const after = await t.db.selectFrom('user_subscriptions').select(['tier', 'status', 'stripe_subscription_id', 'trial_end']).where('user_id', '=', a.id).executeTakeFirstOrThrow();
    expect(after).toEqual(before);
  });
});
