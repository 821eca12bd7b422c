/**
 * The order's life: every change of status goes through transitionOrder, which locks the
 * order row, refuses a move the lifecycle does not allow, and writes the status history in
 * the same transaction. Callers run it inside their own transaction together with the
 * change's other effects (earnings, jobs, mail), so a status and its effects commit together.
 *
 *   pending ──> paid ──> submitted ──> in_production ──> shipped ──> delivered
 *      │          └─────────┴──────────────┴────────────────┴────────────┴──> refunded
 *      └──> cancelled (checkout expired)        pending ──> refunded (refund seen before payment)
 *   cancelled ──> paid: a payment that arrives for a checkout that had expired revives it (print
 *                on demand has no stock to run out of); payment-events.ts allows it only for an
 *                order never paid before
 *   cancelled ──> refunded: the payment of an order the print shop cancelled is given back
 *
 * Every payment that succeeds so ends in a paid order on its way to the buyer, or in a full refund.
 */
import type { Transaction } from 'kysely';
import type { DB, OrderStatus } from '../../platform/db/schema.ts';
import { addStatusHistory, lockOrderStatus, setOrderStatus, type OrderUpdate } from './repository.ts';

export const ORDER_TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  pending: ['paid', 'cancelled', 'refunded'],
  paid: ['submitted', 'in_production', 'shipped', 'refunded', 'cancelled'],
  submitted: ['in_production', 'shipped', 'delivered', 'refunded', 'cancelled'],
  in_production: ['shipped', 'delivered', 'refunded'],
  shipped: ['delivered', 'refunded'],
  delivered: ['refunded'],
  cancelled: ['paid', 'refunded'],
  refunded: [],
};

/** Where an order stands in the lifecycle; fulfilment updates arriving late never move it back. */
export const ORDER_RANK: Readonly<Record<OrderStatus, number>> = {
  pending: 0,
  paid: 1,
  submitted: 2,
  in_production: 3,
  shipped: 4,
  delivered: 5,
  cancelled: 9,
  refunded: 9,
};

export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return ORDER_TRANSITIONS[from].includes(to);
}

export interface TransitionResult {
  /** True when this call moved the order; false when the move was not allowed (or already made). */
  changed: boolean;
  from: OrderStatus;
  status: OrderStatus;
}

export interface TransitionOptions {
  reason?: string;
  eventId?: string | null;
  /** Extra order columns set together with the status (tracking, payment ids...). */
  set?: OrderUpdate;
}

/**
 * Moves an order to `to` if the lifecycle allows it from its current status. Must run inside a
 * transaction: the row lock serialises concurrent callers, so of many racing deliveries of the
 * same news exactly one changes the order.
 */
export async function transitionOrder(
  trx: Transaction<DB>,
  orderId: string,
  to: OrderStatus,
  options: TransitionOptions = {},
): Promise<TransitionResult | null> {
  const row = await lockOrderStatus(trx, orderId);
  if (!row) return null;
  const from = row.status;
  if (!canTransition(from, to)) return { changed: false, from, status: from };
  await setOrderStatus(trx, orderId, to, options.set);
  await addStatusHistory(trx, { orderId, from, to, reason: options.reason ?? '', eventId: options.eventId ?? null });
  return { changed: true, from, status: to };
}
