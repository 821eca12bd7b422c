import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import fp from 'fastify-plugin';
import { videoInfoRoute } from '../../../shared/schemas/studio.ts';
import { feedRoute, videoRoute } from '../../../shared/schemas/videos.ts';
import { AppError } from '../../platform/http/errors.ts';
import { feedPage, toCard } from './feed.ts';
import { findVideoForInfo, findVideoForViewer, frameFileAccess, videoFileAccess } from './service.ts';
import moderation from './moderation.routes.ts';
import resumableUploads from './resumable.routes.ts';
import studio from './studio.routes.ts';
import { mediaUrl, storedVideoKey } from '../../platform/storage/media-urls.ts';
import { CACHE_NAMESPACES } from '../../platform/cache/read-cache.ts';

const videos: FastifyPluginAsyncTypebox = async (app) => {
  const publicHost = new URL(app.config.publicUrl).host;
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
      // Pending and rejected videos: their owner and admins only; anyone else is told there is none.
      const row = await findVideoForViewer(app.db, id, request.user);
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
      let ref: { id: string } | { key: string } | null = id ? { id } : null;
      if (!ref && url) {
        // Only this site's own media: a path, or an absolute URL on this site's host. The key is
        // looked up in the database, never fetched; another host's URL is refused before that.
        const key = storedVideoKey(url, [publicHost, request.headers.host]);
        if (!key) throw AppError.badRequest('video_url must be the URL of a video on this site.');
        ref = { key };
      }
      // A URL whose key no stored video has names no video, like a request naming none.
      const row = ref ? await findVideoForInfo(app.db, ref) : null;
      if (row === null) throw AppError.badRequest('Give the id or the video_url of a video.');
      if (!row) throw AppError.notFound('Video not found.');
      return {
        success: true as const,
        video: {
          id: row.id,
          video_url: mediaUrl('videos', row.video_key),
          content_type: row.content_type,
          size_bytes: row.size_bytes,
          duration_s: row.duration_ms === null ? null : row.duration_ms / 1000,
          width: row.width,
          height: row.height,
        },
      };
    },
  });
};

/**
 * The module's routes: feed and watching, the creator's studio, resumable uploads and the
 * admin's moderation. Not encapsulated, so app.resumableUploads (the uploads' store and its
 * sweep) and app.mediaGate are the app's to use.
 */
const videoModule: FastifyPluginAsyncTypebox = async (app) => {
  // An unlisted video's file is its owner's and the admins' only; a deleted video's frames are
  // nobody's (see platform/http/media-routes.ts).
  app.decorate('mediaGate', (bucket: string, key: string, viewer: () => Promise<{ id: string; is_admin: boolean } | null>) =>
    bucket === 'videos'
      ? videoFileAccess(app.db, key, viewer)
      : bucket === 'screenshots'
        ? frameFileAccess(app.db, key)
        : Promise.resolve('public' as const),
  );
  await app.register(videos);
  await app.register(resumableUploads);
  await app.register(studio);
  await app.register(moderation);
};

export default fp(videoModule, { name: 'videos', dependencies: ['context', 'media'] });
