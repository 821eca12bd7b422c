import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { MultipartFile } from '@fastify/multipart';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import {
  deleteVideoRoute,
  finishResumableUploadRoute,
  myProfileRoute,
  myVideosRoute,
  profileImageRoute,
  updateProfileRoute,
  UPLOAD_LIMITS,
  UPLOAD_MESSAGES,
  uploadVideoRoute,
} from '../../../shared/schemas/studio.ts';
import { AppError } from '../../platform/http/errors.ts';
import { multipartFault, multipartParts } from '../../platform/http/multipart.ts';
import { toCard } from './feed.ts';
import { ownProfile, replaceProfileImage, updateProfile } from './profile.ts';
import { deleteVideo, listOwnVideos } from './service.ts';
import { CACHE_NAMESPACES } from '../../platform/cache/read-cache.ts';
import { finishResumableUpload, uploadVideo } from './uploads.ts';

const studio: FastifyPluginAsyncTypebox = async (app) => {
  const deps = { db: app.db, storage: app.storage, pending: app.pendingObjects, tools: app.mediaTools, now: () => app.clock.now() };

  app.route({
    ...uploadVideoRoute,
    handler: async (request, reply) => {
      const video = await uploadVideo(deps, request, request.user!.id);
      app.readCache.invalidate(CACHE_NAMESPACES.feed);
      // The sidebar lists only creators with a listed video.
      app.readCache.invalidate(CACHE_NAMESPACES.creators);
      return reply.code(201).send({ success: true as const, video });
    },
  });

  app.route({
    ...finishResumableUploadRoute,
    handler: async (request, reply) => {
      const video = await finishResumableUpload({ ...deps, uploads: app.resumableUploads }, request, request.user!.id);
      app.readCache.invalidate(CACHE_NAMESPACES.feed);
      // The sidebar lists only creators with a listed video.
      app.readCache.invalidate(CACHE_NAMESPACES.creators);
      return reply.code(201).send({ success: true as const, video });
    },
  });

  app.route({
    ...myVideosRoute,
    handler: async (request) => {
      const rows = await listOwnVideos(app.db, request.user!.id);
      return {
        success: true as const,
        videos: rows.map((r) => ({ ...toCard(r), verification_status: r.verification_status, size_bytes: r.size_bytes, width: r.width, height: r.height })),
      };
    },
  });

  app.route({
    ...deleteVideoRoute,
    handler: async (request) => {
      const result = await deleteVideo(deps, request.user!, request.params.id);
      // Someone else's video answers as a missing one: a refusal does not confirm that it exists.
      if (result === 'not-found') throw AppError.notFound('Video not found.');
      app.readCache.invalidate(CACHE_NAMESPACES.feed);
      // The sidebar lists only creators with a listed video.
      app.readCache.invalidate(CACHE_NAMESPACES.creators);
      return { success: true as const };
    },
  });

  app.route({
    ...myProfileRoute,
    handler: async (request) => ({ success: true as const, profile: await ownProfile(app.db, request.user!.id) }),
  });

  app.route({
    ...updateProfileRoute,
    handler: async (request) => {
      await updateProfile(app.db, request.user!.id, request.body);
      app.readCache.invalidate(CACHE_NAMESPACES.feed);
      app.readCache.invalidate(CACHE_NAMESPACES.creators);
      return { success: true as const, profile: await ownProfile(app.db, request.user!.id) };
    },
  });

  app.route({
    ...profileImageRoute,
    handler: async (request) => {
      if (!request.isMultipart()) throw new AppError(415, ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, UPLOAD_MESSAGES.profileNotImage);
      const userId = request.user!.id;
      let data: Buffer | null = null;
      for await (const part of multipartParts(request, { fileSize: UPLOAD_LIMITS.profileImageBytes + 1, files: 1, fields: 2 })) {
        if (part.type !== 'file') continue;
        const file = part as MultipartFile;
        if (file.fieldname !== 'image') {
          file.file.resume();
          continue;
        }
        try {
          data = await file.toBuffer();
        } catch (err) {
          if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
            throw new AppError(413, ERROR_CODES.PAYLOAD_TOO_LARGE, UPLOAD_MESSAGES.profileTooLarge);
          }
          throw multipartFault(err) ?? err;
        }
      }
      if (!data) throw AppError.badRequest(UPLOAD_MESSAGES.noFile);
      if (data.length > UPLOAD_LIMITS.profileImageBytes) throw new AppError(413, ERROR_CODES.PAYLOAD_TOO_LARGE, UPLOAD_MESSAGES.profileTooLarge);
      await replaceProfileImage({ ...deps, log: request.log }, userId, request.params.kind, data);
      app.readCache.invalidate(CACHE_NAMESPACES.creators);
      return { success: true as const, profile: await ownProfile(app.db, userId) };
    },
  });
};

export default studio;
