/**
 * The buyer's shipped email: queued in the transaction that marks the order shipped, once per
 * order (its dedupe key), with the parcel's tracking link and the order's secret link.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';
import { isMailable, queueMail } from '../../platform/mail/outbox.ts';
import { orderPagePath } from './order-links.ts';

export const ORDER_SHIPPED_TEMPLATE = 'order-shipped';

export function orderShippedKey(orderId: string): string {
  return `order-shipped:${orderId}`;
}

/** Answers false when the order has no email address or the email was already queued. `db` is the caller's transaction. */
export async function queueShippedMail(db: Kysely<DB>, publicUrl: string, orderId: string): Promise<boolean> {
  const order = await db
    .selectFrom('orders')
    .select(['id', 'customer_email', 'tracking_number', 'tracking_url'])
    .where('id', '=', orderId)
    .executeTakeFirst();
  if (!order || !isMailable(order.customer_email)) return false;
  const link = `${publicUrl}${await orderPagePath(db, orderId)}`;
  const text = [
    'Good news: your order is on its way!',
    '',
    `Order ${order.id}`,
    '',
    ...(order.tracking_number ? [`Tracking number: ${order.tracking_number}`] : []),
    ...(order.tracking_url ? ['Track your parcel here:', order.tracking_url] : []),
    '',
    'Your order, its status and history:',
    link,
    '',
    'Keep this link to yourself: anyone who has it can see the order.',
    '',
  ].join('\n');
  return queueMail(db, {
    to: order.customer_email,
    template: ORDER_SHIPPED_TEMPLATE,
    subject: `Your order has shipped: ${order.id}`,
    text,
    dedupeKey: orderShippedKey(orderId),
  });
}
