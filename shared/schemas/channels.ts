/** Public channel, search and profile reads, and counting a view. */
import { Type, type Static } from 'typebox';
import { errorReplies, Timestamp, Uuid } from './common.ts';
import { defineRoute } from './route.ts';
import { VideoCard } from './videos.ts';

export const CHANNEL_MESSAGES = {
  noVideos: 'No videos found for this channel',
  channelFailed: 'Failed to load channel',
  channelVideosFailed: 'Failed to load channel videos',
  userNotFound: 'User not found',
  searchTooShort: 'Please enter at least 2 characters to search',
} as const;

export const SEARCH_MIN_LENGTH = 2;

/** Spec: the public profile read exposes exactly these fields. */
export const PublicProfile = Type.Object(
  {
    id: Uuid,
    display_name: Type.String(),
    profile_image_url: Type.Union([Type.String(), Type.Null()]),
    cover_image_url: Type.Union([Type.String(), Type.Null()]),
    bio: Type.String(),
    created_at: Timestamp,
  },
  { additionalProperties: false },
);
export type PublicProfile = Static<typeof PublicProfile>;

const SlugParams = Type.Object({ slug: Type.String({ minLength: 1, maxLength: 60 }) }, { additionalProperties: false });

export const channelRoute = defineRoute({
  method: 'GET',
  url: '/api/channels/:slug',
  access: 'public',
  schema: {
    summary: "A channel: its creator's public profile and visible videos, newest first",
    tags: ['creators'],
    params: SlugParams,
    response: {
      200: Type.Object({
        success: Type.Literal(true),
        channel: Type.Intersect([PublicProfile, Type.Object({ username: Type.String() })]),
        videos: Type.Array(VideoCard),
      }),
      ...errorReplies(400, 404),
    },
  },
});

export const profileRoute = defineRoute({
  method: 'GET',
  url: '/api/profiles/:slug',
  access: 'public',
  schema: {
    summary: 'A public creator profile (only the public fields) with its video grid',
    tags: ['creators'],
    params: SlugParams,
    response: {
      200: Type.Object({ success: Type.Literal(true), profile: PublicProfile, videos: Type.Array(VideoCard) }),
      ...errorReplies(400, 404),
    },
  },
});

export const ChannelMatch = Type.Object({
  username: Type.String(),
  display_name: Type.String(),
  profile_image_url: Type.Union([Type.String(), Type.Null()]),
  video_count: Type.Integer({ minimum: 0 }),
});

export const searchChannelsRoute = defineRoute({
  method: 'GET',
  url: '/api/search/channels',
  access: 'public',
  schema: {
    summary: 'Channels whose slug or name matches the text, best match first',
    tags: ['creators'],
    querystring: Type.Object({ q: Type.String({ maxLength: 100 }) }, { additionalProperties: false }),
    response: { 200: Type.Object({ success: Type.Literal(true), channels: Type.Array(ChannelMatch) }), ...errorReplies(400) },
  },
});

export const recordViewRoute = defineRoute({
  method: 'POST',
  url: '/api/videos/:id/views',
  access: 'public',
  schema: {
    summary: "Counts a view, once per viewer session (a session cookie names the viewer)",
    tags: ['videos'],
    params: Type.Object({ id: Uuid }, { additionalProperties: false }),
    response: {
      200: Type.Object({ success: Type.Literal(true), counted: Type.Boolean(), view_count: Type.Integer({ minimum: 0 }) }),
      ...errorReplies(400, 404),
    },
  },
});
