import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { captureScreenshotRoute, CAPTURE_FAILED } from '../../../shared/schemas/capture.ts';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import { FailureLimiter } from '../../platform/http/rate-limit.ts';
import { AppError } from '../../platform/http/errors.ts';
import { CaptureFailed, captureStoredFrame, findCapturableVideo } from './service.ts';
import { storedVideoKey } from '../../platform/storage/media-urls.ts';

const MAX_CONCURRENT = 2;

const capture: FastifyPluginAsyncTypebox = async (app) => {
  const perIp = new FailureLimiter(60, 60_000);
  let running = 0;
  const publicHost = new URL(app.config.publicUrl).host;
  const deps = { db: app.db, storage: app.storage, tools: app.mediaTools, tmpDir: app.pendingObjects.tmpDir };

  app.route({
    ...captureScreenshotRoute,
    handler: async (request) => {
      const { video_url: url, timestamp, quality = 85 } = request.body;
      // Only this site's video URLs: the key is looked up, never fetched.
      const key = storedVideoKey(url, [publicHost, request.headers.host]);
      if (!key) {
        throw AppError.badRequest('Only videos stored on this site can be captured.');
      }
      const video = await findCapturableVideo(app.db, key);
      if (!video) throw AppError.notFound('Video not found.');
      if (video.duration_ms !== null && timestamp * 1000 > video.duration_ms) {
        throw new AppError(422, ERROR_CODES.VALIDATION_FAILED, 'The timestamp is past the end of the video.');
      }
      if (perIp.blocked(request.ip)) throw new AppError(429, ERROR_CODES.RATE_LIMITED, 'Too many captures. Please wait a minute.');
      perIp.fail(request.ip);
      if (running >= MAX_CONCURRENT) throw new AppError(503, ERROR_CODES.SERVICE_UNAVAILABLE, CAPTURE_FAILED);
      running++;
      try {
        const { jpeg, width, height } = await captureStoredFrame(deps, key, timestamp, quality);
        return { success: true as const, screenshot: `data:image/jpeg;base64,${jpeg.toString('base64')}`, width, height, timestamp };
      } catch (err) {
        if (err instanceof CaptureFailed) {
          request.log.warn({ err }, 'server capture failed');
          throw new AppError(422, ERROR_CODES.VALIDATION_FAILED, CAPTURE_FAILED);
        }
        throw err;
      } finally {
        running--;
      }
    },
  });
};

export default capture;
