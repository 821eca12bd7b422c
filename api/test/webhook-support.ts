/**
 * For the webhook and analytics tests: pending orders written straight into the database (as
 * checkout leaves them: items priced from the catalogue, a payment session id), and payment
 * events in Stripe's format, signed with the embedded provider's webhook secret.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../platform/db/schema.ts';
import { signWebhookBody } from '../integrations/stripe/index.ts';
import { appSecret } from '../platform/settings/secrets.ts';
import type { TestApp } from './harness.ts';

export interface LineSpec {
  sku: string;
  size: string;
  quantity: number;
  colour?: string;
  creatorId?: string | null;
  videoId?: string | null;
}

export interface TestOrder {
  id: string;
  sessionId: string;
  paymentIntentId: string;
  totalCents: number;
  itemIds: string[];
}

const token = (n = 12) => randomBytes(n).toString('hex');

export async function webhookSecret(db: Kysely<DB>): Promise<string> {
  return `whsec_${await appSecret(db, 'embedded-payments.webhook')}`;
}

export async function makeVideo(db: Kysely<DB>, userId: string, title: string): Promise<string> {
  const row = await db
    .insertInto('videos')
    .values({ user_id: userId, title, video_key: `test/${token(6)}.mp4`, content_type: 'video/mp4', size_bytes: 1000 })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A pending order as checkout makes it, priced from the catalogue rows in the database. */
export async function makeOrder(
  db: Kysely<DB>,
  lines: LineSpec[],
  opts: { email?: string | null; shippingCents?: number } = {},
): Promise<TestOrder> {
  const priced = [];
  for (const line of lines) {
    const p = await db
      .selectFrom('catalogue_products')
      .select(['name', 'price_cents', 'base_cost_cents', 'size_surcharges_cents'])
      .where('sku', '=', line.sku)
      .executeTakeFirstOrThrow();
    const surcharges = (typeof p.size_surcharges_cents === 'string' ? JSON.parse(p.size_surcharges_cents) : p.size_surcharges_cents) as Record<string, number>;
    const surcharge = surcharges[line.size] ?? 0;
    priced.push({ ...line, name: p.name, unit: p.price_cents, base: p.base_cost_cents, surcharge, total: (p.price_cents + surcharge) * line.quantity });
  }
  const subtotal = priced.reduce((s, l) => s + l.total, 0);
  const shipping = opts.shippingCents ?? 475;
  const sessionId = `cs_test_${token()}`;
  const paymentIntentId = `pi_test_${token()}`;
  const order = await db
    .insertInto('orders')
    .values({
      customer_email: opts.email === undefined ? 'buyer@example.com' : opts.email,
      shipping_zip: '10001',
      shipping_country: 'US',
      subtotal_cents: subtotal,
      shipping_cents: shipping,
      total_cents: subtotal + shipping,
      payment_provider: 'embedded',
      payment_session_id: sessionId,
      idempotency_key: `test-${randomUUID()}`,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // What each item prints: a frame of a merch product, as checkout takes it from one (no file behind it).
  const product = await db.insertInto('merch_products').values({ video_id: priced[0]?.videoId ?? null, creator_id: priced[0]?.creatorId ?? null }).returning('id').executeTakeFirstOrThrow();
  const frame = await db
    .insertInto('merch_screenshots')
    .values({ merch_product_id: product.id, position: 0, kind: 'capture', storage_key: `test/${token(12)}.jpg`, content_type: 'image/jpeg', width: 1280, height: 720, size_bytes: 1000 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const itemIds: string[] = [];
  for (const [position, l] of priced.entries()) {
    const item = await db
      .insertInto('order_items')
      .values({
        order_id: order.id,
        position,
        sku: l.sku,
        product_name: l.name,
        merch_product_id: product.id,
        screenshot_id: frame.id,
        video_id: l.videoId ?? null,
        creator_id: l.creatorId ?? null,
        colour: l.colour ?? 'Black',
        size: l.size,
        quantity: l.quantity,
        unit_price_cents: l.unit,
        size_surcharge_cents: l.surcharge,
        base_cost_cents: l.base,
        line_total_cents: l.total,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    itemIds.push(item.id);
  }
  await db.insertInto('order_status_history').values({ order_id: order.id, from_status: null, to_status: 'pending', reason: 'Checkout started' }).execute();
  return { id: order.id, sessionId, paymentIntentId, totalCents: subtotal + shipping, itemIds };
}

export interface StripeLikeEvent {
  id: string;
  object: 'event';
  type: string;
  created: number;
  livemode: false;
  api_version: string;
  data: { object: Record<string, unknown> };
}

function event(type: string, object: Record<string, unknown>): StripeLikeEvent {
  return { id: `evt_test_${token()}`, object: 'event', type, created: Math.floor(Date.now() / 1000), livemode: false, api_version: '2025-01-27.acacia', data: { object } };
}

export function completedEvent(order: TestOrder, overrides: Record<string, unknown> = {}): StripeLikeEvent {
  return event('checkout.session.completed', {
    id: order.sessionId,
    object: 'checkout.session',
    mode: 'payment',
    status: 'complete',
    payment_status: 'paid',
    amount_total: order.totalCents,
    currency: 'usd',
    metadata: { order_id: order.id },
    payment_intent: order.paymentIntentId,
    customer_details: { email: 'paid-with@example.com' },
    ...overrides,
  });
}

export function expiredEvent(order: TestOrder): StripeLikeEvent {
  return event('checkout.session.expired', {
    id: order.sessionId,
    object: 'checkout.session',
    status: 'expired',
    payment_status: 'unpaid',
    amount_total: order.totalCents,
    currency: 'usd',
    metadata: { order_id: order.id },
  });
}

export function refundedEvent(order: TestOrder, overrides: Record<string, unknown> = {}): StripeLikeEvent {
  return event('charge.refunded', {
    id: `ch_test_${token()}`,
    object: 'charge',
    amount: order.totalCents,
    amount_refunded: order.totalCents,
    refunded: true,
    currency: 'usd',
    payment_intent: order.paymentIntentId,
    metadata: { order_id: order.id },
    ...overrides,
  });
}

export interface DeliverOptions {
  secret?: string;
  /** Unix seconds the signature claims. */
  timestamp?: number;
  /** The body sent, when it differs from the body signed. */
  sentBody?: string;
  signature?: string | null;
}

/** POSTs an event to the webhook as the provider does: the exact signed bytes, Stripe-Signature header. */
export async function deliver(t: TestApp, ev: StripeLikeEvent | string, opts: DeliverOptions = {}) {
  const body = typeof ev === 'string' ? ev : JSON.stringify(ev);
  const secret = opts.secret ?? (await webhookSecret(t.db));
  const signature = opts.signature === undefined ? signWebhookBody(body, secret, opts.timestamp) : opts.signature;
  return t.app.inject({
    method: 'POST',
    url: '/api/webhooks/stripe',
    headers: { 'content-type': 'application/json; charset=utf-8', ...(signature !== null ? { 'stripe-signature': signature } : {}) },
    payload: opts.sentBody ?? body,
  });
}
