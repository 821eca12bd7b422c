/**
 * The subscription routes against a fake payment provider (the test opens, completes and expires
 * its sessions): who may call each one, that nothing a client sends but a session id is read,
 * that a session is its own user's only (anyone else is answered as for an unknown one), 409
 * while Pro is live, 502 when the provider fails, and the public tier for profiles.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SUBSCRIPTION_MESSAGES } from '../../../shared/schemas/subscriptions.ts';
import { SUBSCRIPTION_TIERS } from '../../../shared/subscriptions.ts';
import { ORIGIN } from '../../test/browser.ts';
import { testApp, testConfig, type TestApp } from '../../test/harness.ts';
import { fakeSubscriptions, hex, person, send, useFake, type FakeSubscriptions, type Person } from '../../test/subscription-support.ts';

let t: TestApp;
let fake: FakeSubscriptions;
let restore: () => void;

const now = () => Math.floor(Date.now() / 1000);
const DAY = 86_400;

beforeAll(async () => {
  t = await testApp({ config: await testConfig({ PUBLIC_URL: ORIGIN }) });
  fake = fakeSubscriptions(t.app.payments);
  restore = useFake(t, fake);
});
afterAll(async () => {
  restore?.();
  await t?.close();
});
beforeEach(() => {
  fake.failing = false;
});

const row = (userId: string) => t.db.selectFrom('user_subscriptions').selectAll().where('user_id', '=', userId).executeTakeFirst();

/** Opens a checkout as the person through the route; answers its session id. */
async function openCheckout(p: Person): Promise<string> {
  const res = await send(t, p, { method: 'POST', url: '/api/subscriptions/checkout', payload: { tier: 'pro' } });
  expect(res.statusCode, res.body).toBe(200);
  return [...fake.sessions.keys()].at(-1)!;
}

/** A trialing subscription for the person, made by a finished checkout. */
function trialing(p: Person, sessionId: string) {
  const t0 = now() - 60;
  const sub = { id: `sub_test_${hex(6)}`, userId: p.id, customer: `cus_test_${hex(6)}`, status: 'trialing' as const, created: t0, start: t0, end: t0 + 7 * DAY, trialEnd: t0 + 7 * DAY };
  fake.complete(sessionId, sub);
  return sub;
}

describe('signed out', () => {
  it.each([
    ['POST', '/api/subscriptions/checkout', { tier: 'pro' }],
    ['POST', '/api/subscriptions/activate', { session_id: 'cs_test_x' }],
    ['GET', '/api/subscriptions/verify/cs_test_x', undefined],
    ['GET', '/api/subscriptions/me', undefined],
    ['POST', '/api/subscriptions/manage', undefined],
  ] as const)('%s %s answers 401 and asks the provider nothing', async (method, url, payload) => {
    const before = fake.checkouts.length + fake.manages.length;
    const res = await send(t, null, { method, url, ...(payload ? { payload } : {}) });
    expect(res.statusCode, res.body).toBe(401);
    expect(res.json().code).toBe('UNAUTHENTICATED');
    expect(fake.checkouts.length + fake.manages.length).toBe(before);
  });
});

describe('POST /api/subscriptions/checkout', () => {
  it("opens Pro's checkout for the session's user, whatever ids the body names", async () => {
    const [a, b] = [await person(t), await person(t)];
    const res = await send(t, a, { method: 'POST', url: '/api/subscriptions/checkout', payload: { tier: 'pro', user_id: b.id, userId: b.id, customer_id: 'cus_forged', price: 1 } });
    expect(res.statusCode, res.body).toBe(200);
    const sent = fake.checkouts.at(-1)!;
    expect(res.json()).toEqual({ success: true, url: `https://checkout.stripe.test/c/pay/${[...fake.sessions.keys()].at(-1)}` });
    expect(sent).toMatchObject({
      userId: a.id,
      customerEmail: a.email,
      customerId: null,
      monthlyPriceCents: SUBSCRIPTION_TIERS.pro.monthlyPriceCents,
      trialDays: SUBSCRIPTION_TIERS.pro.trialDays,
      successUrl: `${ORIGIN}/subscription-success?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${ORIGIN}/subscription-tiers`,
    });
    expect(sent.idempotencyKey).toContain(a.id);
  });

  it('refuses a tier other than pro (400)', async () => {
    const a = await person(t);
    const res = await send(t, a, { method: 'POST', url: '/api/subscriptions/checkout', payload: { tier: 'free' } });
    expect(res.statusCode).toBe(400);
  });

  it('answers 409 while Pro is live, and opens one again once it has ended', async () => {
    const a = await person(t);
    const session = await openCheckout(a);
    const sub = trialing(a, session);
    expect((await send(t, a, { method: 'POST', url: '/api/subscriptions/activate', payload: { session_id: session } })).statusCode).toBe(200);
    const again = await send(t, a, { method: 'POST', url: '/api/subscriptions/checkout', payload: { tier: 'pro' } });
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json()).toMatchObject({ code: 'CONFLICT', error: SUBSCRIPTION_MESSAGES.alreadySubscribed });

    // Ended at the provider: its deleted event makes the row free, and a new checkout reuses the customer.
    await t.db.updateTable('user_subscriptions').set({ tier: 'free', status: 'canceled', stripe_status: 'canceled' }).where('user_id', '=', a.id).execute();
    const reopened = await send(t, a, { method: 'POST', url: '/api/subscriptions/checkout', payload: { tier: 'pro' } });
    expect(reopened.statusCode, reopened.body).toBe(200);
    expect(fake.checkouts.at(-1)).toMatchObject({ userId: a.id, customerId: sub.customer });
  });

  it('answers 502 when the provider fails', async () => {
    const a = await person(t);
    fake.failing = true;
    const res = await send(t, a, { method: 'POST', url: '/api/subscriptions/checkout', payload: { tier: 'pro' } });
    expect(res.statusCode, res.body).toBe(502);
    expect(res.json().error).toBe(SUBSCRIPTION_MESSAGES.providerUnavailable);
  });
});

describe('GET /api/subscriptions/verify/:sessionId', () => {
  it('open: success false (the page asks again); complete: success with the ids; writes nothing', async () => {
    const a = await person(t);
    const session = await openCheckout(a);
    const open = await send(t, a, { url: `/api/subscriptions/verify/${session}` });
    expect(open.statusCode, open.body).toBe(200);
    expect(open.headers['cache-control']).toBe('private, no-store');
    expect(open.json()).toEqual({ success: false, status: 'open', subscription_id: null, customer_id: null, message: SUBSCRIPTION_MESSAGES.notCompleteYet });
    const sub = trialing(a, session);
    const done = await send(t, a, { url: `/api/subscriptions/verify/${session}` });
    expect(done.json()).toEqual({ success: true, status: 'complete', subscription_id: sub.id, customer_id: sub.customer, message: SUBSCRIPTION_MESSAGES.verified });
    expect(await row(a.id)).toBeUndefined();
  });

  it('expired: success false, status expired', async () => {
    const a = await person(t);
    const session = await openCheckout(a);
    fake.sessions.set(session, { ...fake.sessions.get(session)!, status: 'expired' });
    const res = await send(t, a, { url: `/api/subscriptions/verify/${session}` });
    expect(res.json()).toMatchObject({ success: false, status: 'expired' });
  });

  it("someone else's session answers exactly as an unknown one (404), before and after it is processed", async () => {
    const [a, b] = [await person(t), await person(t)];
    const session = await openCheckout(a);
    trialing(a, session);
    const unknown = await send(t, b, { url: `/api/subscriptions/verify/cs_test_nosuch${hex(6)}` });
    const theirs = await send(t, b, { url: `/api/subscriptions/verify/${session}` });
    expect(unknown.statusCode).toBe(404);
    expect({ status: theirs.statusCode, body: theirs.body }).toEqual({ status: unknown.statusCode, body: unknown.body });
    expect((await send(t, a, { method: 'POST', url: '/api/subscriptions/activate', payload: { session_id: session } })).statusCode).toBe(200);
    const after = await send(t, b, { url: `/api/subscriptions/verify/${session}` });
    expect({ status: after.statusCode, body: after.body }).toEqual({ status: unknown.statusCode, body: unknown.body });
  });

  it('a processed session answers success at once, without asking the provider', async () => {
    const a = await person(t);
    const session = await openCheckout(a);
    const sub = trialing(a, session);
    expect((await send(t, a, { method: 'POST', url: '/api/subscriptions/activate', payload: { session_id: session } })).statusCode).toBe(200);
    fake.failing = true;
    const res = await send(t, a, { url: `/api/subscriptions/verify/${session}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, status: 'complete', subscription_id: sub.id, customer_id: sub.customer, message: SUBSCRIPTION_MESSAGES.alreadyProcessed });
  });

  it('answers 502 when the provider cannot be asked', async () => {
    const a = await person(t);
    const session = await openCheckout(a);
    fake.failing = true;
    expect((await send(t, a, { url: `/api/subscriptions/verify/${session}` })).statusCode).toBe(502);
  });
});

describe('POST /api/subscriptions/activate', () => {
  it("activates from the provider's session and subscription; the spec's body fields are ignored", async () => {
    const [a, b] = [await person(t), await person(t)];
    const session = await openCheckout(a);
    const sub = trialing(a, session);
    const forged = {
      session_id: session,
      user_id: b.id,
      tier: 'pro',
      status: 'active',
      stripe_subscription_id: 'sub_forged',
      stripe_customer_id: 'cus_forged',
      trial_end: '2999-01-01T00:00:00Z',
    };
    const res = await send(t, a, { method: 'POST', url: '/api/subscriptions/activate', payload: forged });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().subscription).toEqual({
      tier: 'pro',
      status: 'trialing',
      stripe_status: 'trialing',
      trial_end: new Date(sub.trialEnd * 1000).toISOString(),
      current_period_start: new Date(sub.start * 1000).toISOString(),
      current_period_end: new Date(sub.end * 1000).toISOString(),
      cancel_at_period_end: false,
      stripe_subscription_id: sub.id,
      stripe_customer_id: sub.customer,
      can_manage: true,
    });
    expect(await row(a.id)).toMatchObject({ tier: 'pro', status: 'trialing', stripe_subscription_id: sub.id, stripe_customer_id: sub.customer });
    expect(await row(b.id)).toBeUndefined();
    // Again: the session is processed, the same answer.
    const again = await send(t, a, { method: 'POST', url: '/api/subscriptions/activate', payload: { session_id: session } });
    expect(again.json()).toEqual(res.json());
  });

  it('only the fields of the spec, without a session id: 400, nothing written', async () => {
    const a = await person(t);
    const res = await send(t, a, {
      method: 'POST',
      url: '/api/subscriptions/activate',
      payload: { user_id: a.id, tier: 'pro', status: 'active', stripe_subscription_id: 'sub_x', stripe_customer_id: 'cus_x', trial_end: null },
    });
    expect(res.statusCode).toBe(400);
    expect(await row(a.id)).toBeUndefined();
  });

  it("someone else's session: 404 exactly as an unknown one, and nothing written for anyone", async () => {
    const [a, b] = [await person(t), await person(t)];
    const session = await openCheckout(a);
    trialing(a, session);
    const unknown = await send(t, b, { method: 'POST', url: '/api/subscriptions/activate', payload: { session_id: `cs_test_nosuch${hex(6)}` } });
    const theirs = await send(t, b, { method: 'POST', url: '/api/subscriptions/activate', payload: { session_id: session } });
    expect(unknown.statusCode).toBe(404);
    expect({ status: theirs.statusCode, body: theirs.body }).toEqual({ status: unknown.statusCode, body: unknown.body });
    expect(await row(a.id)).toBeUndefined();
    expect(await row(b.id)).toBeUndefined();
  });

  it("a subscription whose metadata names someone else is not activated for the caller (404)", async () => {
    const [a, b] = [await person(t), await person(t)];
    const session = await openCheckout(a);
    const t0 = now() - 60;
    fake.complete(session, { id: `sub_test_${hex(6)}`, userId: b.id, customer: `cus_test_${hex(6)}`, status: 'active', created: t0, start: t0, end: t0 + 30 * DAY });
    const res = await send(t, a, { method: 'POST', url: '/api/subscriptions/activate', payload: { session_id: session } });
    expect(res.statusCode).toBe(404);
    expect(await row(a.id)).toBeUndefined();
    expect(await row(b.id)).toBeUndefined();
  });

  it('a checkout still open or expired: 409, nothing written', async () => {
    const a = await person(t);
    const session = await openCheckout(a);
    const open = await send(t, a, { method: 'POST', url: '/api/subscriptions/activate', payload: { session_id: session } });
    expect(open.statusCode).toBe(409);
    expect(open.json().error).toBe(SUBSCRIPTION_MESSAGES.notCompleteYet);
    fake.sessions.set(session, { ...fake.sessions.get(session)!, status: 'expired' });
    expect((await send(t, a, { method: 'POST', url: '/api/subscriptions/activate', payload: { session_id: session } })).statusCode).toBe(409);
    expect(await row(a.id)).toBeUndefined();
  });

  it('does not undo a newer state the events left (the same rules apply)', async () => {
    const a = await person(t);
    const session = await openCheckout(a);
    const sub = trialing(a, session);
    // The subscription was cancelled at the provider after the session, and its event has arrived.
    await t.db
      .insertInto('user_subscriptions')
      .values({
        user_id: a.id,
        tier: 'free',
        status: 'canceled',
        stripe_status: 'canceled',
        stripe_subscription_id: sub.id,
        stripe_customer_id: sub.customer,
        event_order: `1:${String(sub.start).padStart(12, '0')}:2:${String(now() + 10).padStart(12, '0')}:4:0:evt_deleted`,
        subscription_created_at: new Date(sub.created * 1000),
      })
      .execute();
    const res = await send(t, a, { method: 'POST', url: '/api/subscriptions/activate', payload: { session_id: session } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().subscription).toMatchObject({ tier: 'free', status: 'canceled' });
  });
});

describe('GET /api/subscriptions/me and POST /api/subscriptions/manage', () => {
  it('Free with no row; nothing to manage (404)', async () => {
    const a = await person(t);
    const me = await send(t, a, { url: '/api/subscriptions/me' });
    expect(me.json().subscription).toMatchObject({ tier: 'free', status: 'active', stripe_customer_id: null, can_manage: false });
    const manage = await send(t, a, { method: 'POST', url: '/api/subscriptions/manage' });
    expect(manage.statusCode).toBe(404);
    expect(manage.json().error).toBe(SUBSCRIPTION_MESSAGES.nothingToManage);
  });

  it("the subscriber's own customer at the provider, back to the tiers page", async () => {
    const a = await person(t);
    const session = await openCheckout(a);
    const sub = trialing(a, session);
    await send(t, a, { method: 'POST', url: '/api/subscriptions/activate', payload: { session_id: session } });
    expect((await send(t, a, { url: '/api/subscriptions/me' })).json().subscription).toMatchObject({ tier: 'pro', can_manage: true });
    const res = await send(t, a, { method: 'POST', url: '/api/subscriptions/manage', payload: { customer_id: 'cus_forged' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, url: `https://billing.stripe.test/p/session/${sub.customer}` });
    expect(fake.manages.at(-1)).toEqual({ customerId: sub.customer, returnUrl: `${ORIGIN}/subscription-tiers` });
  });
});

describe('GET /api/users/:username/subscription', () => {
  it('a creator without a row: free, active, not third tier', async () => {
    const a = await person(t);
    const res = await send(t, null, { url: `/api/users/${a.username}/subscription` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, tier: 'free', status: 'active', isThirdTier: false });
  });

  it("a Pro creator's tier, to anyone; a Pro whose period ended days ago without renewal shows free", async () => {
    const a = await person(t);
    const session = await openCheckout(a);
    trialing(a, session);
    await send(t, a, { method: 'POST', url: '/api/subscriptions/activate', payload: { session_id: session } });
    expect((await send(t, null, { url: `/api/users/${a.username.toUpperCase()}/subscription` })).json()).toEqual({ success: true, tier: 'pro', status: 'trialing', isThirdTier: false });
    await t.db.updateTable('user_subscriptions').set({ current_period_start: new Date(Date.now() - 34 * DAY * 1000), current_period_end: new Date(Date.now() - 4 * DAY * 1000), trial_end: null }).where('user_id', '=', a.id).execute();
    expect((await send(t, null, { url: `/api/users/${a.username}/subscription` })).json()).toMatchObject({ tier: 'free' });
  });

  it('a customer, a suspended creator and an unknown name all answer 404 User not found', async () => {
    const [c, s] = [await person(t, 'customer'), await person(t)];
    await t.db.updateTable('users').set({ status: 'suspended' }).where('id', '=', s.id).execute();
    const unknown = await send(t, null, { url: `/api/users/nobody${hex(3)}/subscription` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe(SUBSCRIPTION_MESSAGES.userNotFound);
    for (const p of [c, s]) expect((await send(t, null, { url: `/api/users/${p.username}/subscription` })).body).toBe(unknown.body);
  });
});
