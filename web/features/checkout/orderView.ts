/** What the success and order pages show about an order, as pure functions. */
import { ORDER_STATUS_LABELS, ORDER_STATUSES, type OrderStatusName } from '../../../shared/schemas/checkout.ts';

/** The success page reads the session again this often while the payment is being confirmed... */
export const SESSION_POLL_MS = 1500;
/** ...for this long at most. */
export const SESSION_WAIT_MS = 30_000;
/** The order page reads the order again this often while it can still change... */
export const ORDER_POLL_MS = 3000;
/** ...for this long at most (then a reload reads it again). */
export const ORDER_WATCH_MS = 15 * 60_000;

/** After these an order changes no more (a refund of a delivered order is rare enough to need a reload). */
export const FINAL_STATUSES: readonly OrderStatusName[] = ['delivered', 'cancelled', 'refunded'];

export function isFinalStatus(status: string): boolean {
  return (FINAL_STATUSES as readonly string[]).includes(status);
}

export function isOrderStatus(status: string): status is OrderStatusName {
  return (ORDER_STATUSES as readonly string[]).includes(status);
}

/** The buyer's words for a status; an unknown one is shown as it came. */
export function orderStatusLabel(status: string): string {
  return isOrderStatus(status) ? ORDER_STATUS_LABELS[status] : status;
}

/** A checkout session id as the server issues them (cs_...), checked before asking. */
export function isSessionId(id: string): boolean {
  return /^cs_[A-Za-z0-9_]{7,197}$/.test(id);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isOrderId(id: string): boolean {
  return UUID.test(id);
}

/** The path and query of a link on this site (absolute or not), else null. */
export function sameSitePath(url: string, origin: string): string | null {
  try {
    const u = new URL(url, origin);
    return u.origin === origin ? u.pathname + u.search + u.hash : null;
  } catch {
    return null;
  }
}
