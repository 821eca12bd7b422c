/**
 * The admin portal's orders: the searchable list, one order's detail, a full refund, and a failed
 * fulfilment sent again. Each action writes one admin log entry.
 *
 * A refund is a call to the payment provider, which no transaction may span: the embedded
 * provider applies its charge.refunded event (through our own webhook, which locks the order) on
 * the way, and the embedded database is one connection. So it goes in three steps:
 *  1. under the order's lock: the refusals (never paid, cancelled, already refunded, or a refund
 *     already on its way), then the order is marked refund_requested_at and the lock released.
 *     A repeated or concurrent request waits for that lock, then finds the mark (or the order
 *     refunded) and is refused with 409, so it neither calls the provider nor writes a log entry;
 *  2. the provider's call. If it refuses, the mark is cleared and the answer is 502 with its
 *     reason: nothing changed, nothing is logged, and the admin may try again;
 *  3. the admin log entry, once the provider accepted the refund; then the order is read again.
 *     The order turns refunded, and its creators' earnings are reversed, by the provider's event
 *     (checkout/payment-events.ts), never here.
 * A mark older than REFUND_PENDING_MINUTES on an order still not refunded (the provider's event
 * never came, or the process stopped between steps) no longer blocks a new request: the provider
 * refunds a payment once whatever number of times it is asked (Stripe by the idempotency key
 * refund:<payment intent>, the embedded provider by the session's state).
 */
import type { Kysely } from 'kysely';
import {
  ADMIN_ORDER_MESSAGES as M,
  REFUND_PENDING_MINUTES,
  type AdminOrderDetail,
  type AdminOrderRow,
  type FulfilmentState,
} from '../../../shared/schemas/admin-orders.ts';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import type { DB, OrderStatus } from '../../platform/db/schema.ts';
import { AppError } from '../../platform/http/errors.ts';
import { containsPattern, decodeCursor, KEYSET_IDS, keysetPage } from '../../platform/http/keyset.ts';
import { fulfilOrderKey, JOB_KINDS, lockJobByKey, requeueFailedJob } from '../../platform/jobs/enqueue.ts';
import type { PaymentProvider } from '../../integrations/stripe/index.ts';
import { recordAdminAction } from '../admin/index.ts';
import { itemLabel } from './item-label.ts';
import * as repo from './repository.ts';

/** Paid, and not refunded or cancelled: the statuses a refund applies to. */
const REFUNDABLE: ReadonlySet<OrderStatus> = new Set(['paid', 'submitted', 'in_production', 'shipped', 'delivered']);

const conflict = (message: string) => new AppError(409, ERROR_CODES.CONFLICT, message);

function fulfilmentState(jobStatus: FulfilmentState | null): FulfilmentState {
  return jobStatus ?? 'none';
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/* ---- The list ---- */

const FULL_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ID_SHAPE = 'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx';

/**
 * The ids that start with `text` as the order page and the emails write an id (lower-case hex in
 * groups of 8-4-4-4-12); the hex digits typed without their hyphens are taken too. null when the
 * text cannot start an id.
 */
export function idPrefixRange(text: string): { lo: string; hi: string } | null {
  let prefix = text.toLowerCase();
  if (/^[0-9a-f]{9,32}$/.test(prefix)) {
    // Hyphens put back where the written form has them.
    const groups = [8, 4, 4, 4, 12];
    const parts: string[] = [];
    let at = 0;
    for (const n of groups) {
      if (at >= prefix.length) break;
      parts.push(prefix.slice(at, at + n));
      at += n;
    }
    prefix = parts.join('-');
  }
  if (prefix.length === 0 || prefix.length > ID_SHAPE.length) return null;
  for (let i = 0; i < prefix.length; i++) {
    const ok = ID_SHAPE[i] === '-' ? prefix[i] === '-' : /[0-9a-f]/.test(prefix[i]!);
    if (!ok) return null;
  }
  const rest = ID_SHAPE.slice(prefix.length);
  return { lo: prefix + rest.replace(/x/g, '0'), hi: prefix + rest.replace(/x/g, 'f') };
}

/**
 * What the admin's search text matches: a whole order id that order only; text with an '@' the
 * customer email only; other text the email and, when it can start an id, the ids it starts.
 */
export function searchMatch(q: string | undefined): repo.AdminOrderMatch | null {
  const text = q?.trim() ?? '';
  if (!text) return null;
  const lower = text.toLowerCase();
  if (FULL_ID.test(lower)) return { id: lower };
  const match: repo.AdminOrderMatch = { emailPattern: containsPattern(text) };
  if (!text.includes('@')) {
    const range = idPrefixRange(lower);
    if (range) match.idRange = range;
  }
  return match;
}

type ListRow = Omit<Awaited<ReturnType<typeof repo.listAdminOrders>>[number], 'cursor_ts'>;

function toRow(r: ListRow): AdminOrderRow {
  return {
    id: r.id,
    customer_email: r.customer_email,
    status: r.status,
    total_cents: Number(r.total_cents),
    item_count: Number(r.item_count ?? 0),
    created_at: r.created_at.toISOString(),
    paid_at: iso(r.paid_at),
    refunded_at: iso(r.refunded_at),
    fulfilment: fulfilmentState(r.job_status),
  };
}

export interface OrderQuery {
  q?: string;
  status?: OrderStatus;
  limit: number;
  cursor?: string;
}

export async function orderPage(db: Kysely<DB>, q: OrderQuery): Promise<{ orders: AdminOrderRow[]; next_cursor: string | null }> {
  const rows = await repo.listAdminOrders(db, {
    match: searchMatch(q.q),
    status: q.status,
    before: q.cursor ? decodeCursor(q.cursor, KEYSET_IDS.uuid, M.badCursor) : null,
    limit: q.limit + 1,
  });
  const { shown, next_cursor } = keysetPage(rows, q.limit);
  return { orders: shown.map(toRow), next_cursor };
}

/* ---- One order ---- */

export async function orderDetail(db: Kysely<DB>, orderId: string): Promise<AdminOrderDetail> {
  const o = await repo.findAdminOrder(db, orderId, REFUND_PENDING_MINUTES);
  if (!o) throw AppError.notFound(M.orderNotFound);
  const [items, history] = [await repo.adminOrderItems(db, orderId), await repo.orderHistory(db, orderId)];
  const fulfilment = fulfilmentState(o.job_status);
  const refundPending = o.status !== 'refunded' && o.refund_pending === true;
  return {
    ...toRow(o),
    subtotal_cents: Number(o.subtotal_cents),
    shipping_cents: Number(o.shipping_cents),
    shipping_country: o.shipping_country,
    shipping_method: o.shipping_method,
    payment_provider: o.payment_provider,
    fulfilment_provider: o.fulfilment_provider,
    fulfilment_order_id: o.fulfilment_order_id,
    tracking_url: o.tracking_url,
    last_fulfilment_error: o.job_last_error ?? null,
    refund_requested_at: o.status === 'refunded' ? null : iso(o.refund_requested_at),
    items: items.map((i) => ({
      label: itemLabel(i),
      quantity: i.quantity,
      unit_price_cents: i.unit_price_cents + i.size_surcharge_cents,
      creator_username: i.creator_username,
    })),
    history: history.map((h) => ({ from_status: h.from_status, to_status: h.to_status, reason: h.reason, created_at: h.created_at.toISOString() })),
    can_refund: REFUNDABLE.has(o.status) && o.payment_intent_id !== null && !refundPending,
    can_retry_fulfilment: o.status === 'paid' && o.fulfilment_order_id === null && fulfilment === 'failed',
  };
}

/* ---- Refund ---- */

export interface RefundDeps {
  db: Kysely<DB>;
  payments: Pick<PaymentProvider, 'refund'>;
  log?: (msg: string, err?: unknown) => void;
}

/** The provider's reason, short enough to show. */
function reasonOf(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return (text.trim() || 'no reason given').slice(0, 300);
}

/** Refunds a paid order in full through the payment provider (see the steps at the top). */
export async function refundOrder(deps: RefundDeps, adminId: string, orderId: string, confirmed: boolean): Promise<{ message: string; order: AdminOrderDetail }> {
  if (!confirmed) throw AppError.badRequest(M.confirmRefund);
  const { db } = deps;

  const request = await db.transaction().execute(async (trx) => {
    const o = await repo.lockOrderForAdmin(trx, orderId, REFUND_PENDING_MINUTES);
    if (!o) throw AppError.notFound(M.orderNotFound);
    if (o.status === 'refunded') throw conflict(M.alreadyRefunded);
    if (o.status === 'cancelled') throw conflict(M.cancelled);
    if (!REFUNDABLE.has(o.status) || o.paid_at === null) throw conflict(M.notPaid);
    if (o.refund_pending) throw conflict(M.refundPending);
    if (!o.payment_intent_id) throw conflict(M.noPayment);
    await repo.markRefundRequested(trx, orderId);
    return { paymentIntentId: o.payment_intent_id, statusBefore: o.status, totalCents: Number(o.total_cents), provider: o.payment_provider };
  });

  try {
    await deps.payments.refund(request.paymentIntentId);
  } catch (err) {
    deps.log?.(`the payment provider refused the refund of order ${orderId}`, err);
    await repo.clearRefundRequest(db, orderId);
    throw new AppError(502, ERROR_CODES.SERVICE_UNAVAILABLE, M.refundRefused(reasonOf(err)));
  }

  await recordAdminAction(db, {
    adminUserId: adminId,
    actionType: 'refund_order',
    targetType: 'order',
    targetId: orderId,
    details: {
      payment_provider: request.provider,
      payment_intent_id: request.paymentIntentId,
      total_cents: request.totalCents,
      status_before: request.statusBefore,
    },
  });
  const order = await orderDetail(db, orderId);
  return { message: order.status === 'refunded' ? M.refunded : M.refundSent, order };
}

/* ---- Retry a failed fulfilment ---- */

/**
 * Queues the order's failed fulfil job again from its first attempt, in one transaction with its
 * log entry, under the order's lock and then the job's. The job runner changes a job in single
 * statements and never waits for an order's lock while holding a job's, so the two cannot wait
 * on each other.
 */
export async function retryFulfilment(db: Kysely<DB>, adminId: string, orderId: string): Promise<{ message: string; order: AdminOrderDetail }> {
  await db.transaction().execute(async (trx) => {
    const o = await repo.lockOrderForAdmin(trx, orderId, REFUND_PENDING_MINUTES);
    if (!o) throw AppError.notFound(M.orderNotFound);
    if (o.status === 'refunded') throw conflict(M.retryRefunded);
    if (o.status === 'cancelled') throw conflict(M.retryCancelled);
    if (o.status === 'pending') throw conflict(M.retryNotPaid);
    if (o.status !== 'paid' || o.fulfilment_order_id !== null) throw conflict(M.retryAlreadySent);
    const job = await lockJobByKey(trx, fulfilOrderKey(orderId));
    if (!job || job.kind !== JOB_KINDS.fulfilOrder) throw conflict(M.retryNoJob);
    if (job.status !== 'failed') throw conflict(M.retryNotFailed(job.status));
    await requeueFailedJob(trx, job.id);
    await recordAdminAction(trx, {
      adminUserId: adminId,
      actionType: 'retry_fulfilment',
      targetType: 'order',
      targetId: orderId,
      details: { job_id: job.id, attempts_before: job.attempts, last_error: job.last_error },
    });
  });
  return { message: M.retryQueued, order: await orderDetail(db, orderId) };
}
