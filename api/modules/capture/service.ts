/**
 * Server capture: the frames of a stored, visible video at media times. Each frame comes back
 * twice: the full-resolution image products and print files are made from (JPEG without chroma
 * subsampling at ffmpeg's finest scale, above 40 dB against ffmpeg's own decode of the frame), and
 * the slot's preview, a JPEG at the requested quality made from it. A storage without local files
 * is first copied to a private temporary file, removed afterwards.
 */
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type { Kysely } from 'kysely';
import sharp from 'sharp';
import type { DB } from '../../platform/db/schema.ts';
import { probe, type MediaTools } from '../../platform/media/ffmpeg.ts';
import type { ObjectStorage } from '../../platform/storage/object-storage.ts';
import { findVisibleVideo } from '../videos/index.ts';
import { CaptureFailed, captureFrame } from './frame.ts';

export { CaptureFailed } from './frame.ts';

/** The quality asked of ffmpeg for the full frame: its finest MJPEG scale (-q:v 2), 4:4:4. */
export const FULL_FRAME_QUALITY = 100;

export interface CaptureDeps {
  db: Kysely<DB>;
  storage: ObjectStorage;
  tools: MediaTools;
  tmpDir: string;
}

export interface StoredFrame {
  /** The full-resolution frame, JPEG 4:4:4. */
  frame: Buffer;
  /** The same frame as a JPEG at the requested quality, for the screenshot slot. */
  preview: Buffer;
  width: number;
  height: number;
}

/** The visible video stored under the key, or undefined. */
export function findCapturableVideo(db: Kysely<DB>, key: string) {
  return findVisibleVideo(db, { key });
}

/** The slot's preview of a full frame: the same pixels as a JPEG at `quality`. */
export async function previewOf(frame: Buffer, quality: number): Promise<{ preview: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(frame).jpeg({ quality }).toBuffer({ resolveWithObject: true });
  return { preview: data, width: info.width, height: info.height };
}

/**
 * The frames at `times`, in order, from one probe of the file (and one copy of it, where the
 * storage has no local files). Throws CaptureFailed when ffmpeg finds no frame at one of them.
 */
export async function captureStoredFrames(deps: CaptureDeps, key: string, times: readonly number[], quality: number): Promise<StoredFrame[]> {
  let temp: string | null = null;
  try {
    let file = deps.storage.localPath('videos', key);
    if (!file) {
      temp = path.join(deps.tmpDir, `${randomUUID()}.capture`);
      await pipeline(await deps.storage.read('videos', key), createWriteStream(temp));
      file = temp;
    }
    const info = await probe(deps.tools.ffprobe, file);
    const frames: StoredFrame[] = [];
    // One ffmpeg at a time: the route's concurrency limit counts calls, not frames.
    for (const time of times) {
      const frame = await captureFrame({ ffmpeg: deps.tools.ffmpeg, ffprobe: deps.tools.ffprobe, file, time, quality: FULL_FRAME_QUALITY, info });
      frames.push({ frame, ...(await previewOf(frame, quality)) });
    }
    return frames;
  } catch (err) {
    // The file is not there (its video deleted while this capture ran, or never stored): the
    // video is gone, not the server broken.
    if (!(err instanceof CaptureFailed) && !(await deps.storage.stat('videos', key).catch(() => null))) throw new VideoFileGone();
    throw err;
  } finally {
    if (temp) await rm(temp, { force: true });
  }
}

/** The video's file is not in storage (any more). */
export class VideoFileGone extends Error {
  override name = 'VideoFileGone';
}

/** The frame at one media time; throws CaptureFailed when ffmpeg finds none there. */
export async function captureStoredFrame(deps: CaptureDeps, key: string, time: number, quality: number): Promise<StoredFrame> {
  const [frame] = await captureStoredFrames(deps, key, [time], quality);
  return frame!;
}
