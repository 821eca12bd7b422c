import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import sharp from 'sharp';
import { captureScreenshotRoute, CAPTURE_FAILED } from '../../../shared/schemas/capture.ts';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import { FailureLimiter } from '../../platform/http/rate-limit.ts';
import { findVisibleVideo } from '../videos/repository.ts';
import { AppError } from '../../platform/http/errors.ts';
import { captureFrame, CaptureFailed } from './frame.ts';
import { probe } from '../../platform/media/ffmpeg.ts';
import { storedVideoKey } from '../../platform/storage/media-urls.ts';

const MAX_CONCURRENT = 2;

const capture: FastifyPluginAsyncTypebox = async (app) => {
  const perIp = new FailureLimiter(60, 60_000);
  let running = 0;
  const publicHost = new URL(app.config.publicUrl).host;

  app.route({
    ...captureScreenshotRoute,
    handler: async (request) => {
      const { video_url: url, timestamp, quality = 85 } = request.body;
      // Only this site's video URLs: the key is looked up, never fetched.
      const key = storedVideoKey(url, [publicHost, request.headers.host]);
      if (!key) {
        throw AppError.badRequest('Only videos stored on this site can be captured.');
      }
      const row = await app.db.selectFrom('videos').select('id').where('video_key', '=', key).executeTakeFirst();
      const video = row ? await findVisibleVideo(app.db, row.id) : undefined;
      if (!video) throw AppError.notFound('Video not found.');
      if (video.duration_ms !== null && timestamp * 1000 > video.duration_ms) {
        throw new AppError(422, ERROR_CODES.VALIDATION_FAILED, 'The timestamp is past the end of the video.');
      }
      if (perIp.blocked(request.ip)) throw new AppError(429, ERROR_CODES.RATE_LIMITED, 'Too many captures. Please wait a minute.');
      perIp.fail(request.ip);
      if (running >= MAX_CONCURRENT) throw new AppError(503, ERROR_CODES.SERVICE_UNAVAILABLE, CAPTURE_FAILED);
      running++;
      let temp: string | null = null;
      try {
        let file = app.storage.localPath('videos', key);
        if (!file) {
          temp = path.join(app.pendingObjects.tmpDir, `${randomUUID()}.capture`);
          await pipeline(await app.storage.read('videos', key), createWriteStream(temp));
          file = temp;
        }
        const info = await probe(app.mediaTools.ffprobe, file);
        const jpeg = await captureFrame({ ffmpeg: app.mediaTools.ffmpeg, file, time: timestamp, quality, info });
        const meta = await sharp(jpeg).metadata();
        return {
          success: true as const,
          screenshot: `data:image/jpeg;base64,${jpeg.toString('base64')}`,
          width: meta.width ?? 0,
          height: meta.height ?? 0,
          timestamp,
        };
      } catch (err) {
        if (err instanceof CaptureFailed) {
          request.log.warn({ err }, 'server capture failed');
          throw new AppError(422, ERROR_CODES.VALIDATION_FAILED, CAPTURE_FAILED);
        }
        throw err;
      } finally {
        running--;
        if (temp) await rm(temp, { force: true });
      }
    },
  });
};

export default capture;
