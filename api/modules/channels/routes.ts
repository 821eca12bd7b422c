import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CHANNEL_MESSAGES, channelRoute, profileRoute, recordViewRoute, searchChannelsRoute, SEARCH_MIN_LENGTH } from '../../../shared/schemas/channels.ts';
import { AppError } from '../../platform/http/errors.ts';
import { findVisibleVideo, recordView } from '../videos/index.ts';
import creators from './creators.routes.ts';
import { channelPage, searchChannels } from './service.ts';

const VIEWER_COOKIE = 'fm_viewer';

const channels: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    ...channelRoute,
    handler: async (request) => {
      const page = await channelPage(app.db, request.params.slug);
      if (!page) throw AppError.notFound(CHANNEL_MESSAGES.channelFailed);
      return { success: true as const, channel: { ...page.profile, username: page.username }, videos: page.videos };
    },
  });

  app.route({
    ...profileRoute,
    handler: async (request) => {
      const page = await channelPage(app.db, request.params.slug);
      if (!page) throw AppError.notFound(CHANNEL_MESSAGES.userNotFound);
      return { success: true as const, profile: page.profile, videos: page.videos };
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
      const video = await findVisibleVideo(app.db, { id: request.params.id });
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

/** The module's routes: channel pages, search and views, and the newest creators. */
const channelModule: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(channels);
  await app.register(creators);
};

export default channelModule;
