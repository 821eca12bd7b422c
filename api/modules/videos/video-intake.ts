/**
 * What every new video goes through, however its bytes arrived (a direct multipart upload, or a
 * completed resumable upload): the form's fields, the thumbnail decoded and re-encoded, ffprobe's
 * reading of the container, codecs, duration (by tier) and frame size, an MP4's index moved to
 * the front, and the files stored and the row inserted together. Files are announced before they
 * reach storage and released in the transaction that inserts the row, so nothing is left behind
 * by a refusal, an error or a crash.
 */
import { rm } from 'node:fs/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { videoCategoryBySlug, type VideoCategory } from '../../../shared/categories.ts';
import { ERROR_CODES, type ErrorCode } from '../../../shared/schemas/common.ts';
import { UPLOAD_LIMITS, UPLOAD_MESSAGES, videoLimitMessage } from '../../../shared/schemas/studio.ts';
import type { VideoCard } from '../../../shared/schemas/videos.ts';
import type { DB } from '../../platform/db/schema.ts';
import { AppError } from '../../platform/http/errors.ts';
import { probe, runFfmpeg, type MediaTools } from '../../platform/media/ffmpeg.ts';
import { ImageRejected, ImageTooLarge, MAX_FRAME_PIXELS, reencodeImage } from '../../platform/media/images.ts';
import { mp4MoovFirst } from '../../platform/media/mp4-layout.ts';
import type { VideoContainer } from '../../platform/media/sniff.ts';
import type { ObjectStorage } from '../../platform/storage/object-storage.ts';
import { newKey } from '../../platform/storage/object-storage.ts';
import type { PendingObjects, StoredFile } from '../../platform/storage/pending-objects.ts';
import { toCard } from './feed.ts';
import * as repo from './repository.ts';
import { moderationRequired } from '../settings/index.ts';
import type { Tier } from './service.ts';

export interface UploadDeps {
  db: Kysely<DB>;
  storage: ObjectStorage;
  pending: PendingObjects;
  tools: MediaTools;
  /** The app's clock: the tier whose limits apply is the one in force now. */
  now: () => Date;
}

const VIDEO_CODECS = new Set(['h264', 'vp9', 'av1']);
const AUDIO_CODECS = new Set(['aac', 'mp3', 'opus', 'vorbis', 'flac']);

/**
 * A refusal of the video itself (its bytes: not a video, a codec, its size or length for the
 * tier, its frame size), as opposed to the form around it. A resumable upload refused this way
 * is removed: sending the same bytes again cannot succeed.
 */
export class VideoRefused extends AppError {
  override name = 'VideoRefused';
}

export const videoError = (status: number, code: ErrorCode, reason: string) => new VideoRefused(status, code, UPLOAD_MESSAGES.videoFailed(reason));
export const notAVideo = () => videoError(415, ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, 'the file is not an MP4 or WebM video');
/** Over the tier's size limit, in the one wording (see videoLimitMessage). */
export const videoTooLarge = (tier: Tier) => new VideoRefused(413, ERROR_CODES.PAYLOAD_TOO_LARGE, videoLimitMessage(tier, 'size'));
const thumbnailError = (status: number) =>
  new AppError(status, status === 413 ? ERROR_CODES.PAYLOAD_TOO_LARGE : ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, UPLOAD_MESSAGES.thumbnailFailed);

export interface VideoForm {
  title: string;
  description: string;
  category: VideoCategory | undefined;
}

/** The form's text fields, checked (400 with the spec's messages). */
export function checkForm(fields: Record<string, string>): VideoForm {
  const title = (fields.title ?? '').trim();
  const description = (fields.description ?? '').trim();
  const categorySlug = (fields.category ?? '').trim();
  if (!title) throw AppError.badRequest(UPLOAD_MESSAGES.titleRequired);
  if (title.length > 200) throw AppError.badRequest('The title can be at most 200 characters.');
  if (!description) throw AppError.badRequest(UPLOAD_MESSAGES.descriptionRequired);
  if (description.length > 5000) throw AppError.badRequest('The description can be at most 5000 characters.');
  const category = categorySlug ? videoCategoryBySlug(categorySlug) : undefined;
  if (categorySlug && !category) throw AppError.badRequest(`Unknown category "${categorySlug}".`);
  return { title, description, category };
}

/** The thumbnail part as read: its bytes, or that it was over the limit. */
export interface ThumbnailPart {
  thumbnail: Buffer | null;
  thumbnailTooLarge: boolean;
}

export function requireThumbnail(part: ThumbnailPart): Buffer {
  if (part.thumbnailTooLarge) throw thumbnailError(413);
  if (!part.thumbnail) throw AppError.badRequest(UPLOAD_MESSAGES.thumbnailRequired);
  return part.thumbnail;
}

async function prepareThumbnail(data: Buffer) {
  try {
    return await reencodeImage(data, { maxSide: 1920 });
  } catch (err) {
    if (err instanceof ImageRejected) throw thumbnailError(415);
    if (err instanceof ImageTooLarge) throw new AppError(413, ERROR_CODES.PAYLOAD_TOO_LARGE, `${UPLOAD_MESSAGES.thumbnailFailed}: ${err.message}`);
    throw err;
  }
}

async function checkVideo(tools: MediaTools, file: string, container: VideoContainer, tier: Tier) {
  let info;
  try {
    info = await probe(tools.ffprobe, file);
  } catch {
    throw videoError(422, ERROR_CODES.VALIDATION_FAILED, 'the video could not be read');
  }
  const formatOk = container === 'mp4' ? /mp4|mov/.test(info.formatName) : /webm|matroska/.test(info.formatName);
  if (!formatOk) throw notAVideo();
  if (!info.videoCodec || !VIDEO_CODECS.has(info.videoCodec)) {
    throw videoError(415, ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, `the video codec ${info.videoCodec ?? 'is missing'}; browsers play H.264, VP9 or AV1`);
  }
  if (info.audioCodec && !AUDIO_CODECS.has(info.audioCodec)) {
    throw videoError(415, ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, `the audio codec ${info.audioCodec} does not play in browsers`);
  }
  if (!info.durationMs) throw videoError(422, ERROR_CODES.VALIDATION_FAILED, 'the video has no duration');
  // A stream whose frames have no size (a damaged file ffprobe half reads) cannot be played or captured.
  if (!info.width || !info.height || info.width < 1 || info.height < 1) {
    throw videoError(422, ERROR_CODES.VALIDATION_FAILED, 'the video has no frame size');
  }
  // Its frames become screenshots, which are held to the same size as every image a client sends.
  if ((info.width ?? 0) * (info.height ?? 0) > MAX_FRAME_PIXELS) {
    throw videoError(422, ERROR_CODES.VALIDATION_FAILED, `the video is ${info.width} x ${info.height}; at most 3840 x 2160 (either way round) is accepted`);
  }
  if (info.durationMs > UPLOAD_LIMITS[tier].videoSeconds * 1000) {
    throw new VideoRefused(422, ERROR_CODES.VALIDATION_FAILED, videoLimitMessage(tier, 'duration'));
  }
  return info;
}

/**
 * Puts the MP4 index first by copying its streams into a new file; returns the file to store
 * (the given one when nothing had to move). The given file is left for the caller to remove.
 */
async function fastStart(tools: MediaTools, file: string, container: VideoContainer): Promise<string> {
  if (container !== 'mp4' || (await mp4MoovFirst(file)) === true) return file;
  const out = `${file}.faststart.mp4`;
  try {
    await runFfmpeg(tools.ffmpeg, [
      '-protocol_whitelist', 'file', '-i', file,
      '-map', '0:v:0', '-map', '0:a:0?', '-c', 'copy', '-movflags', '+faststart', '-f', 'mp4', '-y', out,
    ]);
  } catch {
    await rm(out, { force: true });
    throw videoError(422, ERROR_CODES.VALIDATION_FAILED, 'the video could not be prepared for streaming');
  }
  return out;
}

export interface IncomingVideo {
  /**
   * A private temporary file of this process (under pending.tmpDir) holding the video; it is
   * moved into storage, and removed with `temps` whatever happens.
   */
  file: string;
  container: VideoContainer;
}

/**
 * Checks the thumbnail and the video, stores both and inserts the row; answers the new video's
 * card. Every temporary file it makes is added to `temps` for the caller to remove.
 */
export async function saveVideo(
  deps: UploadDeps,
  log: FastifyBaseLogger,
  input: { userId: string; tier: Tier; form: VideoForm; thumbnail: Buffer; video: IncomingVideo },
  temps: string[],
): Promise<VideoCard> {
  const { userId, tier, form, video } = input;
  // The thumbnail first: its header is read in a moment, and an image refused from it spares the video's probe.
  const thumb = await prepareThumbnail(input.thumbnail);
  const info = await checkVideo(deps.tools, video.file, video.container, tier);
  const ready = await fastStart(deps.tools, video.file, video.container);
  if (ready !== video.file) {
    temps.push(ready);
    // One copy of a large video on disk at a time.
    await rm(video.file, { force: true });
  }

  const videoKey = newKey(video.container);
  const thumbKey = newKey('jpg');
  const stored: StoredFile[] = [{ bucket: 'videos', key: videoKey }, { bucket: 'thumbnails', key: thumbKey }];
  await deps.pending.announce(stored);
  try {
    let size: number;
    try {
      size = (await deps.storage.putFile('videos', videoKey, ready)).size;
      await deps.storage.put('thumbnails', thumbKey, thumb.data);
    } catch (err) {
      log.error({ err }, 'storing an upload failed');
      throw new AppError(500, ERROR_CODES.INTERNAL, UPLOAD_MESSAGES.videoFailed('the file could not be stored'));
    }

    try {
      const row = await deps.db.transaction().execute(async (trx) => {
        // While moderation is required a new upload waits for an admin's approval, unlisted.
        const status = (await moderationRequired(trx)) ? ('pending' as const) : undefined;
        const inserted = await repo.insertVideo(trx, {
          ...(status ? { verification_status: status } : {}),
          user_id: userId,
          title: form.title,
          description: form.description,
          category: form.category?.slug ?? null,
          category_id: form.category?.id ?? 0,
          video_key: videoKey,
          thumbnail_key: thumbKey,
          poster_key: thumbKey,
          content_type: video.container === 'mp4' ? 'video/mp4' : 'video/webm',
          size_bytes: size,
          duration_ms: info.durationMs,
          width: info.width,
          height: info.height,
        });
        await deps.pending.release(trx, stored);
        return inserted;
      });
      stored.length = 0;
      const owner = await repo.findChannelName(deps.db, userId);
      return toCard({
        id: row.id,
        title: form.title,
        thumbnail_key: thumbKey,
        channel_title: owner.display_name,
        channel_slug: owner.username,
        category: form.category?.slug ?? null,
        category_id: form.category?.id ?? 0,
        view_count: 0,
        duration_ms: info.durationMs,
        created_at: row.created_at,
      });
    } catch (err) {
      log.error({ err }, 'saving an upload failed');
      // The database's own words stay in the log: they name tables and values, not what the user can do.
      throw new AppError(500, ERROR_CODES.INTERNAL, UPLOAD_MESSAGES.databaseError('the video could not be saved. Please try again.'));
    }
  } finally {
    if (stored.length > 0) await deps.pending.discard(stored).catch((err) => log.error({ err }, 'cleaning up an upload failed'));
  }
}
