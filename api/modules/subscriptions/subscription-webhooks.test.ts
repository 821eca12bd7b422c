/**
 * Subscription events through POST /api/webhooks/stripe, signed with the embedded provider's
 * secret as it signs them: each takes effect once, in its own recorded transaction; delivered in
 * order, reversed, repeated or all at once, a creator's row ends the same (the last snapshot
 * Stripe would report); an end is never undone by an older event; an event for no known user
 * changes nothing; a checkout in subscription mode is not taken for an order, and its session
 * then verifies at once for its own user only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBSCRIPTION_MESSAGES } from '../../../shared/schemas/subscriptions.ts';
import { ORIGIN } from '../../test/browser.ts';
import { testApp, testConfig, type TestApp } from '../../test/harness.ts';
import {
  fakeSubscriptions,
  hex,
  person,
  renewalInvoice,
  send,
  subEvent,
  subscriptionCheckoutCompleted,
  subscriptionObject,
  useFake,
  type FakeSubscriptions,
  type Person,
  type SubscriptionSpec,
} from '../../test/subscription-support.ts';
import { deliver, type StripeLikeEvent } from '../../test/webhook-support.ts';

let t: TestApp;
let fake: FakeSubscriptions;
let restore: () => void;

beforeAll(async () => {
  t = await testApp({ config: await testConfig({ PUBLIC_URL: ORIGIN }) });
  fake = fakeSubscriptions(t.app.payments);
  restore = useFake(t, fake);
});
afterAll(async () => {
  restore?.();
  await t?.close();
});

const DAY = 86_400;
const now = () => Math.floor(Date.now() / 1000);
const at = (s: number) => new Date(s * 1000);

const row = (userId: string) => t.db.selectFrom('user_subscriptions').selectAll().where('user_id', '=', userId).executeTakeFirst();
const stateOf = async (userId: string) => {
  const r = await row(userId);
  return r && {
    tier: r.tier,
    status: r.status,
    stripe_status: r.stripe_status,
    trial_end: r.trial_end,
    current_period_start: r.current_period_start,
    current_period_end: r.current_period_end,
    cancel_at_period_end: r.cancel_at_period_end,
    stripe_subscription_id: r.stripe_subscription_id,
    stripe_customer_id: r.stripe_customer_id,
    subscription_created_at: r.subscription_created_at,
  };
};

/**
 * A creator's Pro life as Stripe reports it: a checkout with a 7-day trial, the trial's end
 * (renewed, its invoice paid), then set to cancel at the period's end. Answers the events in the
 * order Stripe made them and the state they end in.
 */
function lifeOf(p: Person) {
  const t0 = now() - 10 * DAY;
  const trialEnd = t0 + 7 * DAY;
  const base: SubscriptionSpec = { id: `sub_test_${hex(6)}`, userId: p.id, customer: `cus_test_${hex(6)}`, status: 'trialing', created: t0, start: t0, end: trialEnd, trialEnd };
  const renewed: SubscriptionSpec = { ...base, status: 'active', start: trialEnd, end: trialEnd + 30 * DAY };
  const events: StripeLikeEvent[] = [
    subscriptionCheckoutCompleted(t0, { sessionId: `cs_test_${hex(10)}`, userId: p.id, subscriptionId: base.id, customer: base.customer }),
    subEvent('customer.subscription.created', t0, subscriptionObject(base)),
    subEvent('customer.subscription.updated', trialEnd, subscriptionObject(renewed)),
    renewalInvoice('invoice.paid', trialEnd, { subscriptionId: base.id, customer: base.customer, start: renewed.start, end: renewed.end }),
    subEvent('customer.subscription.updated', trialEnd + DAY, subscriptionObject({ ...renewed, cancelAtPeriodEnd: true })),
  ];
  const expected = {
    tier: 'pro',
    status: 'active',
    stripe_status: 'active',
    trial_end: at(trialEnd),
    current_period_start: at(renewed.start),
    current_period_end: at(renewed.end),
    cancel_at_period_end: true,
    stripe_subscription_id: base.id,
    stripe_customer_id: base.customer,
    subscription_created_at: at(t0),
  };
  return { base, renewed, events, expected, last: events.at(-1)! };
}

function shuffled<T>(xs: readonly T[]): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe('one creator, every arrival order', () => {
  it('in order: Pro, active, set to cancel at the period end; each event once', async () => {
    const p = await person(t);
    const life = lifeOf(p);
    for (const e of life.events) {
      const res = await deliver(t, e);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ received: true, duplicate: false });
    }
    expect(await stateOf(p.id)).toEqual(life.expected);
    expect((await row(p.id))!.event_order!.endsWith(`:${life.last.id}`)).toBe(true);
    const again = await deliver(t, life.events[2]!);
    expect(again.json()).toEqual({ received: true, duplicate: true });
    expect(await stateOf(p.id)).toEqual(life.expected);
  });

  it('reversed, and each delivered twice: the same row, the same watermark', async () => {
    const p = await person(t);
    const life = lifeOf(p);
    const replies = [];
    for (const e of [...life.events].reverse().flatMap((e) => [e, e])) replies.push((await deliver(t, e)).json().duplicate);
    expect(replies).toEqual(life.events.flatMap(() => [false, true]));
    expect(await stateOf(p.id)).toEqual(life.expected);
    expect((await row(p.id))!.event_order!.endsWith(`:${life.last.id}`)).toBe(true);
  });

  it.each([1, 2, 3, 4, 5])('shuffled, with repeats (run %i): the same row', async () => {
    const p = await person(t);
    const life = lifeOf(p);
    for (const e of shuffled([...life.events, ...life.events.slice(0, 3)])) expect((await deliver(t, e)).statusCode).toBe(200);
    expect(await stateOf(p.id)).toEqual(life.expected);
  });

  it('all at once, each twice: every event takes effect once and the row ends the same', async () => {
    for (let run = 0; run < 3; run++) {
      const p = await person(t);
      const life = lifeOf(p);
      const replies = await Promise.all(shuffled([...life.events, ...life.events]).map((e) => deliver(t, e)));
      expect(replies.map((r) => r.statusCode)).toEqual(replies.map(() => 200));
      expect(replies.filter((r) => r.json().duplicate === false)).toHaveLength(life.events.length);
      expect(await stateOf(p.id)).toEqual(life.expected);
      const processed = await t.db.selectFrom('processed_webhook_events').select('event_id').where('event_id', 'in', life.events.map((e) => e.id)).execute();
      expect(processed).toHaveLength(life.events.length);
    }
  });

  it('two events at once for a creator with no row yet: one row, the later snapshot', async () => {
    for (let run = 0; run < 5; run++) {
      const p = await person(t);
      const life = lifeOf(p);
      const [created, renewed] = [life.events[1]!, life.events[2]!];
      const replies = await Promise.all([deliver(t, renewed), deliver(t, created)]);
      expect(replies.map((r) => r.statusCode)).toEqual([200, 200]);
      const rows = await t.db.selectFrom('user_subscriptions').select('id').where('user_id', '=', p.id).execute();
      expect(rows).toHaveLength(1);
      expect(await stateOf(p.id)).toMatchObject({ tier: 'pro', status: 'active', current_period_start: at(life.renewed.start), cancel_at_period_end: false });
    }
  });
});

describe('ends and failures', () => {
  it('deleted, then an older update arrives: it stays ended (free)', async () => {
    const p = await person(t);
    const life = lifeOf(p);
    const deleted = subEvent('customer.subscription.deleted', life.renewed.end, subscriptionObject({ ...life.renewed, status: 'canceled', cancelAtPeriodEnd: true }));
    expect((await deliver(t, deleted)).statusCode).toBe(200);
    for (const e of life.events) expect((await deliver(t, e)).statusCode).toBe(200);
    expect(await stateOf(p.id)).toMatchObject({ tier: 'free', status: 'canceled', stripe_status: 'canceled', stripe_subscription_id: life.base.id });
    const me = await send(t, p, { url: '/api/subscriptions/me' });
    expect(me.json().subscription).toMatchObject({ tier: 'free', status: 'canceled' });
  });

  it("a failed renewal without the user in its metadata finds the subscription's row: past_due, still Pro", async () => {
    const p = await person(t);
    const life = lifeOf(p);
    for (const e of life.events.slice(0, 4)) await deliver(t, e);
    const next = { start: life.renewed.end, end: life.renewed.end + 30 * DAY };
    const failed = renewalInvoice('invoice.payment_failed', next.start, { subscriptionId: life.base.id, customer: life.base.customer, ...next });
    expect((await deliver(t, failed)).json()).toEqual({ received: true, duplicate: false });
    expect(await stateOf(p.id)).toMatchObject({ tier: 'pro', status: 'past_due', current_period_start: at(next.start), current_period_end: at(next.end), trial_end: life.expected.trial_end });
  });

  it('an event for no known user is recorded and changes nothing', async () => {
    const ghost = '0b7f3e2a-1c4d-4e5f-8a9b-0c1d2e3f4a5b';
    const t0 = now() - DAY;
    const e = subEvent('customer.subscription.created', t0, subscriptionObject({ id: `sub_test_${hex(6)}`, userId: ghost, customer: `cus_test_${hex(6)}`, status: 'active', created: t0, start: t0, end: t0 + 30 * DAY }));
    expect((await deliver(t, e)).json()).toEqual({ received: true, duplicate: false });
    expect(await row(ghost)).toBeUndefined();
    expect((await deliver(t, e)).json()).toEqual({ received: true, duplicate: true });
  });

  it('an event whose signature does not check out changes nothing', async () => {
    const p = await person(t);
    const life = lifeOf(p);
    const res = await deliver(t, life.events[1]!, { secret: 'whsec_not_the_secret' });
    expect(res.statusCode).toBe(400);
    expect(await row(p.id)).toBeUndefined();
  });
});

describe('a checkout in subscription mode', () => {
  it('is not taken for an order; its session then verifies at once for its own user, and for no one else', async () => {
    const [p, other] = [await person(t), await person(t)];
    const life = lifeOf(p);
    const completed = life.events[0]!;
    const sessionId = (completed.data.object as { id: string }).id;
    const orders = await t.db.selectFrom('orders').select('id').execute();
    expect((await deliver(t, completed)).json()).toEqual({ received: true, duplicate: false });
    expect(await t.db.selectFrom('orders').select('id').execute()).toEqual(orders);
    // Pro at once, from the checkout's link (a trial), until the subscription's own events arrive.
    expect(await stateOf(p.id)).toMatchObject({ tier: 'pro', status: 'trialing', stripe_subscription_id: life.base.id, stripe_customer_id: life.base.customer });

    fake.failing = true;
    try {
      const mine = await send(t, p, { url: `/api/subscriptions/verify/${sessionId}` });
      expect(mine.statusCode, mine.body).toBe(200);
      expect(mine.json()).toEqual({ success: true, status: 'complete', subscription_id: life.base.id, customer_id: life.base.customer, message: SUBSCRIPTION_MESSAGES.alreadyProcessed });
      const activated = await send(t, p, { method: 'POST', url: '/api/subscriptions/activate', payload: { session_id: sessionId } });
      expect(activated.statusCode, activated.body).toBe(200);
      expect(activated.json().subscription).toMatchObject({ tier: 'pro', stripe_subscription_id: life.base.id });
      const theirs = await send(t, other, { url: `/api/subscriptions/verify/${sessionId}` });
      expect(theirs.statusCode).toBe(404);
      const activatedByOther = await send(t, other, { method: 'POST', url: '/api/subscriptions/activate', payload: { session_id: sessionId } });
      expect(activatedByOther.statusCode).toBe(404);
      expect(await row(other.id)).toBeUndefined();
    } finally {
      fake.failing = false;
    }
  });
});
