import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { videoInfoRoute } from '../../../shared/schemas/studio.ts';
import { feedRoute, videoRoute } from '../../../shared/schemas/videos.ts';
import { findVisibleVideo } from './repository.ts';
import { AppError } from '../../platform/http/errors.ts';
import { feedPage, toCard } from './feed.ts';
import { mediaUrl } from '../../platform/storage/media-urls.ts';
import { CACHE_NAMESPACES } from '../../platform/cache/read-cache.ts';

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

  app.route({
    ...videoInfoRoute,
    handler: async (request) => {
      const { id, video_url: url } = request.query;
      let videoId = id;
      if (!videoId && url) {
        // Only URLs of videos this server stores; the key is looked up, never fetched.
        const key = /^(?:https?:\/\/[^/]+)?\/media\/videos\/([a-z0-9-]+\/[a-z0-9-]+\.(?:mp4|webm))$/.exec(url)?.[1];
        if (!key) throw AppError.badRequest('video_url must be the URL of a video on this site.');
        videoId = (await app.db.selectFrom('videos').select('id').where('video_key', '=', key).executeTakeFirst())?.id;
      }
      if (!videoId) throw AppError.badRequest('Give the id or the video_url of a video.');
      const row = UUID.test(videoId) ? await findVisibleVideo(app.db, videoId) : undefined;
      if (!row) throw AppError.notFound('Video not found.');
      const stored = await app.db.selectFrom('videos').select(['content_type', 'size_bytes']).where('id', '=', row.id).executeTakeFirstOrThrow();
      return {
        success: true as const,
        video: {
          id: row.id,
          video_url: mediaUrl('videos', row.video_key),
          content_type: stored.content_type,
          size_bytes: stored.size_bytes,
          duration_s: row.duration_ms === null ? null : row.duration_ms / 1000,
          width: row.width,
          height: row.height,
        },
      };
    },
  });
};

export default videos;
