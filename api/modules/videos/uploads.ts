/**
 * Video uploads: the request is read part by part; the video streams to a private temporary
 * file (never whole in memory) while its first bytes and its size are checked; then ffprobe
 * reads the container, codecs and duration; an MP4 whose index sits after its media is remuxed
 * (no re-encode) so it plays before it has fully arrived; the thumbnail is decoded and re-encoded.
 * Files are announced before they reach storage and released in the transaction that inserts
 * the row, so nothing is left behind by a refusal, an error or a crash.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { MultipartFile, MultipartValue } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { videoCategoryBySlug } from '../../../shared/categories.ts';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import { UPLOAD_LIMITS, UPLOAD_MESSAGES } from '../../../shared/schemas/studio.ts';
import type { VideoCard } from '../../../shared/schemas/videos.ts';
import type { DB } from '../../platform/db/schema.ts';
import { AppError } from '../../platform/http/errors.ts';
import { hasNul, nulInText } from '../../platform/http/text-input.ts';
import { multipartFault, multipartParts } from '../../platform/http/multipart.ts';
import { probe, runFfmpeg, type MediaTools } from '../../platform/media/ffmpeg.ts';
import { ImageRejected, ImageTooLarge, MAX_FRAME_PIXELS, reencodeImage } from '../../platform/media/images.ts';
import { mp4MoovFirst } from '../../platform/media/mp4-layout.ts';
import { SNIFF_BYTES, sniffVideo, type VideoContainer } from '../../platform/media/sniff.ts';
import type { PendingObjects, StoredFile } from '../../platform/storage/pending-objects.ts';
import type { ObjectStorage } from '../../platform/storage/object-storage.ts';
import { newKey } from '../../platform/storage/object-storage.ts';
import { toCard } from './feed.ts';
import * as repo from './repository.ts';
import { tierOf } from './service.ts';

export interface UploadDeps {
  db: Kysely<DB>;
  storage: ObjectStorage;
  pending: PendingObjects;
  tools: MediaTools;
}

const VIDEO_CODECS = new Set(['h264', 'vp9', 'av1']);
const AUDIO_CODECS = new Set(['aac', 'mp3', 'opus', 'vorbis', 'flac']);

export function sizeText(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return mb >= 1024 ? `${mb / 1024}GB` : `${mb}MB`;
}

const videoError = (status: number, code: (typeof ERROR_CODES)[keyof typeof ERROR_CODES], reason: string) =>
  new AppError(status, code, UPLOAD_MESSAGES.videoFailed(reason));
const thumbnailError = (status: number) =>
  new AppError(status, status === 413 ? ERROR_CODES.PAYLOAD_TOO_LARGE : ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, UPLOAD_MESSAGES.thumbnailFailed);

/** Counts bytes and checks the first ones while the video streams through to disk. */
function inspector(maxBytes: number) {
  let seen = 0;
  let head = Buffer.alloc(0);
  const state = { container: null as VideoContainer | null, bytes: 0 };
  const stream = new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (head.length < SNIFF_BYTES) {
        head = Buffer.concat([head, chunk]).subarray(0, SNIFF_BYTES);
        if (head.length >= SNIFF_BYTES || seen + chunk.length >= SNIFF_BYTES) {
          state.container = sniffVideo(head);
          if (!state.container) return done(videoError(415, ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, 'the file is not an MP4 or WebM video'));
        }
      }
      seen += chunk.length;
      state.bytes = seen;
      if (seen > maxBytes) return done(videoError(413, ERROR_CODES.PAYLOAD_TOO_LARGE, `Video file size must be less than ${sizeText(maxBytes)}`));
      done(null, chunk);
    },
    flush(done) {
      if (!state.container) state.container = sniffVideo(head);
      done(state.container ? null : videoError(415, ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, 'the file is not an MP4 or WebM video'));
    },
  });
  return { stream, state };
}

async function readCapped(file: Readable, maxBytes: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of file as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) {
      file.resume();
      return null;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

interface ParsedUpload {
  fields: Record<string, string>;
  videoFile: string | null;
  container: VideoContainer | null;
  thumbnail: Buffer | null;
  thumbnailTooLarge: boolean;
}

async function readParts(request: FastifyRequest, tmpDir: string, limit: number, temps: string[]): Promise<ParsedUpload> {
  const out: ParsedUpload = { fields: {}, videoFile: null, container: null, thumbnail: null, thumbnailTooLarge: false };
  const parts = multipartParts(request, { fileSize: limit + 1, files: 2, fields: 10, fieldSize: 10_000, parts: 12 });
  for await (const part of parts) {
    if (part.type === 'field') {
      const value = (part as MultipartValue).value;
      if (typeof value === 'string') {
        if (hasNul(value) || hasNul(part.fieldname)) throw nulInText();
        out.fields[part.fieldname] = value;
      }
      continue;
    }
    const file = part as MultipartFile;
    if (file.fieldname === 'video' && !out.videoFile) {
      // The name the client gave is never used: the temporary file has a name of our own.
      const target = path.join(tmpDir, `${randomUUID()}.upload`);
      out.videoFile = target;
      temps.push(target);
      const { stream, state } = inspector(limit);
      const sink = createWriteStream(target, { flags: 'wx', highWaterMark: 1024 * 1024 });
      try {
        await pipeline(file.file, stream, sink);
      } catch (err) {
        // The file may still be opening when the pipeline fails: wait until it is closed, so the
        // cleanup that follows removes it rather than racing its creation.
        if (!sink.closed) await once(sink, 'close').catch(() => undefined);
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw videoError(413, ERROR_CODES.PAYLOAD_TOO_LARGE, `Video file size must be less than ${sizeText(limit)}`);
        }
        throw multipartFault(err) ?? err;
      }
      if (file.file.truncated) throw videoError(413, ERROR_CODES.PAYLOAD_TOO_LARGE, `Video file size must be less than ${sizeText(limit)}`);
      out.container = state.container;
    } else if (file.fieldname === 'thumbnail' && !out.thumbnail) {
      const data = await readCapped(file.file, UPLOAD_LIMITS.thumbnailBytes);
      if (!data) out.thumbnailTooLarge = true;
      else out.thumbnail = data;
    } else {
      file.file.resume();
    }
  }
  return out;
}

async function checkVideo(tools: MediaTools, file: string, container: VideoContainer, maxSeconds: number) {
  let info;
  try {
    info = await probe(tools.ffprobe, file);
  } catch {
    throw videoError(422, ERROR_CODES.VALIDATION_FAILED, 'the video could not be read');
  }
  const formatOk = container === 'mp4' ? /mp4|mov/.test(info.formatName) : /webm|matroska/.test(info.formatName);
  if (!formatOk) throw videoError(415, ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, 'the file is not an MP4 or WebM video');
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
  if (info.durationMs > maxSeconds * 1000) {
    throw videoError(422, ERROR_CODES.VALIDATION_FAILED, `Video must be at most ${maxSeconds / 60} minutes long`);
  }
  return info;
}

/** Puts the MP4 index first by copying its streams into a new file; returns the file to store. */
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
  await rm(file, { force: true });
  return out;
}

export async function uploadVideo(deps: UploadDeps, request: FastifyRequest, userId: string): Promise<VideoCard> {
  if (!request.isMultipart()) {
    throw videoError(415, ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, 'the request must be multipart/form-data');
  }
  const tier = await tierOf(deps.db, userId);
  const limits = UPLOAD_LIMITS[tier];
  const temps: string[] = [];
  const stored: StoredFile[] = [];
  try {
    const parsed = await readParts(request, deps.pending.tmpDir, limits.videoBytes, temps);
    const title = (parsed.fields.title ?? '').trim();
    const description = (parsed.fields.description ?? '').trim();
    const categorySlug = (parsed.fields.category ?? '').trim();
    if (!title) throw AppError.badRequest(UPLOAD_MESSAGES.titleRequired);
    if (title.length > 200) throw AppError.badRequest('The title can be at most 200 characters.');
    if (!description) throw AppError.badRequest(UPLOAD_MESSAGES.descriptionRequired);
    if (description.length > 5000) throw AppError.badRequest('The description can be at most 5000 characters.');
    const category = categorySlug ? videoCategoryBySlug(categorySlug) : undefined;
    if (categorySlug && !category) throw AppError.badRequest(`Unknown category "${categorySlug}".`);
    if (!parsed.videoFile || !parsed.container) throw AppError.badRequest(UPLOAD_MESSAGES.videoRequired);
    if (parsed.thumbnailTooLarge) throw thumbnailError(413);
    if (!parsed.thumbnail) throw AppError.badRequest(UPLOAD_MESSAGES.thumbnailRequired);

    // The thumbnail first: its header is read in a moment, and an image refused from it spares the video's probe.
    let thumb;
    try {
      thumb = await reencodeImage(parsed.thumbnail, { maxSide: 1920 });
    } catch (err) {
      if (err instanceof ImageRejected) throw thumbnailError(415);
      if (err instanceof ImageTooLarge) throw new AppError(413, ERROR_CODES.PAYLOAD_TOO_LARGE, `${UPLOAD_MESSAGES.thumbnailFailed}: ${err.message}`);
      throw err;
    }
    const info = await checkVideo(deps.tools, parsed.videoFile, parsed.container, limits.videoSeconds);
    const ready = await fastStart(deps.tools, parsed.videoFile, parsed.container);
    temps.push(ready);

    const videoKey = newKey(parsed.container);
    const thumbKey = newKey('jpg');
    stored.push({ bucket: 'videos', key: videoKey }, { bucket: 'thumbnails', key: thumbKey });
    await deps.pending.announce(stored);
    let size: number;
    try {
      size = (await deps.storage.putFile('videos', videoKey, ready)).size;
      await deps.storage.put('thumbnails', thumbKey, thumb.data);
    } catch (err) {
      request.log.error({ err }, 'storing an upload failed');
      throw videoError(500, ERROR_CODES.INTERNAL, 'the file could not be stored');
    }

    try {
      const row = await deps.db.transaction().execute(async (trx) => {
        const inserted = await repo.insertVideo(trx, {
          user_id: userId,
          title,
          description,
          category: category?.slug ?? null,
          category_id: category?.id ?? 0,
          video_key: videoKey,
          thumbnail_key: thumbKey,
          poster_key: thumbKey,
          content_type: parsed.container === 'mp4' ? 'video/mp4' : 'video/webm',
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
        title,
        thumbnail_key: thumbKey,
        channel_title: owner.display_name,
        channel_slug: owner.username,
        category: category?.slug ?? null,
        category_id: category?.id ?? 0,
        view_count: 0,
        duration_ms: info.durationMs,
        created_at: row.created_at,
      });
    } catch (err) {
      request.log.error({ err }, 'saving an upload failed');
      // The database's own words stay in the log: they name tables and values, not what the user can do.
      throw new AppError(500, ERROR_CODES.INTERNAL, UPLOAD_MESSAGES.databaseError('the video could not be saved. Please try again.'));
    }
  } finally {
    if (stored.length > 0) await deps.pending.discard(stored).catch((err) => request.log.error({ err }, 'cleaning up an upload failed'));
    for (const t of temps) await rm(t, { force: true });
  }
}
