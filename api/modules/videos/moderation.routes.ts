import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { adminDeleteVideoRoute, adminVideosRoute, approveVideoRoute, MODERATION_MESSAGES, rejectVideoRoute } from '../../../shared/schemas/moderation.ts';
import { CACHE_NAMESPACES } from '../../platform/cache/read-cache.ts';
import { AppError } from '../../platform/http/errors.ts';
import { moderateVideo, moderationPage } from './moderation.ts';
import { deleteVideo } from './service.ts';

/** The admin portal's Content Moderation tab: the list of videos, approve, reject and delete. */
const moderation: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    ...adminVideosRoute,
    handler: async (request) => ({ success: true as const, ...(await moderationPage(app.db, request.query)) }),
  });

  app.route({
    ...approveVideoRoute,
    handler: async (request) => {
      const video = await moderateVideo(app.db, request.user!.id, request.params.id, 'approved');
      app.readCache.invalidate(CACHE_NAMESPACES.feed);
      // The sidebar lists only creators with a listed video.
      app.readCache.invalidate(CACHE_NAMESPACES.creators);
      return { success: true as const, video };
    },
  });

  app.route({
    ...rejectVideoRoute,
    handler: async (request) => {
      const video = await moderateVideo(app.db, request.user!.id, request.params.id, 'rejected');
      app.readCache.invalidate(CACHE_NAMESPACES.feed);
      // The sidebar lists only creators with a listed video.
      app.readCache.invalidate(CACHE_NAMESPACES.creators);
      return { success: true as const, video };
    },
  });

  app.route({
    ...adminDeleteVideoRoute,
    handler: async (request) => {
      const result = await deleteVideo({ db: app.db, pending: app.pendingObjects }, request.user!, request.params.id, { asAdmin: true });
      if (result === 'not-found') throw AppError.notFound(MODERATION_MESSAGES.videoNotFound);
      app.readCache.invalidate(CACHE_NAMESPACES.feed);
      // The sidebar lists only creators with a listed video.
      app.readCache.invalidate(CACHE_NAMESPACES.creators);
      return { success: true as const };
    },
  });
};

export default moderation;
