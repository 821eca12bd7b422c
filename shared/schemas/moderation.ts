/**
 * Content moderation and the typed system settings of the admin portal (spec sections 2, 3, 4):
 * the admin's video list with its filters, approve / reject / delete, the settings an admin may
 * change, and the one setting anyone may read (the maintenance banner).
 */
import { Type, type Static } from 'typebox';
import { errorReplies, IdParams, Timestamp, Uuid } from './common.ts';
import { DEFAULT_PAYOUT_THRESHOLD_CENTS } from './payouts.ts';
import { defineRoute } from './route.ts';

// ---------------------------------------------------------------------------------------------
// System settings

export const SETTING_KEYS = ['moderation_required', 'payout_threshold_default_cents', 'maintenance_banner'] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

export interface SystemSettings {
  /** New uploads wait for an admin's approval before they appear in the feed, channels and search. */
  moderation_required: boolean;
  /** The payout threshold a creator starts with, in cents. */
  payout_threshold_default_cents: number;
  /** Shown to everyone at the top of the site; empty shows none. */
  maintenance_banner: string;
}

export const PAYOUT_THRESHOLD_SETTING_MIN_CENTS = 100;
export const PAYOUT_THRESHOLD_SETTING_MAX_CENTS = 100_000;
export const MAINTENANCE_BANNER_MAX_CHARS = 280;

export const SETTING_DEFAULTS: SystemSettings = {
  moderation_required: false,
  payout_threshold_default_cents: DEFAULT_PAYOUT_THRESHOLD_CENTS,
  maintenance_banner: '',
};

export const SETTINGS_MESSAGES = {
  unknownKey: (key: string) => `There is no setting named ${key}.`,
  moderationRequired: 'moderation_required must be true or false.',
  payoutThreshold: `payout_threshold_default_cents must be a whole number of cents from ${PAYOUT_THRESHOLD_SETTING_MIN_CENTS} to ${PAYOUT_THRESHOLD_SETTING_MAX_CENTS}.`,
  maintenanceBanner: `maintenance_banner must be text of at most ${MAINTENANCE_BANNER_MAX_CHARS} characters (empty for none).`,
} as const;

export const SystemSettingsSchema = Type.Object({
  moderation_required: Type.Boolean(),
  payout_threshold_default_cents: Type.Integer({ minimum: PAYOUT_THRESHOLD_SETTING_MIN_CENTS, maximum: PAYOUT_THRESHOLD_SETTING_MAX_CENTS }),
  maintenance_banner: Type.String({ maxLength: MAINTENANCE_BANNER_MAX_CHARS }),
});

const SettingsReply = Type.Object({ success: Type.Literal(true), settings: SystemSettingsSchema });

export const adminSettingsRoute = defineRoute({
  method: 'GET',
  url: '/api/admin/settings',
  access: 'admin',
  schema: {
    summary: 'The system settings, each with its value or its default',
    tags: ['admin'],
    response: { 200: SettingsReply, ...errorReplies(401, 403) },
  },
});

export const updateAdminSettingRoute = defineRoute({
  method: 'PUT',
  url: '/api/admin/settings/:key',
  access: 'admin',
  schema: {
    summary: 'Saves one system setting (checked against its type and range), logged in the admin log',
    tags: ['admin'],
    params: Type.Object({ key: Type.String({ maxLength: 100 }) }, { additionalProperties: false }),
    // The value is checked by the server per key, so a wrong one gets that key's own message.
    body: Type.Object({ value: Type.Unknown() }, { additionalProperties: false }),
    response: { 200: SettingsReply, ...errorReplies(400, 401, 403, 404) },
  },
});

export const publicSettingsRoute = defineRoute({
  method: 'GET',
  url: '/api/settings/public',
  access: 'public',
  schema: {
    summary: 'The settings every page may read: the maintenance banner (null when there is none)',
    tags: ['system'],
    response: {
      200: Type.Object({ success: Type.Literal(true), maintenance_banner: Type.Union([Type.String(), Type.Null()]) }),
    },
  },
});

// ---------------------------------------------------------------------------------------------
// Content moderation

/** The admin list's filter: approved includes uploads verified at sign-in (verified_via_supabase_auth). */
export const MODERATION_FILTERS = ['pending', 'approved', 'rejected'] as const;
export type ModerationFilter = (typeof MODERATION_FILTERS)[number];
export const MODERATION_PAGE_SIZE = 20;
export const MODERATION_PAGE_MAX = 100;

export const MODERATION_MESSAGES = {
  videoNotFound: 'Video not found.',
  alreadyApproved: 'This video is already approved.',
  alreadyRejected: 'This video is already rejected.',
  badCursor: 'The list cursor is not valid; start again from the first page.',
} as const;

export const ModerationVideo = Type.Object({
  id: Uuid,
  title: Type.String(),
  thumbnail_url: Type.Union([Type.String(), Type.Null()]),
  verification_status: Type.Union([Type.Literal('verified_via_supabase_auth'), Type.Literal('pending'), Type.Literal('approved'), Type.Literal('rejected')]),
  created_at: Timestamp,
  creator: Type.Object({ id: Uuid, display_name: Type.String(), username: Type.String() }),
});
export type ModerationVideo = Static<typeof ModerationVideo>;

export const adminVideosRoute = defineRoute({
  method: 'GET',
  url: '/api/admin/videos',
  access: 'admin',
  schema: {
    summary: 'Every video for moderation, newest first, by status and title or creator text',
    tags: ['admin', 'videos'],
    querystring: Type.Object(
      {
        status: Type.Optional(Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('rejected')])),
        q: Type.Optional(Type.String({ maxLength: 200, description: 'Text in the title, or the creator name or username' })),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MODERATION_PAGE_MAX, default: MODERATION_PAGE_SIZE })),
        cursor: Type.Optional(Type.String({ description: 'next_cursor of the previous page', pattern: '^[A-Za-z0-9_-]{1,200}$' })),
      },
      { additionalProperties: false },
    ),
    response: {
      200: Type.Object({ success: Type.Literal(true), videos: Type.Array(ModerationVideo), next_cursor: Type.Union([Type.String(), Type.Null()]) }),
      ...errorReplies(400, 401, 403),
    },
  },
});

const ModerationReply = Type.Object({ success: Type.Literal(true), video: ModerationVideo });

export const approveVideoRoute = defineRoute({
  method: 'POST',
  url: '/api/admin/videos/:id/approve',
  access: 'admin',
  schema: {
    summary: 'Approves a video: it shows in the feed, its channel and search (409 when already approved)',
    tags: ['admin', 'videos'],
    params: IdParams,
    response: { 200: ModerationReply, ...errorReplies(400, 401, 403, 404, 409) },
  },
});

export const rejectVideoRoute = defineRoute({
  method: 'POST',
  url: '/api/admin/videos/:id/reject',
  access: 'admin',
  schema: {
    summary: 'Rejects a video: hidden from everyone but its owner and admins (409 when already rejected)',
    tags: ['admin', 'videos'],
    params: IdParams,
    response: { 200: ModerationReply, ...errorReplies(400, 401, 403, 404, 409) },
  },
});

export const adminDeleteVideoRoute = defineRoute({
  method: 'DELETE',
  url: '/api/admin/videos/:id',
  access: 'admin',
  schema: {
    summary: 'Deletes a video and its files (orders already placed keep their print files)',
    tags: ['admin', 'videos'],
    params: IdParams,
    response: { 200: Type.Object({ success: Type.Literal(true) }), ...errorReplies(400, 401, 403, 404) },
  },
});
