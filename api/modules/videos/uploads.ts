/**
 * Video uploads, the two ways they arrive. A direct upload is read part by part; the video streams
 * to a private temporary file (never whole in memory) while its first bytes and its size are
 * checked. A resumable upload's bytes arrived earlier through tus (resumable.routes.ts); its
 * finish reads the form, and the completed upload stands in for the video part. Either way the
 * video then goes through the same checks, storage and insert (video-intake.ts).
 *
 * A refused finish keeps the upload when only the form was wrong (a missing title, a bad
 * thumbnail, or a server failure), so the creator retries without sending gigabytes again; it
 * removes the upload when the video itself is refused (not a video, codec, size or length over
 * the tier, frame size), since the same bytes cannot succeed. A saved video removes its upload.
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
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import { RESUMABLE_MESSAGES, UPLOAD_LIMITS, UPLOAD_MESSAGES } from '../../../shared/schemas/studio.ts';
import type { VideoCard } from '../../../shared/schemas/videos.ts';
import { AppError } from '../../platform/http/errors.ts';
import { multipartFault, multipartParts } from '../../platform/http/multipart.ts';
import { hasNul, nulInText } from '../../platform/http/text-input.ts';
import { SNIFF_BYTES, sniffVideo, type VideoContainer } from '../../platform/media/sniff.ts';
import type { ResumableUploads } from './resumable-store.ts';
import { tierOf, type Tier } from './service.ts';
import { checkForm, notAVideo, requireThumbnail, saveVideo, videoError, VideoRefused, videoTooLarge, type UploadDeps } from './video-intake.ts';

export type { UploadDeps } from './video-intake.ts';

/** Counts bytes and checks the first ones while the video streams through to disk. */
function inspector(tier: Tier) {
  const maxBytes = UPLOAD_LIMITS[tier].videoBytes;
  let seen = 0;
  let head = Buffer.alloc(0);
  const state = { container: null as VideoContainer | null, bytes: 0 };
  const stream = new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (head.length < SNIFF_BYTES) {
        head = Buffer.concat([head, chunk]).subarray(0, SNIFF_BYTES);
        if (head.length >= SNIFF_BYTES || seen + chunk.length >= SNIFF_BYTES) {
          state.container = sniffVideo(head);
          if (!state.container) return done(notAVideo());
        }
      }
      seen += chunk.length;
      state.bytes = seen;
      if (seen > maxBytes) return done(videoTooLarge(tier));
      done(null, chunk);
    },
    flush(done) {
      if (!state.container) state.container = sniffVideo(head);
      done(state.container ? null : notAVideo());
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

interface ParsedForm {
  fields: Record<string, string>;
  videoFile: string | null;
  container: VideoContainer | null;
  thumbnail: Buffer | null;
  thumbnailTooLarge: boolean;
}

/**
 * Reads the form: its text fields, the thumbnail (in memory, capped), and, when `video` says
 * where, the video part streamed to a temporary file under the tier's limit (else it is skipped).
 */
async function readForm(request: FastifyRequest, video: { tmpDir: string; tier: Tier } | null, temps: string[]): Promise<ParsedForm> {
  const out: ParsedForm = { fields: {}, videoFile: null, container: null, thumbnail: null, thumbnailTooLarge: false };
  // Without a video to keep, a stray video part is read and dropped up to the smallest video limit.
  const fileSize = UPLOAD_LIMITS[video?.tier ?? 'free'].videoBytes;
  const parts = multipartParts(request, { fileSize: fileSize + 1, files: 2, fields: 10, fieldSize: 10_000, parts: 12 });
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
    if (video && file.fieldname === 'video' && !out.videoFile) {
      // The name the client gave is never used: the temporary file has a name of our own.
      const target = path.join(video.tmpDir, `${randomUUID()}.upload`);
      out.videoFile = target;
      temps.push(target);
      const { stream, state } = inspector(video.tier);
      const sink = createWriteStream(target, { flags: 'wx', highWaterMark: 1024 * 1024 });
      try {
        await pipeline(file.file, stream, sink);
      } catch (err) {
        // The file may still be opening when the pipeline fails: wait until it is closed, so the
        // cleanup that follows removes it rather than racing its creation.
        if (!sink.closed) await once(sink, 'close').catch(() => undefined);
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw videoTooLarge(video.tier);
        throw multipartFault(err) ?? err;
      }
      if (file.file.truncated) throw videoTooLarge(video.tier);
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

/** POST /api/videos: the video in the request itself. */
export async function uploadVideo(deps: UploadDeps, request: FastifyRequest, userId: string): Promise<VideoCard> {
  if (!request.isMultipart()) {
    throw videoError(415, ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, 'the request must be multipart/form-data');
  }
  const tier = await tierOf(deps.db, userId, deps.now());
  const temps: string[] = [];
  try {
    const parsed = await readForm(request, { tmpDir: deps.pending.tmpDir, tier }, temps);
    const form = checkForm(parsed.fields);
    if (!parsed.videoFile || !parsed.container) throw AppError.badRequest(UPLOAD_MESSAGES.videoRequired);
    const thumbnail = requireThumbnail(parsed);
    return await saveVideo(deps, request.log, { userId, tier, form, thumbnail, video: { file: parsed.videoFile, container: parsed.container } }, temps);
  } finally {
    for (const t of temps) await rm(t, { force: true });
  }
}

/** POST /api/videos/resumable: the video is the caller's completed upload named by upload_id. */
export async function finishResumableUpload(deps: UploadDeps & { uploads: ResumableUploads }, request: FastifyRequest, userId: string): Promise<VideoCard> {
  if (!request.isMultipart()) throw new AppError(415, ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, 'The request must be multipart/form-data.');
  const temps: string[] = [];
  try {
    const parsed = await readForm(request, null, temps);
    const id = (parsed.fields.upload_id ?? '').trim();
    if (!id) throw AppError.badRequest('Please give the upload_id of a completed upload.');
    const upload = await deps.uploads.findOwn(id, userId);
    if (!upload) throw AppError.notFound(RESUMABLE_MESSAGES.notFound);
    const release = await deps.uploads.claim(id);
    if (!release) throw new AppError(409, ERROR_CODES.CONFLICT, RESUMABLE_MESSAGES.busy);
    try {
      if (upload.size === null || upload.offset < upload.size) throw new AppError(409, ERROR_CODES.CONFLICT, RESUMABLE_MESSAGES.incomplete);
      const form = checkForm(parsed.fields);
      const thumbnail = requireThumbnail(parsed);
      const tier = await tierOf(deps.db, userId, deps.now());
      // Held to the tier in force now (a Pro creator whose plan ended since is held to Free's limit).
      if (upload.size > UPLOAD_LIMITS[tier].videoBytes) throw videoTooLarge(tier);
      const container = await deps.uploads.containerOf(id);
      if (!container) throw notAVideo();
      const file = await deps.uploads.linkInto(id, deps.pending.tmpDir);
      temps.push(file);
      const video = await saveVideo(deps, request.log, { userId, tier, form, thumbnail, video: { file, container } }, temps);
      await deps.uploads.remove(id);
      return video;
    } catch (err) {
      if (err instanceof VideoRefused) await deps.uploads.remove(id);
      throw err;
    } finally {
      await release();
    }
  } finally {
    for (const t of temps) await rm(t, { force: true });
  }
}
