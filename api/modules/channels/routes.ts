import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CHANNEL_MESSAGES, channelRoute, profileRoute, recordViewRoute, searchChannelsRoute, SEARCH_MIN_LENGTH } from '../../../shared/schemas/channels.ts';
import { findActiveUserBySlug, searchChannels } from '../accounts/repository.ts';
import { findVisibleVideo, listChannelVideos, recordView } from '../videos/repository.ts';
import { AppError } from '../../platform/http/errors.ts';
import { toCard } from '../videos/feed.ts';

const VIEWER_COOKIE = 'fm_viewer';

function publicProfile(u: { id: string; display_name: string; profile_image_url: string | null; cover_image_url: string | null; bio: string; created_at: Date }) {
  return {
    id: u.id,
    display_name: u.display_name,
    profile_image_url: u.profile_image_url,
    cover_image_url: u.cover_image_url,
    bio: u.bio,
    created_at: u.created_at.toISOString(),
  };
}

const channels: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    ...channelRoute,
    handler: async (request) => {
      const user = await findActiveUserBySlug(app.db, request.params.slug);
      if (!user) throw AppError.notFound(CHANNEL_MESSAGES.channelFailed);
      const videos = await listChannelVideos(app.db, user.id);
      return { success: true as const, channel: { ...publicProfile(user), username: user.username }, videos: videos.map(toCard) };
    },
  });

  app.route({
    ...profileRoute,
    handler: async (request) => {
      const user = await findActiveUserBySlug(app.db, request.params.slug);
      if (!user) throw AppError.notFound(CHANNEL_MESSAGES.userNotFound);
      const videos = await listChannelVideos(app.db, user.id);
      return { success: true as const, profile: publicProfile(user), videos: videos.map(toCard) };
    },
  });

  app.route({
    ...searchChannelsRoute,
    handler: async (request) => {
      const q = request.query.q.trim();
      if (q.length < SEARCH_MIN_LENGTH) throw AppError.badRequest(CHANNEL_MESSAGES.searchTooShort);
      return { success: true as const, channels: await searchChannels(app.db, q) };
    },
  });

  app.route({
    ...recordViewRoute,
    handler: async (request, reply) => {
      const video = await findVisibleVideo(app.db, request.params.id);
      if (!video) throw AppError.notFound('Video not found.');
      let viewer = request.cookies[VIEWER_COOKIE];
      if (!viewer || !/^[A-Za-z0-9_-]{32}$/.test(viewer)) {
        viewer = randomBytes(24).toString('base64url');
        // No expiry: the cookie lasts as long as the browser session, which is what a view counts per.
        reply.setCookie(VIEWER_COOKIE, viewer, { path: '/api/videos', httpOnly: true, sameSite: 'lax', secure: app.config.publicUrl.startsWith('https:') });
      }
      const { counted, viewCount } = await recordView(app.db, video.id, viewer);
      return { success: true as const, counted, view_count: viewCount };
    },
  });
};

export default channels;
