/**
 * The admin portal's orders: search, detail with status history, refund, retry a failed
 * fulfilment. Every route is admin-only: signed out answers 401 'Not authenticated.', a
 * signed-in non-admin 403 'Access denied. Admin privileges required.' (api/platform/http/auth.ts).
 *
 * A refund is made in full through the payment provider. The order turns refunded (and the
 * creators' earnings are reversed) when the provider's charge.refunded event arrives; with the
 * embedded provider that happens before the answer, with Stripe usually a moment after it.
 */
import { Type, type Static } from 'typebox';
import { ADMIN_PAGE_MAX, ADMIN_PAGE_SIZE, ADMIN_SEARCH_MAX_CHARS } from './admin.ts';
import { ORDER_STATUSES } from './checkout.ts';
import { errorReplies, IdParams, Timestamp, Uuid } from './common.ts';
import { defineRoute } from './route.ts';

/** A refund request not confirmed by the payment provider within this many minutes may be sent again. */
export const REFUND_PENDING_MINUTES = 15;

export const ADMIN_ORDER_MESSAGES = {
  orderNotFound: 'Order not found.',
  badCursor: 'The page cursor is not valid; start again from the first page.',
  confirmRefund: 'A refund cannot be undone: send {"confirm": true} to confirm it.',
  notPaid: 'This order was never paid: there is nothing to refund.',
  noPayment: 'This order has no payment recorded with the payment provider, so it cannot be refunded here.',
  alreadyRefunded: 'This order is already refunded.',
  cancelled: 'This order was cancelled before it was paid: there is nothing to refund.',
  refundPending: `A refund of this order was already sent to the payment provider and is waiting for its confirmation. Try again after ${REFUND_PENDING_MINUTES} minutes if it never arrives.`,
  refundRefused: (reason: string) => `The payment provider refused the refund, so nothing changed: ${reason}`,
  refunded: "The order was refunded in full and its creators' earnings were reversed.",
  refundSent: 'The refund was sent to the payment provider; the order shows refunded once the provider confirms it.',
  retryNotPaid: 'Only a paid order can be sent to the print shop: this one is not paid.',
  retryRefunded: 'This order was refunded: there is nothing to fulfil.',
  retryCancelled: 'This order was cancelled: there is nothing to fulfil.',
  retryAlreadySent: 'This order already reached the print shop.',
  retryNoJob: 'This order has no fulfilment job to retry.',
  retryNotFailed: (state: string) => `Only a failed fulfilment can be retried: this one is ${state}.`,
  retryQueued: 'The fulfilment was queued again and runs shortly.',
} as const;

const OrderStatusSchema = Type.Enum(ORDER_STATUSES);

/** The state of the order's fulfil job ('none' when it has none: never paid, or paid before jobs existed). */
export const FULFILMENT_STATES = ['none', 'queued', 'running', 'done', 'failed'] as const;
export type FulfilmentState = (typeof FULFILMENT_STATES)[number];
const FulfilmentStateSchema = Type.Enum(FULFILMENT_STATES);

const Cents = Type.Integer({ minimum: 0, description: 'integer cents (USD)' });
const Cursor = Type.String({ description: 'next_cursor of the previous page', pattern: '^[A-Za-z0-9_-]{1,200}$' });
const NextCursor = Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' });
const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);
const NullableString = Type.Union([Type.String(), Type.Null()]);

const rowFields = {
  id: Uuid,
  customer_email: NullableString,
  status: OrderStatusSchema,
  total_cents: Cents,
  /** Units ordered: the sum of the items' quantities. */
  item_count: Type.Integer({ minimum: 0, description: 'units ordered (the sum of the quantities)' }),
  created_at: Timestamp,
  paid_at: NullableTimestamp,
  refunded_at: NullableTimestamp,
  fulfilment: FulfilmentStateSchema,
};

export const AdminOrderRow = Type.Object(rowFields);
export type AdminOrderRow = Static<typeof AdminOrderRow>;

export const AdminOrderItem = Type.Object({
  /** As the buyer saw it: product and options, e.g. 'Unisex T-Shirt (Black, M)'. */
  label: Type.String(),
  quantity: Type.Integer({ minimum: 1 }),
  /** What one unit cost the buyer, size surcharge included (quantity x this is the line's total). */
  unit_price_cents: Cents,
  creator_username: NullableString,
});
export type AdminOrderItem = Static<typeof AdminOrderItem>;

export const AdminOrderHistoryEntry = Type.Object({
  from_status: Type.Union([OrderStatusSchema, Type.Null()]),
  to_status: OrderStatusSchema,
  reason: Type.String(),
  created_at: Timestamp,
});
export type AdminOrderHistoryEntry = Static<typeof AdminOrderHistoryEntry>;

export const AdminOrderDetail = Type.Object({
  ...rowFields,
  subtotal_cents: Cents,
  shipping_cents: Cents,
  shipping_country: Type.String(),
  shipping_method: Type.String(),
  payment_provider: Type.Union([Type.Literal('stripe'), Type.Literal('embedded'), Type.Null()]),
  fulfilment_provider: Type.Union([Type.Literal('printful'), Type.Literal('embedded'), Type.Null()]),
  fulfilment_order_id: NullableString,
  tracking_url: NullableString,
  last_fulfilment_error: NullableString,
  /** When an admin last sent a refund the payment provider has not confirmed yet (null otherwise). */
  refund_requested_at: NullableTimestamp,
  items: Type.Array(AdminOrderItem),
  /** Oldest first. */
  history: Type.Array(AdminOrderHistoryEntry),
  can_refund: Type.Boolean(),
  can_retry_fulfilment: Type.Boolean(),
});
export type AdminOrderDetail = Static<typeof AdminOrderDetail>;

export const adminOrdersRoute = defineRoute({
  method: 'GET',
  url: '/api/admin/orders',
  access: 'admin',
  schema: {
    summary:
      'Orders, newest first (20 a page, 100 at most): q is a whole order id, the start of one (as the order page and emails show it), or text in the customer email (any case, as typed: % and _ are plain characters); status filters',
    tags: ['admin'],
    querystring: Type.Object(
      {
        q: Type.Optional(Type.String({ maxLength: ADMIN_SEARCH_MAX_CHARS })),
        status: Type.Optional(OrderStatusSchema),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: ADMIN_PAGE_MAX, default: ADMIN_PAGE_SIZE })),
        cursor: Type.Optional(Cursor),
      },
      { additionalProperties: false },
    ),
    response: {
      200: Type.Object({ success: Type.Literal(true), orders: Type.Array(AdminOrderRow), next_cursor: NextCursor }),
      ...errorReplies(400, 401, 403),
    },
  },
});

export const adminOrderRoute = defineRoute({
  method: 'GET',
  url: '/api/admin/orders/:id',
  access: 'admin',
  schema: {
    summary: 'One order with its items, status history, payment and fulfilment, and which actions it allows',
    tags: ['admin'],
    params: IdParams,
    response: {
      200: Type.Object({ success: Type.Literal(true), order: AdminOrderDetail }),
      ...errorReplies(400, 401, 403, 404),
    },
  },
});

const OrderActionReply = Type.Object({ success: Type.Literal(true), message: Type.String(), order: AdminOrderDetail });

export const refundOrderRoute = defineRoute({
  method: 'POST',
  url: '/api/admin/orders/:id/refund',
  access: 'admin',
  schema: {
    summary:
      'Refunds a paid order in full through the payment provider (logged); the body must be {"confirm": true}; 409 when never paid, cancelled, already refunded or a refund is already on its way; 502 when the provider refuses',
    tags: ['admin'],
    params: IdParams,
    body: Type.Object({ confirm: Type.Literal(true, { description: 'the admin confirmed the refund' }) }, { additionalProperties: false }),
    response: { 200: OrderActionReply, ...errorReplies(400, 401, 403, 404, 409, 502) },
  },
});

export const retryFulfilmentRoute = defineRoute({
  method: 'POST',
  url: '/api/admin/orders/:id/retry-fulfilment',
  access: 'admin',
  schema: {
    summary: "Queues a paid order's failed fulfilment again, from its first attempt (logged); 409 unless the order is paid and its fulfilment failed",
    tags: ['admin'],
    params: IdParams,
    response: { 200: OrderActionReply, ...errorReplies(400, 401, 403, 404, 409) },
  },
});

/** One run of the payment reconciliation: the provider's succeeded payments held against the orders. */
export const PaymentReconciliation = Type.Object({
  ran_at: Timestamp,
  since: Timestamp,
  provider: Type.String(),
  checked: Type.Integer({ description: 'succeeded payments the provider reported' }),
  in_order: Type.Integer({ description: 'payments whose order was paid (or on its way) or refunded' }),
  repaired: Type.Array(Type.Object({ session_id: Type.String(), order_id: Type.String(), effect: Type.String() }), {
    description: 'orders that had missed their payment and were paid by the run',
  }),
  refunded: Type.Array(Type.Object({ session_id: Type.String(), order_id: Type.Union([Type.String(), Type.Null()]), why: Type.String() }), {
    description: 'payments no order could take, refunded in full',
  }),
});
export type PaymentReconciliation = Static<typeof PaymentReconciliation>;

export const paymentReconciliationsRoute = defineRoute({
  method: 'GET',
  url: '/api/admin/payment-reconciliations',
  access: 'admin',
  schema: {
    summary: 'The latest runs of the daily payment reconciliation, newest first (10)',
    tags: ['admin'],
    response: {
      200: Type.Object({ success: Type.Literal(true), runs: Type.Array(PaymentReconciliation) }),
      ...errorReplies(401, 403),
    },
  },
});

export const runPaymentReconciliationRoute = defineRoute({
  method: 'POST',
  url: '/api/admin/payment-reconciliations',
  access: 'admin',
  schema: {
    summary: "Runs the payment reconciliation now (the daily job's work) and answers its result",
    tags: ['admin'],
    response: {
      200: Type.Object({ success: Type.Literal(true), run: PaymentReconciliation }),
      ...errorReplies(401, 403, 502),
    },
  },
});

export const ADMIN_ORDER_ROUTES = [adminOrdersRoute, adminOrderRoute, refundOrderRoute, retryFulfilmentRoute, paymentReconciliationsRoute, runPaymentReconciliationRoute] as const;
