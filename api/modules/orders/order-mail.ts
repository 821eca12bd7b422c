/**
 * The buyer's order confirmation: queued in the transaction that marks the order paid, once
 * per order (its dedupe key), with the order's secret link so a buyer without an account can
 * follow it.
 */
import type { Kysely } from 'kysely';
import { addressLines } from '../../../shared/shop/address.ts';
import { formatCents } from '../../../shared/money.ts';
import type { DB } from '../../platform/db/schema.ts';
import { itemLabel } from './item-label.ts';
import { orderLinkLines } from './order-links.ts';
import { isMailable, queueMail } from '../../platform/mail/outbox.ts';
import { orderForConfirmation } from './repository.ts';

export const ORDER_CONFIRMATION_TEMPLATE = 'order-confirmation';

export function orderConfirmationKey(orderId: string): string {
  return `order-confirmation:${orderId}`;
}

/**
 * Queues the confirmation for a paid order; answers false when the order has no email address
 * or the confirmation was already queued. `db` is the caller's transaction.
 */
export async function queueOrderConfirmation(db: Kysely<DB>, publicUrl: string, orderId: string): Promise<boolean> {
  const found = await orderForConfirmation(db, orderId);
  if (!found) return false;
  const { order, items } = found;
  if (!isMailable(order.customer_email)) return false;
  // Named as on the payment page (itemLabel).
  const lines = items.map((i) => `  ${i.quantity} x ${itemLabel(i)}: ${formatCents(i.line_total_cents)}`);
  // Where it goes, as the payment collected it (the order page shows the same).
  const address = addressLines(order.shipping_address, order.shipping_country);
  const shipTo = address.length > 0 ? ['Ships to:', ...[order.shipping_name, ...address].filter(Boolean).map((l) => `  ${l}`), ''] : [];
  const text = [
    'Thank you for your order!',
    '',
    `Order ${order.id}`,
    '',
    ...lines,
    '',
    `Subtotal: ${formatCents(order.subtotal_cents)}`,
    `Shipping (${order.shipping_method}, ${order.shipping_country} ${order.shipping_zip}): ${formatCents(order.shipping_cents)}`,
    `Total: ${formatCents(order.total_cents)}`,
    '',
    ...shipTo,
    ...(await orderLinkLines(db, publicUrl, orderId, 'Follow your order, from printing to delivery, here:')),
  ].join('\n');
  return queueMail(db, {
    to: order.customer_email,
    template: ORDER_CONFIRMATION_TEMPLATE,
    subject: `Order confirmed: ${order.id}`,
    text,
    dedupeKey: orderConfirmationKey(orderId),
  });
}
