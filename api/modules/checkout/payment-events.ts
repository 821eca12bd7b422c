/**
 * Applies a verified payment event (Stripe's, or the embedded provider's in the same format)
 * to the order it is about. The event id is recorded in the same transaction as its effect,
 * so an event takes effect at most once however often, however concurrently it is delivered,
 * and a delivery that fails part way leaves neither the record nor the effect.
 *
 * Events may also arrive out of order. The lifecycle in order-status.ts decides, and one rule
 * holds whatever the order and concurrency: every payment that succeeds ends in a paid order on
 * its way to the buyer, or in a full refund, never neither.
 * - checkout.session.completed (paid): pending -> paid, then earnings, the fulfilment job and
 *   the confirmation email, all in the transaction that made the move. An order whose checkout
 *   expired first (cancelled, never paid) is revived the same way: cancelled -> paid. A payment
 *   the order cannot take (another amount or currency than the order's) is refunded, by a job
 *   queued in the same transaction. An order already refunded is not moved: its money went back.
 * - checkout.session.expired: pending -> cancelled; a paid order is never cancelled by it.
 * - charge.refunded (in full): any live status -> refunded, reversing the sale records.
 * So "completed then refunded" leaves a sale and a reversal per item, and "refunded then
 * completed" leaves no earning records at all: the creator's net is zero either way.
 *
 * Subscription events (a checkout in subscription mode, customer.subscription.*, invoice.paid /
 * payment_succeeded / payment_failed) go to the subscriptions module, in the same transaction
 * after the event is recorded; its rules order them whatever order they arrive in.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';
import { cancelFulfilmentKey, enqueueJob, fulfilOrderKey, JOB_KINDS } from '../../platform/jobs/enqueue.ts';
import type { PaymentEvent } from '../../integrations/stripe/index.ts';
import { creditOrderEarnings, reverseOrderEarnings } from '../earnings/index.ts';
import { queueOrderConfirmation, queuePaymentRefund, recordProviderEvent, transitionOrder } from '../orders/index.ts';
import { applySubscriptionPaymentEvent, isSubscriptionEvent } from '../subscriptions/index.ts';
import { itemsWithoutFrame, lockOrder, orderIdForIntent, type LockedOrder } from './repository.ts';

export interface PaymentEventDeps {
  db: Kysely<DB>;
  /** The site's origin, for the order link in the confirmation email. */
  publicUrl: string;
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>;
}

/** `subscription`: a subscription event changed its user's subscription (the subscriptions module's). */
export type PaymentEffect = 'paid' | 'cancelled' | 'refunded' | 'subscription' | 'none';

export type PaymentEventOutcome =
  | { duplicate: true }
  | { duplicate: false; effect: PaymentEffect; orderId: string | null };

/**
 * Failures another attempt can clear: a serialization failure or deadlock between racing
 * transactions, or a unique key taken by a concurrent one.
 */
const RETRYABLE = new Set(['40001', '40P01', '23505']);
const MAX_ATTEMPTS = 5;

export async function applyPaymentEvent(deps: PaymentEventDeps, event: PaymentEvent): Promise<PaymentEventOutcome> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await deps.db.transaction().execute((trx) => applyOnce(deps, trx, event));
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (attempt >= MAX_ATTEMPTS || typeof code !== 'string' || !RETRYABLE.has(code)) throw err;
      await new Promise((r) => setTimeout(r, attempt * 20 + Math.random() * 20));
    }
  }
}

type Obj = Record<string, unknown>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function str(v: unknown): string | null {
  return typeof v === 'string' && v.length > 0 ? v : null;
}

function obj(v: unknown): Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {};
}

/** A field that Stripe sends either as an id or as the expanded object. */
function idOf(v: unknown): string | null {
  return str(v) ?? str(obj(v).id);
}

function metadataOrderId(o: Obj): string | null {
  const id = str(obj(o.metadata).order_id);
  return id && UUID.test(id) ? id : null;
}

function eventTime(event: PaymentEvent): Date {
  return typeof event.created === 'number' && Number.isFinite(event.created) ? new Date(event.created * 1000) : new Date();
}

async function applyOnce(deps: PaymentEventDeps, trx: Transaction<DB>, event: PaymentEvent): Promise<PaymentEventOutcome> {
  if (!(await recordProviderEvent(trx, 'stripe', event.id, event.type))) return { duplicate: true };

  // Subscriptions (checkouts in subscription mode, customer.subscription.*, invoices): the
  // subscriptions module's, in this transaction, so the event takes effect once with its record.
  if (isSubscriptionEvent(event)) {
    const { effect } = await applySubscriptionPaymentEvent(trx, event, deps.log);
    return { duplicate: false, effect, orderId: null };
  }

  const object = obj(event.data?.object);
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      return { duplicate: false, ...(await sessionPaid(deps, trx, event, object)) };
    case 'checkout.session.expired':
      return { duplicate: false, ...(await sessionExpired(deps, trx, event, object)) };
    case 'charge.refunded':
      return { duplicate: false, ...(await chargeRefunded(deps, trx, event, object)) };
    default:
      // Recorded so a redelivery is answered at once; no event we do not know changes anything.
      return { duplicate: false, effect: 'none', orderId: null };
  }
}

type Applied = { effect: PaymentEffect; orderId: string | null };

/** The order a checkout session was opened for: named in its metadata and holding its id. */
async function sessionOrder(deps: PaymentEventDeps, trx: Transaction<DB>, event: PaymentEvent, session: Obj): Promise<LockedOrder | null> {
  const sessionId = str(session.id);
  const orderId = metadataOrderId(session);
  const order = orderId ? await lockOrder(trx, { id: orderId }) : sessionId ? await lockOrder(trx, { sessionId }) : undefined;
  if (!order || !sessionId || order.payment_session_id !== sessionId) {
    deps.log.warn({ eventId: event.id, type: event.type, sessionId, orderId }, 'payment event for no known order and session: recorded, no effect');
    return null;
  }
  return order;
}

async function sessionPaid(deps: PaymentEventDeps, trx: Transaction<DB>, event: PaymentEvent, session: Obj): Promise<Applied> {
  if (session.payment_status !== 'paid') return { effect: 'none', orderId: null };
  const order = await sessionOrder(deps, trx, event, session);
  if (!order) return { effect: 'none', orderId: null };
  const amount = session.amount_total;
  const currency = str(session.currency)?.toLowerCase();
  const intentId = idOf(session.payment_intent) ?? order.payment_intent_id;
  if ((typeof amount === 'number' && amount !== order.total_cents) || (currency && currency !== 'usd')) {
    deps.log.warn(
      { eventId: event.id, orderId: order.id, amount, currency, expected: order.total_cents },
      'checkout paid an amount other than the order total: recorded, order left as it is, the payment refunded',
    );
    await queuePaymentRefund(trx, order.id, intentId, 'the amount paid is not the order total');
    return { effect: 'none', orderId: order.id };
  }
  // An order whose checkout expired before its payment was seen, and that was never paid: revived,
  // unless what it would print is gone meanwhile (its video deleted): then the payment goes back.
  const revived = order.status === 'cancelled' && order.paid_at === null;
  if (revived && (await itemsWithoutFrame(trx, order.id)) > 0) {
    deps.log.warn({ eventId: event.id, orderId: order.id }, 'payment after the checkout expired for an order whose frames are gone: refunded');
    await queuePaymentRefund(trx, order.id, intentId, 'the order expired and its frames were deleted before the payment arrived');
    return { effect: 'none', orderId: order.id };
  }
  if (order.status === 'cancelled' && !revived) {
    // Cancelled after it was paid (by the print shop): that cancellation refunds the payment.
    deps.log.info({ eventId: event.id, orderId: order.id }, 'payment for an order cancelled after it was paid: no effect');
    return { effect: 'none', orderId: order.id };
  }
  const email = str(obj(session.customer_details).email) ?? str(session.customer_email);
  const shipping = shippingDetails(session);
  const moved = await transitionOrder(trx, order.id, 'paid', {
    reason: revived ? 'Payment received after the checkout expired' : 'Payment received',
    eventId: event.id,
    set: {
      paid_at: eventTime(event),
      payment_intent_id: intentId,
      ...(!order.customer_email && email ? { customer_email: email } : {}),
      ...(shipping ? { shipping_name: shipping.name, shipping_address: JSON.stringify(shipping.address) } : {}),
    },
  });
  if (!moved?.changed) {
    deps.log.info({ eventId: event.id, orderId: order.id, status: moved?.status }, 'payment for an order that is no longer pending: no effect');
    return { effect: 'none', orderId: order.id };
  }
  await creditOrderEarnings(trx, order.id);
  await enqueueJob(trx, JOB_KINDS.fulfilOrder, { orderId: order.id }, { dedupeKey: fulfilOrderKey(order.id) });
  await queueOrderConfirmation(trx, deps.publicUrl, order.id);
  return { effect: 'paid', orderId: order.id };
}

/**
 * The street address the hosted checkout collected (Stripe's shipping_details, under
 * collected_information in newer API versions), in the fields the print shops read, or null when
 * it collected none.
 */
function shippingDetails(session: Obj): { name: string | null; address: Record<string, string> } | null {
  const details = obj(session.shipping_details ?? obj(session.collected_information).shipping_details);
  const address = obj(details.address);
  const line1 = str(address.line1);
  if (!line1) return null;
  const fields: Record<string, string | null> = {
    address1: line1,
    address2: str(address.line2),
    city: str(address.city),
    state_code: str(address.state),
    zip: str(address.postal_code),
    country_code: str(address.country),
  };
  const kept = Object.fromEntries(Object.entries(fields).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1].length > 0).map(([k, v]) => [k, v.slice(0, 200)]));
  return { name: str(details.name)?.slice(0, 200) ?? null, address: kept };
}

async function sessionExpired(deps: PaymentEventDeps, trx: Transaction<DB>, event: PaymentEvent, session: Obj): Promise<Applied> {
  const order = await sessionOrder(deps, trx, event, session);
  if (!order) return { effect: 'none', orderId: null };
  // Only a checkout still waiting for payment ends with its session; a late expiry never cancels a paid order.
  if (order.status !== 'pending') return { effect: 'none', orderId: order.id };
  const moved = await transitionOrder(trx, order.id, 'cancelled', { reason: 'Checkout expired', eventId: event.id });
  return { effect: moved?.changed ? 'cancelled' : 'none', orderId: order.id };
}

async function chargeRefunded(deps: PaymentEventDeps, trx: Transaction<DB>, event: PaymentEvent, charge: Obj): Promise<Applied> {
  const amount = typeof charge.amount === 'number' ? charge.amount : null;
  const refunded = typeof charge.amount_refunded === 'number' ? charge.amount_refunded : null;
  const full = amount !== null && refunded !== null ? refunded >= amount : charge.refunded === true;
  if (!full) {
    deps.log.info({ eventId: event.id, amount, refunded }, 'partial refund: recorded, order left as it is');
    return { effect: 'none', orderId: null };
  }
  const intentId = idOf(charge.payment_intent);
  const orderId = metadataOrderId(charge) ?? (intentId ? await orderIdForIntent(trx, intentId) : null);
  const order = orderId ? await lockOrder(trx, { id: orderId }) : undefined;
  if (!order || (intentId && order.payment_intent_id && order.payment_intent_id !== intentId)) {
    deps.log.warn({ eventId: event.id, orderId, intentId }, 'refund for no known order: recorded, no effect');
    return { effect: 'none', orderId: null };
  }
  const moved = await transitionOrder(trx, order.id, 'refunded', {
    reason: 'Payment refunded',
    eventId: event.id,
    set: { refunded_at: eventTime(event), ...(intentId && !order.payment_intent_id ? { payment_intent_id: intentId } : {}) },
  });
  if (!moved?.changed) return { effect: 'none', orderId: order.id };
  await reverseOrderEarnings(trx, order.id);
  // Sent to the print shop already: it is asked to cancel the order if it has not started on it.
  if (order.fulfilment_order_id) await enqueueJob(trx, JOB_KINDS.cancelFulfilment, { orderId: order.id }, { dedupeKey: cancelFulfilmentKey(order.id) });
  return { effect: 'refunded', orderId: order.id };
}
