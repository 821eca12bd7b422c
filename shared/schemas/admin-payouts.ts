/**
 * The admin portal's payouts: the monthly runs by period, each payout's state, and sending a
 * failed payout again. Every route is admin-only: signed out answers 401 'Not authenticated.',
 * a signed-in non-admin 403 'Access denied. Admin privileges required.'. Money in integer cents.
 *
 * A failed payout is final for the monthly run: its earnings go back to the creator's pending
 * balance and the next period's payout takes them. Retrying sends it now instead: the same
 * payout takes those earnings again (at the creator's current method and its fee) and goes out
 * under a new request to the provider, so the failed attempt can never be paid as well.
 */
import { Type, type Static } from 'typebox';
import { ADMIN_PAGE_MAX, ADMIN_PAGE_SIZE } from './admin.ts';
import { errorReplies, IdParams, Timestamp, Uuid } from './common.ts';
import { PayoutMethodName, PayoutStatus } from './payouts.ts';
import { defineRoute } from './route.ts';

/** The runs list shows a year of months a page by default. */
export const ADMIN_PAYOUT_RUNS_PAGE_SIZE = 12;

/** A month as YYYY-MM (years 2000 to 2999). */
export const ADMIN_PAYOUT_MONTH_PATTERN = '^2[0-9]{3}-(0[1-9]|1[0-2])$';

export const ADMIN_PAYOUT_MESSAGES = {
  payoutNotFound: 'Payout not found.',
  badCursor: 'The page cursor is not valid; start again from the first page.',
  notFailed: (status: string) => `Only a failed payout can be retried; this one is ${status}.`,
  creatorDeleted: 'The creator deleted their account: there is nobody to send this payout to.',
  alreadyTaken: "Nothing of this payout is left to send: its earnings are already in a later payout.",
  payoutsOff: 'The creator has turned payouts off.',
  suspended: 'The creator is suspended: their payouts wait until they are active again.',
  noMethod: 'The creator has no payout method set up.',
  methodUnavailable: "The creator's payout method is not available right now.",
  noDestination: "The creator's payout details for their method are missing (or their Stripe account is not active).",
  belowThreshold: "What is left of this payout's earnings is below the creator's payout threshold.",
  feeNotCovered: "The method's fee would take all of this payout.",
  retriedProcessing: 'The payout was sent again and is on its way.',
  retriedPaid: 'The payout was sent again and is paid.',
  retriedFailed: 'The payout was sent again and failed again: see its failure reason.',
  retriedQueued: 'The payout is ready to go again; it could not be sent just now, so the next payout run sends it.',
} as const;

const Count = Type.Integer({ minimum: 0 });
const Cents = Type.Integer({ minimum: 0, description: 'integer cents (USD)' });
const Month = Type.String({ pattern: ADMIN_PAYOUT_MONTH_PATTERN, description: 'YYYY-MM' });
const NextCursor = Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' });

/* ---- Runs by period ---- */

/** One period's payouts, summed. */
export const PayoutRunRow = Type.Object(
  {
    /** The run's month: it paid the earnings made before its 1st. */
    period: Month,
    payouts: Count,
    /** What the creators were owed, before fees. */
    amount_cents: Cents,
    fee_cents: Cents,
    pending: Count,
    processing: Count,
    paid: Count,
    failed: Count,
    /** ACH payouts of the period: the period has a NACHA file (GET /api/admin/payouts/ach/:period) when ACH goes by file. */
    ach: Count,
  },
  { additionalProperties: false },
);
export type PayoutRunRow = Static<typeof PayoutRunRow>;

export const adminPayoutRunsRoute = defineRoute({
  method: 'GET',
  url: '/api/admin/payouts/runs',
  access: 'admin',
  schema: {
    summary: 'The payout runs, one row per period with payouts, newest period first (12 a page, 100 at most)',
    tags: ['admin', 'payouts'],
    querystring: Type.Object(
      {
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: ADMIN_PAGE_MAX, default: ADMIN_PAYOUT_RUNS_PAGE_SIZE })),
        cursor: Type.Optional(Type.String({ pattern: ADMIN_PAYOUT_MONTH_PATTERN, description: 'next_cursor of the previous page (the last period shown)' })),
      },
      { additionalProperties: false },
    ),
    response: {
      200: Type.Object({ success: Type.Literal(true), runs: Type.Array(PayoutRunRow), next_cursor: NextCursor }),
      ...errorReplies(400, 401, 403),
    },
  },
});

/* ---- Payouts ---- */

export const AdminPayoutRow = Type.Object(
  {
    id: Uuid,
    period: Month,
    /** All null once the creator deleted their account (the payout is kept). */
    creator: Type.Object(
      {
        id: Type.Union([Uuid, Type.Null()]),
        username: Type.Union([Type.String(), Type.Null()]),
        email: Type.Union([Type.String(), Type.Null()]),
      },
      { additionalProperties: false },
    ),
    method: PayoutMethodName,
    /** What the creator is owed; the provider sends amount_cents - fee_cents. */
    amount_cents: Cents,
    fee_cents: Cents,
    status: PayoutStatus,
    /** The provider's (or the run's) reason, digits runs masked, while the payout is failed; else null. */
    failure_reason: Type.Union([Type.String(), Type.Null()]),
    provider_reference: Type.Union([Type.String(), Type.Null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
    /** Failed, its creator still has an account, and its earnings are not in a later payout. */
    can_retry: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type AdminPayoutRow = Static<typeof AdminPayoutRow>;

export const adminPayoutsRoute = defineRoute({
  method: 'GET',
  url: '/api/admin/payouts',
  access: 'admin',
  schema: {
    summary: 'Payouts, newest first (20 a page, 100 at most), by period and status',
    tags: ['admin', 'payouts'],
    querystring: Type.Object(
      {
        period: Type.Optional(Month),
        status: Type.Optional(PayoutStatus),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: ADMIN_PAGE_MAX, default: ADMIN_PAGE_SIZE })),
        cursor: Type.Optional(Type.String({ description: 'next_cursor of the previous page', pattern: '^[A-Za-z0-9_-]{1,200}$' })),
      },
      { additionalProperties: false },
    ),
    response: {
      200: Type.Object({ success: Type.Literal(true), payouts: Type.Array(AdminPayoutRow), next_cursor: NextCursor }),
      ...errorReplies(400, 401, 403),
    },
  },
});

export const retryPayoutRoute = defineRoute({
  method: 'POST',
  url: '/api/admin/payouts/:id/retry',
  access: 'admin',
  schema: {
    summary:
      "Sends a failed payout again now (logged): it takes its earnings back from the creator's pending balance, at their current method, and goes out under a new provider request; 409 unless it is failed and can still be paid",
    tags: ['admin', 'payouts'],
    params: IdParams,
    response: {
      200: Type.Object({ success: Type.Literal(true), message: Type.String(), payout: AdminPayoutRow }),
      ...errorReplies(400, 401, 403, 404, 409),
    },
  },
});

export const ADMIN_PAYOUT_ROUTES = [adminPayoutRunsRoute, adminPayoutsRoute, retryPayoutRoute] as const;
