/**
 * The buyer's shipped email: queued in the transaction that marks the order shipped, once per
 * order (its dedupe key), with the parcel's tracking link and the order's secret link.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';
import { isMailable, queueMail } from '../../platform/mail/outbox.ts';
import { orderLinkLines } from './order-links.ts';
import { orderForShippedMail } from './repository.ts';

export const ORDER_SHIPPED_TEMPLATE = 'order-shipped';

export function orderShippedKey(orderId: string): string {
  return `order-shipped:${orderId}`;
}

/** Answers false when the order has no email address or the email was already queued. `db` is the caller's transaction. */
export async function queueShippedMail(db: Kysely<DB>, publicUrl: string, orderId: string): Promise<boolean> {
  const order = await orderForShippedMail(db, orderId);
  if (!order || !isMailable(order.customer_email)) return false;
  const text = [
    'Good news: your order is on its way!',
    '',
    `Order ${order.id}`,
    '',
    ...(order.tracking_number ? [`Tracking number: ${order.tracking_number}`] : []),
    ...(order.tracking_url ? ['Track your parcel here:', order.tracking_url] : []),
    '',
    ...(await orderLinkLines(db, publicUrl, orderId, 'Your order, its status and history:')),
  ].join('\n');
  return queueMail(db, {
    to: order.customer_email,
    template: ORDER_SHIPPED_TEMPLATE,
    subject: `Your order has shipped: ${order.id}`,
    text,
    dedupeKey: orderShippedKey(orderId),
  });
}
