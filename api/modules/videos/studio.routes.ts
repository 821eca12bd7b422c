import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { MultipartFile } from '@fastify/multipart';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import {
  deleteVideoRoute,
  myProfileRoute,
  myVideosRoute,
  profileImageRoute,
  updateProfileRoute,
  UPLOAD_LIMITS,
  UPLOAD_MESSAGES,
  uploadVideoRoute,
} from '../../../shared/schemas/studio.ts';
import { findVideoFiles, listOwnVideos } from './repository.ts';
import { AppError } from '../../platform/http/errors.ts';
import { ImageRejected, reencodeImage } from '../../platform/media/images.ts';
import { toCard } from './feed.ts';
import { mediaUrl, storageKeyOf } from '../../platform/storage/media-urls.ts';
import { CACHE_NAMESPACES } from '../../platform/cache/read-cache.ts';
import { tierOf, uploadVideo } from './uploads.ts';
import { newKey } from '../../platform/storage/object-storage.ts';
import type { StoredFile } from '../../platform/storage/pending-objects.ts';

const studio: FastifyPluginAsyncTypebox = async (app) => {
  const deps = { db: app.db, storage: app.storage, pending: app.pendingObjects, tools: app.mediaTools };

  async function ownProfile(userId: string) {
    const u = await app.db
      .selectFrom('users')
      .select(['id', 'username', 'display_name', 'bio', 'profile_image_url', 'cover_image_url', 'created_at'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    return { ...u, created_at: u.created_at.toISOString(), tier: await tierOf(app.db, userId) };
  }

  app.route({
    ...uploadVideoRoute,
    handler: async (request, reply) => {
      const video = await uploadVideo(deps, request, request.user!.id);
      app.readCache.invalidate(CACHE_NAMESPACES.feed);
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
      const actor = request.user!;
      const video = await findVideoFiles(app.db, request.params.id);
      if (!video) throw AppError.notFound('Video not found.');
      if (video.user_id !== actor.id && !actor.is_admin) throw new AppError(403, ERROR_CODES.FORBIDDEN, UPLOAD_MESSAGES.deleteFailed);
      const files: StoredFile[] = [{ bucket: 'videos', key: video.video_key }];
      for (const k of new Set([video.thumbnail_key, video.poster_key])) if (k) files.push({ bucket: 'thumbnails', key: k });
      // The files become pending with the row's deletion, so a crash before they are removed leaves them to the sweep.
      await app.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('videos').where('id', '=', video.id).execute();
        await trx
          .insertInto('pending_objects')
          .values(files.map((f) => ({ ...f, instance_id: app.pendingObjects.instanceId })))
          .onConflict((oc) => oc.doNothing())
          .execute();
      });
      await app.pendingObjects.discard(files);
      app.readCache.invalidate(CACHE_NAMESPACES.feed);
      return { success: true as const };
    },
  });

  app.route({
    ...myProfileRoute,
    handler: async (request) => ({ success: true as const, profile: await ownProfile(request.user!.id) }),
  });

  app.route({
    ...updateProfileRoute,
    handler: async (request) => {
      const { display_name: name, bio } = request.body;
      const changes: { display_name?: string; bio?: string; updated_at: Date } = { updated_at: new Date() };
      if (name !== undefined) {
        if (!name.trim()) throw AppError.badRequest('Please enter a display name.');
        changes.display_name = name.trim();
      }
      if (bio !== undefined) changes.bio = bio.trim();
      await app.db.updateTable('users').set(changes).where('id', '=', request.user!.id).execute();
      app.readCache.invalidate(CACHE_NAMESPACES.feed);
      app.readCache.invalidate(CACHE_NAMESPACES.creators);
      return { success: true as const, profile: await ownProfile(request.user!.id) };
    },
  });

  app.route({
    ...profileImageRoute,
    handler: async (request) => {
      if (!request.isMultipart()) throw new AppError(415, ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, UPLOAD_MESSAGES.profileNotImage);
      const userId = request.user!.id;
      let data: Buffer | null = null;
      for await (const part of request.parts({ limits: { fileSize: UPLOAD_LIMITS.profileImageBytes + 1, files: 1, fields: 2 } })) {
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
          throw err;
        }
      }
      if (!data) throw AppError.badRequest(UPLOAD_MESSAGES.noFile);
      if (data.length > UPLOAD_LIMITS.profileImageBytes) throw new AppError(413, ERROR_CODES.PAYLOAD_TOO_LARGE, UPLOAD_MESSAGES.profileTooLarge);
      let image;
      try {
        image = await reencodeImage(data, { maxSide: request.params.kind === 'avatar' ? 1024 : 3000 });
      } catch (err) {
        if (err instanceof ImageRejected) throw new AppError(415, ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, UPLOAD_MESSAGES.profileNotImage);
        throw err;
      }
      const column = request.params.kind === 'avatar' ? 'profile_image_url' : 'cover_image_url';
      const file: StoredFile = { bucket: 'profile-images', key: newKey('jpg') };
      await app.pendingObjects.announce([file]);
      let replaced: StoredFile | null = null;
      try {
        await app.storage.put(file.bucket, file.key, image.data);
        await app.db.transaction().execute(async (trx) => {
          const before = await trx.selectFrom('users').select([column]).where('id', '=', userId).forUpdate().executeTakeFirstOrThrow();
          const oldKey = storageKeyOf('profile-images', (before as Record<string, string | null>)[column]);
          await trx.updateTable('users').set({ [column]: mediaUrl('profile-images', file.key), updated_at: new Date() }).where('id', '=', userId).execute();
          await app.pendingObjects.release(trx, [file]);
          if (oldKey) {
            // The image it replaces becomes pending with this change, and is removed just after.
            replaced = { bucket: 'profile-images', key: oldKey };
            await trx.insertInto('pending_objects').values({ ...replaced, instance_id: app.pendingObjects.instanceId }).onConflict((oc) => oc.doNothing()).execute();
          }
        });
      } catch (err) {
        await app.pendingObjects.discard([file]);
        request.log.error({ err }, 'profile image upload failed');
        throw new AppError(500, ERROR_CODES.INTERNAL, UPLOAD_MESSAGES.profileUploadFailed);
      }
      if (replaced) await app.pendingObjects.discard([replaced]).catch((err) => request.log.warn({ err }, 'old profile image left to the sweep'));
      app.readCache.invalidate(CACHE_NAMESPACES.creators);
      return { success: true as const, profile: await ownProfile(userId) };
    },
  });
};

export default studio;
