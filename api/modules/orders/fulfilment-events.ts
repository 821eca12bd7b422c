/**
 * Applies a print-on-demand progress report (Printful's webhook; the embedded print shop sends
 * the same to the same route) to the order it names: in one transaction, the event is recorded as
 * processed (a repeat is a no-op), the order moves forward through transitionOrder, the parcel's
 * tracking is kept, and the first move to shipped queues the buyer's shipped email. An order
 * never moves back (a late 'inprocess' after 'fulfilled' changes nothing), and a refunded or
 * cancelled order stays as it is.
 */
import type { Kysely, Transaction } from 'kysely';
import type { DB, OrderStatus } from '../../platform/db/schema.ts';
import type { FulfilmentEvent } from '../../integrations/printful/index.ts';
import { queuePaymentRefund } from './refund-payment.ts';
import { queueShippedMail } from './shipped-mail.ts';
import { ORDER_RANK, transitionOrder } from './order-status.ts';
import { lockOrderStatus, recordProviderEvent } from './repository.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEX32 = /^[0-9a-f]{32}$/i;

/** The order an external id names: our order id, with or without its dashes (Printful keeps it without). */
export function orderIdOf(externalId: string | null | undefined): string | null {
  if (!externalId) return null;
  if (UUID.test(externalId)) return externalId.toLowerCase();
  if (!HEX32.test(externalId)) return null;
  const h = externalId.toLowerCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export interface FulfilmentEventOptions {
  publicUrl: string;
  /** The id under which the event is processed at most once; derived from its content when absent. */
  eventId?: string;
}

export interface FulfilmentEventResult {
  /** False when the event was seen before (nothing done again). */
  firstDelivery: boolean;
  orderId: string | null;
  /** The order status the event asks for, when it asks for one. */
  target: OrderStatus | null;
  changed: boolean;
  status: OrderStatus | null;
}

/** The order status a report means, or null for reports that change nothing for the buyer. */
export function targetStatus(event: FulfilmentEvent): OrderStatus | null {
  if (event.type === 'package_shipped') return 'shipped';
  if (event.type === 'order_canceled') return 'cancelled';
  if (event.type === 'shipment_delivered') return 'delivered';
  switch (event.data?.order?.status) {
    case 'inprocess':
      return 'in_production';
    case 'fulfilled':
      return 'shipped';
    case 'delivered':
      return 'delivered';
    case 'canceled':
      return 'cancelled';
    default:
      return null;
  }
}

/** Retries of the same report carry the same content, so they get the same id. */
export function fulfilmentEventId(event: FulfilmentEvent): string {
  const order = event.data?.order;
  const shipment = event.data?.shipment;
  return ['pf', event.type, order?.external_id ?? '', order?.status ?? '', shipment?.id ?? shipment?.tracking_number ?? ''].join(':').slice(0, 300);
}

function cleanUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.toString().slice(0, 2000) : null;
  } catch {
    return null;
  }
}

async function apply(trx: Transaction<DB>, event: FulfilmentEvent, options: FulfilmentEventOptions): Promise<FulfilmentEventResult> {
  const orderId = orderIdOf(event.data?.order?.external_id);
  const target = targetStatus(event);
  const recorded = await recordProviderEvent(trx, 'printful', options.eventId ?? fulfilmentEventId(event), event.type.slice(0, 100));
  if (!recorded) return { firstDelivery: false, orderId, target, changed: false, status: null };
  if (!orderId) return { firstDelivery: true, orderId: null, target, changed: false, status: null };

  const order = await lockOrderStatus(trx, orderId);
  if (!order) return { firstDelivery: true, orderId, target, changed: false, status: null };
  if (!target || ORDER_RANK[target] <= ORDER_RANK[order.status]) {
    return { firstDelivery: true, orderId, target, changed: false, status: order.status };
  }

  const shipment = event.data?.shipment;
  const reaching = ORDER_RANK[target] >= ORDER_RANK.shipped;
  const trackingNumber = reaching ? (shipment?.tracking_number?.slice(0, 100) ?? order.tracking_number) : order.tracking_number;
  const trackingUrl = reaching ? (cleanUrl(shipment?.tracking_url) ?? order.tracking_url) : order.tracking_url;
  const result = await transitionOrder(trx, orderId, target, {
    reason: `Print shop: ${event.type}${event.data?.order?.status ? ` (${event.data.order.status})` : ''}`,
    eventId: options.eventId ?? fulfilmentEventId(event),
    set: reaching ? { tracking_number: trackingNumber ?? null, tracking_url: trackingUrl ?? null } : {},
  });
  if (!result) return { firstDelivery: true, orderId, target, changed: false, status: null };
  // The print shop will not make a paid order: its payment goes back to the buyer.
  if (result.changed && target === 'cancelled') await queuePaymentRefund(trx, orderId, order.payment_intent_id, 'the print shop cancelled the order');
  // The first time an order reaches shipped (or skips straight to delivered) the buyer hears of it once.
  if (result.changed && reaching && ORDER_RANK[result.from] < ORDER_RANK.shipped) {
    await queueShippedMail(trx, options.publicUrl, orderId);
  }
  return { firstDelivery: true, orderId, target, changed: result.changed, status: result.status };
}

/** Applies one report in its own transaction. */
export async function applyFulfilmentEvent(db: Kysely<DB>, event: FulfilmentEvent, options: FulfilmentEventOptions): Promise<FulfilmentEventResult> {
  return db.transaction().execute((trx) => apply(trx, event, options));
}
