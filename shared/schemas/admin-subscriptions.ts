/**
 * The admin portal's subscriptions: every creator's user_subscriptions row with its user,
 * newest first, by tier and status, and q over username and email. Admin-only: signed out
 * answers 401 'Not authenticated.', a signed-in non-admin 403 'Access denied. Admin privileges
 * required.'.
 */
import { Type, type Static } from 'typebox';
import { ADMIN_PAGE_MAX, ADMIN_PAGE_SIZE, ADMIN_SEARCH_MAX_CHARS } from './admin.ts';
import { errorReplies, Timestamp, Uuid } from './common.ts';
import { defineRoute } from './route.ts';
import { SubscriptionRowStatus, SubscriptionTier } from './subscriptions.ts';

export const ADMIN_SUBSCRIPTION_MESSAGES = {
  badCursor: 'The page cursor is not valid; start again from the first page.',
} as const;

export { SUBSCRIPTION_STATUSES, type SubscriptionStatus as AdminSubscriptionStatus } from './subscriptions.ts';
const Tier = SubscriptionTier;
const SubscriptionStatus = SubscriptionRowStatus;

export const AdminSubscriptionRow = Type.Object(
  {
    id: Uuid,
    user: Type.Object(
      { id: Uuid, username: Type.String(), email: Type.String(), display_name: Type.String() },
      { additionalProperties: false },
    ),
    tier: Tier,
    status: SubscriptionStatus,
    /** Shown as a creator-network subscription on the profile (the sidebar is hidden there). */
    is_third_tier: Type.Boolean(),
    trial_end: Type.Union([Timestamp, Type.Null()]),
    current_period_end: Type.Union([Timestamp, Type.Null()]),
    /** Ends at current_period_end (still Pro until then). */
    cancel_at_period_end: Type.Boolean(),
    created_at: Timestamp,
  },
  { additionalProperties: false },
);
export type AdminSubscriptionRow = Static<typeof AdminSubscriptionRow>;

export const adminSubscriptionsRoute = defineRoute({
  method: 'GET',
  url: '/api/admin/subscriptions',
  access: 'admin',
  schema: {
    summary:
      'Subscriptions, newest first (20 a page, 100 at most), by tier and status; q searches username and email (any case, as typed: % and _ are plain characters)',
    tags: ['admin', 'subscriptions'],
    querystring: Type.Object(
      {
        tier: Type.Optional(Tier),
        status: Type.Optional(SubscriptionStatus),
        q: Type.Optional(Type.String({ maxLength: ADMIN_SEARCH_MAX_CHARS })),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: ADMIN_PAGE_MAX, default: ADMIN_PAGE_SIZE })),
        cursor: Type.Optional(Type.String({ description: 'next_cursor of the previous page', pattern: '^[A-Za-z0-9_-]{1,200}$' })),
      },
      { additionalProperties: false },
    ),
    response: {
      200: Type.Object({
        success: Type.Literal(true),
        subscriptions: Type.Array(AdminSubscriptionRow),
        next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
      }),
      ...errorReplies(400, 401, 403),
    },
  },
});

export const ADMIN_SUBSCRIPTION_ROUTES = [adminSubscriptionsRoute] as const;
