import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { captureMultipleScreenshotsRoute, captureScreenshotRoute, CAPTURE_FAILED } from '../../../shared/schemas/capture.ts';
import { SERVER_CAPTURE_QUALITY } from '../../../shared/constants.ts';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import { RateLimiter } from '../../platform/http/rate-limit.ts';
import { AppError } from '../../platform/http/errors.ts';
import { CaptureFailed, captureStoredFrames, findCapturableVideo, VideoFileGone, type StoredFrame } from './service.ts';
import { storedVideoKey } from '../../platform/storage/media-urls.ts';

const MAX_CONCURRENT = 2;

const jpegDataUrl = (jpeg: Buffer) => `data:image/jpeg;base64,${jpeg.toString('base64')}`;

function frameReply(shot: StoredFrame, timestamp: number) {
  return { screenshot: jpegDataUrl(shot.preview), frame: jpegDataUrl(shot.frame), width: shot.width, height: shot.height, timestamp };
}

const capture: FastifyPluginAsyncTypebox = async (app) => {
  const perIp = new RateLimiter(app.db, 'capture', 60, 60_000);
  let running = 0;
  const publicHost = new URL(app.config.publicUrl).host;
  const deps = { db: app.db, storage: app.storage, tools: app.mediaTools, tmpDir: app.pendingObjects.tmpDir };

  /**
   * Both routes: only this site's visible videos (the key is looked up, never fetched), every time
   * inside the video, each frame counted against the IP's limit, and at most MAX_CONCURRENT calls
   * running ffmpeg at once. `pastEnd` answers a time after the end of the video.
   */
  async function captureFrames(request: FastifyRequest, reply: FastifyReply, url: string, times: readonly number[], quality: number, pastEnd: (index: number) => AppError) {
    const key = storedVideoKey(url, [publicHost, request.headers.host]);
    if (!key) {
      throw AppError.badRequest('Only videos stored on this site can be captured.');
    }
    const video = await findCapturableVideo(app.db, key);
    if (!video) throw AppError.notFound('Video not found.');
    const late = times.findIndex((time) => !Number.isFinite(time) || time < 0 || (video.duration_ms !== null && time * 1000 > video.duration_ms));
    if (late >= 0) throw pastEnd(late);
    await perIp.takeOrRefuse(request.ip, reply, 'Too many captures. Please wait a minute.', times.length);
    if (running >= MAX_CONCURRENT) throw new AppError(503, ERROR_CODES.SERVICE_UNAVAILABLE, CAPTURE_FAILED);
    running++;
    try {
      return await captureStoredFrames(deps, key, times, quality);
    } catch (err) {
      if (err instanceof CaptureFailed) {
        request.log.warn({ err }, 'server capture failed');
        throw new AppError(422, ERROR_CODES.VALIDATION_FAILED, CAPTURE_FAILED);
      }
      if (err instanceof VideoFileGone) throw AppError.notFound('Video not found.');
      throw err;
    } finally {
      running--;
    }
  }

  app.route({
    ...captureScreenshotRoute,
    handler: async (request, reply) => {
      const { video_url: url, timestamp, quality = SERVER_CAPTURE_QUALITY } = request.body;
      const pastEnd = () => new AppError(422, ERROR_CODES.VALIDATION_FAILED, 'The timestamp is past the end of the video.');
      const [shot] = await captureFrames(request, reply, url, [timestamp], quality, pastEnd);
      return { success: true as const, ...frameReply(shot!, timestamp) };
    },
  });

  app.route({
    ...captureMultipleScreenshotsRoute,
    handler: async (request, reply) => {
      const { video_url: url, timestamps, quality = SERVER_CAPTURE_QUALITY } = request.body;
      const pastEnd = (i: number) => AppError.badRequest(`Timestamp ${i + 1} (${timestamps[i]} s) is past the end of the video.`);
      const shots = await captureFrames(request, reply, url, timestamps, quality, pastEnd);
      return { success: true as const, screenshots: shots.map((shot, i) => frameReply(shot, timestamps[i]!)) };
    },
  });
};

export default capture;
