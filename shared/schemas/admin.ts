/**
 * The admin portal, first part (spec sections 2, 3, 4, 6, 7): the dashboard's figures, user
 * management (list, suspend, activate, delete) and the admin log. Every route is admin-only:
 * signed out answers 401 'Not authenticated.', a signed-in non-admin 403 'Access denied. Admin
 * privileges required.' (api/platform/http/auth.ts).
 */
import { Type, type Static } from 'typebox';
import { errorReplies, IdParams, Timestamp, Uuid } from './common.ts';
import { defineRoute } from './route.ts';

/** Spec section 9: admin lists 20 a page by default (100 at most), logs 50, recent activity 10. */
export const ADMIN_PAGE_SIZE = 20;
export const ADMIN_PAGE_MAX = 100;
export const ADMIN_LOG_PAGE_SIZE = 50;
export const RECENT_ACTIVITY_COUNT = 10;
export const ADMIN_SEARCH_MAX_CHARS = 100;

export const ADMIN_MESSAGES = {
  userNotFound: 'User not found',
  badCursor: 'The page cursor is not valid; start again from the first page.',
  alreadySuspended: 'This user is already suspended.',
  alreadyActive: 'This user is already active.',
  suspendSelf: 'You cannot suspend your own account.',
  deleteSelf: 'You cannot delete your own account from the admin portal.',
  lastAdmin: 'This is the last active admin: make another admin first.',
  userSuspended: 'The user is suspended and signed out everywhere.',
  userActivated: 'The user is active again.',
  userDeleted: 'The user and their videos and files were deleted.',
  confirmDelete: 'Deleting a user cannot be undone: send {"confirm": true} to confirm it.',
} as const;

/** Every action the admin log records (admin_logs.action_type), with the words the portal shows for it. */
export const ADMIN_ACTION_LABELS = {
  suspend_user: 'User suspended',
  activate_user: 'User activated',
  delete_user: 'User deleted',
  approve_video: 'Video approved',
  reject_video: 'Video rejected',
  delete_video: 'Video deleted',
  update_setting: 'Setting changed',
  refund_order: 'Order refunded',
  retry_fulfilment: 'Fulfilment retried',
  run_payouts: 'Payout run started',
  retry_payout: 'Payout retried',
  confirm_ach_upload: 'ACH file upload confirmed',
} as const;
export type AdminActionType = keyof typeof ADMIN_ACTION_LABELS;
export const ADMIN_ACTION_TYPES = [
  'suspend_user',
  'activate_user',
  'delete_user',
  'approve_video',
  'reject_video',
  'delete_video',
  'update_setting',
  'refund_order',
  'retry_fulfilment',
  'run_payouts',
  'retry_payout',
  'confirm_ach_upload',
] as const satisfies readonly AdminActionType[];

/** The admin log's target types (admin_logs.target_type). */
export const ADMIN_TARGET_TYPES = ['user', 'video', 'subscription', 'setting', 'order', 'payout'] as const;
export type AdminTargetType = (typeof ADMIN_TARGET_TYPES)[number];
const TargetType = Type.Union([
  Type.Literal('user'),
  Type.Literal('video'),
  Type.Literal('subscription'),
  Type.Literal('setting'),
  Type.Literal('order'),
  Type.Literal('payout'),
]);

const Cursor = Type.String({ description: 'next_cursor of the previous page', pattern: '^[A-Za-z0-9_-]{1,200}$' });
const NextCursor = Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' });

/* ---- The admin log ---- */

export const AdminLogEntry = Type.Object({
  id: Type.Integer(),
  admin_user_id: Type.Union([Uuid, Type.Null()], { description: 'null once that admin was deleted' }),
  admin_display_name: Type.Union([Type.String(), Type.Null()]),
  action_type: Type.String(),
  target_type: TargetType,
  target_id: Type.String(),
  details: Type.Record(Type.String(), Type.Unknown()),
  created_at: Timestamp,
});
export type AdminLogEntry = Static<typeof AdminLogEntry>;

export const adminLogsRoute = defineRoute({
  method: 'GET',
  url: '/api/admin/logs',
  access: 'admin',
  schema: {
    summary: 'The admin log, newest first (50 a page, 100 at most), by action type, target type or admin',
    tags: ['admin'],
    querystring: Type.Object(
      {
        action_type: Type.Optional(Type.Enum([...ADMIN_ACTION_TYPES])),
        target_type: Type.Optional(TargetType),
        admin_id: Type.Optional(Uuid),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: ADMIN_PAGE_MAX, default: ADMIN_LOG_PAGE_SIZE })),
        cursor: Type.Optional(Cursor),
      },
      { additionalProperties: false },
    ),
    response: {
      200: Type.Object({ success: Type.Literal(true), logs: Type.Array(AdminLogEntry), next_cursor: NextCursor }),
      ...errorReplies(400, 401, 403),
    },
  },
});

/* ---- The dashboard ---- */

const Count = Type.Integer({ minimum: 0 });
const Cents = Type.Integer({ minimum: 0, description: 'integer cents (USD)' });

export const DashboardStats = Type.Object({
  total_users: Count,
  active_users: Count,
  suspended_users: Count,
  total_videos: Count,
  /** verification_status 'pending' (uploads held for moderation). */
  pending_videos: Count,
  /** 'approved', or 'verified_via_supabase_auth' (uploads that needed no moderation). */
  approved_videos: Count,
  /** Every subscription row, whatever its tier and status. */
  total_subscriptions: Count,
  /** Rows whose status is live: trialing, active or past_due (any tier). */
  active_subscriptions: Count,
  /** Pro rows whose status is live (trialing, active or past_due). */
  premium_subscriptions: Count,
  /** Third-tier creators (user_subscriptions.is_third_tier), as their profiles show them. */
  creator_network_subscriptions: Count,
  /** Every order row, paid or not. */
  total_orders: Count,
  /** Orders paid and not refunded or cancelled (paid, submitted, in production, shipped, delivered). */
  paid_orders: Count,
  /** The totals (items and shipping) of those paid orders. */
  revenue_cents: Cents,
  /** Owed to creators and not yet paid: their positive pending balances plus payouts made but not settled (pending, processing). */
  pending_payouts_cents: Cents,
  /** Background jobs that failed for good. */
  failed_jobs: Count,
});
export type DashboardStats = Static<typeof DashboardStats>;

export const dashboardStatsRoute = defineRoute({
  method: 'GET',
  url: '/api/admin/dashboard-stats',
  access: 'admin',
  schema: {
    summary: "The admin dashboard's figures and the 10 newest admin log entries (user_id is accepted and ignored: the session decides)",
    tags: ['admin'],
    querystring: Type.Object({ user_id: Type.Optional(Type.String({ maxLength: 100 })) }, { additionalProperties: false }),
    response: {
      200: Type.Object({ success: Type.Literal(true), stats: DashboardStats, recent_activity: Type.Array(AdminLogEntry) }),
      ...errorReplies(401, 403),
    },
  },
});

/* ---- Users ---- */

export const USER_STATUSES = ['active', 'suspended'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];
const UserStatusSchema = Type.Union([Type.Literal('active'), Type.Literal('suspended')]);

export const AdminUserRow = Type.Object({
  id: Uuid,
  email: Type.String(),
  username: Type.String(),
  display_name: Type.String(),
  role: Type.Union([Type.Literal('creator'), Type.Literal('customer')]),
  is_admin: Type.Boolean(),
  status: UserStatusSchema,
  created_at: Timestamp,
  videos_count: Count,
});
export type AdminUserRow = Static<typeof AdminUserRow>;

export const adminUsersRoute = defineRoute({
  method: 'GET',
  url: '/api/admin/users',
  access: 'admin',
  schema: {
    summary: 'Users, newest first (20 a page, 100 at most): q searches name, username and email (any case, as typed: % and _ are plain characters); status filters',
    tags: ['admin'],
    querystring: Type.Object(
      {
        q: Type.Optional(Type.String({ maxLength: ADMIN_SEARCH_MAX_CHARS })),
        status: Type.Optional(UserStatusSchema),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: ADMIN_PAGE_MAX, default: ADMIN_PAGE_SIZE })),
        cursor: Type.Optional(Cursor),
      },
      { additionalProperties: false },
    ),
    response: {
      200: Type.Object({ success: Type.Literal(true), users: Type.Array(AdminUserRow), next_cursor: NextCursor }),
      ...errorReplies(400, 401, 403),
    },
  },
});

const UserActionReply = Type.Object({ success: Type.Literal(true), message: Type.String(), user: AdminUserRow });

export const suspendUserRoute = defineRoute({
  method: 'POST',
  url: '/api/admin/users/:id/suspend',
  access: 'admin',
  schema: {
    summary: 'Suspends a user and ends their sessions at once (logged); 409 when already suspended; never oneself or the last active admin (400)',
    tags: ['admin'],
    params: IdParams,
    response: { 200: UserActionReply, ...errorReplies(400, 401, 403, 404, 409) },
  },
});

export const activateUserRoute = defineRoute({
  method: 'POST',
  url: '/api/admin/users/:id/activate',
  access: 'admin',
  schema: {
    summary: 'Makes a suspended user active again (logged); 409 when already active',
    tags: ['admin'],
    params: IdParams,
    response: { 200: UserActionReply, ...errorReplies(400, 401, 403, 404, 409) },
  },
});

export const deleteUserRoute = defineRoute({
  method: 'DELETE',
  url: '/api/admin/users/:id',
  access: 'admin',
  schema: {
    summary:
      'Deletes a user as account deletion does (sessions, videos, files, payout details; orders kept without personal data), logged; the body must be {"confirm": true}; never oneself or the last active admin (400)',
    tags: ['admin'],
    params: IdParams,
    body: Type.Object({ confirm: Type.Literal(true, { description: 'the admin confirmed the deletion' }) }, { additionalProperties: false }),
    response: {
      200: Type.Object({ success: Type.Literal(true), message: Type.String(), files_removed: Count }),
      ...errorReplies(400, 401, 403, 404),
    },
  },
});
