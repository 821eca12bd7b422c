import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { feedRoute, videoRoute } from '../../shared/schemas/videos.ts';
import { findVisibleVideo } from '../db/repositories/videos.ts';
import { AppError } from '../errors.ts';
import { feedPage, toCard } from '../services/feed.ts';
import { mediaUrl } from '../services/media-urls.ts';
import { CACHE_NAMESPACES } from '../services/read-cache.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const videos: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    ...feedRoute,
    handler: async (request) => {
      const { category = 'all', limit, before = '' } = request.query;
      const key = `${category}|${limit ?? ''}|${before}`;
      const page = await app.readCache.get(CACHE_NAMESPACES.feed, key, () => feedPage(app.db, request.query));
      return { success: true as const, ...page };
    },
  });

  app.route({
    ...videoRoute,
    handler: async (request) => {
      const { id } = request.params;
      const row = UUID.test(id) ? await findVisibleVideo(app.db, id) : undefined;
      if (!row) throw AppError.notFound('Video not found.');
      return {
        success: true as const,
        video: {
          ...toCard(row),
          description: row.description,
          video_url: mediaUrl('videos', row.video_key),
          poster_url: row.poster_key ? mediaUrl('thumbnails', row.poster_key) : null,
          width: row.width,
          height: row.height,
          user_id: row.user_id,
          verification_status: row.verification_status,
        },
      };
    },
  });
};

export default videos;
