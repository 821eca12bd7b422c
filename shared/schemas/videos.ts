import { Type, type Static } from 'typebox';
import { VIDEO_CATEGORY_SLUGS } from '../categories.ts';
import { FEED_PAGE_MAX, FEED_PAGE_SIZE } from '../constants.ts';
import { errorReplies, Timestamp, Uuid } from './common.ts';
import { defineRoute } from './route.ts';

export const VideoCategoryParam = Type.Enum(['all', ...VIDEO_CATEGORY_SLUGS]);

export const VideoCard = Type.Object({
  id: Uuid,
  title: Type.String(),
  thumbnail_url: Type.Union([Type.String(), Type.Null()]),
  channel_title: Type.Union([Type.String(), Type.Null()]),
  channel_slug: Type.Union([Type.String(), Type.Null()]),
  category: Type.Union([Type.String(), Type.Null()]),
  category_id: Type.Integer(),
  view_count: Type.Integer({ minimum: 0 }),
  duration_s: Type.Union([Type.Number(), Type.Null()]),
  created_at: Timestamp,
});
export type VideoCard = Static<typeof VideoCard>;

export const VideoDetail = Type.Intersect([
  VideoCard,
  Type.Object({
    description: Type.String(),
    video_url: Type.Union([Type.String(), Type.Null()]),
    poster_url: Type.Union([Type.String(), Type.Null()]),
    width: Type.Union([Type.Integer(), Type.Null()]),
    height: Type.Union([Type.Integer(), Type.Null()]),
    user_id: Uuid,
    verification_status: Type.String(),
  }),
]);
export type VideoDetail = Static<typeof VideoDetail>;

export const FeedQuery = Type.Object(
  {
    category: Type.Optional(VideoCategoryParam),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: FEED_PAGE_MAX, default: FEED_PAGE_SIZE })),
    before: Type.Optional(
      Type.String({ description: 'Cursor from next_cursor of the previous page', pattern: '^[A-Za-z0-9_-]{1,200}$' }),
    ),
  },
  { additionalProperties: false },
);
export type FeedQuery = Static<typeof FeedQuery>;

export const feedRoute = defineRoute({
  method: 'GET',
  url: '/api/videos',
  access: 'public',
  schema: {
    summary: 'The home feed: visible videos, newest first, optionally of one category',
    tags: ['videos'],
    querystring: FeedQuery,
    response: {
      200: Type.Object({
        success: Type.Literal(true),
        videos: Type.Array(VideoCard),
        next_cursor: Type.Union([Type.String(), Type.Null()]),
      }),
      ...errorReplies(400),
    },
  },
});

export const videoRoute = defineRoute({
  method: 'GET',
  url: '/api/videos/:id',
  access: 'public',
  schema: {
    summary: 'One visible video with its media URLs',
    tags: ['videos'],
    params: Type.Object({ id: Type.String({ maxLength: 64 }) }, { additionalProperties: false }),
    response: {
      200: Type.Object({ success: Type.Literal(true), video: VideoDetail }),
      ...errorReplies(400, 404),
    },
  },
});
