/**
 * Server capture: the frame of a stored, visible video at a media time, as a JPEG. A storage
 * without local files is first copied to a private temporary file, removed afterwards.
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
import { captureFrame } from './frame.ts';

export { CaptureFailed } from './frame.ts';

export interface CaptureDeps {
  db: Kysely<DB>;
  storage: ObjectStorage;
  tools: MediaTools;
  tmpDir: string;
}

/** The visible video stored under the key, or undefined. */
export function findCapturableVideo(db: Kysely<DB>, key: string) {
  return findVisibleVideo(db, { key });
}

/** Throws CaptureFailed when ffmpeg finds no frame there. */
export async function captureStoredFrame(deps: CaptureDeps, key: string, time: number, quality: number) {
  let temp: string | null = null;
  try {
    let file = deps.storage.localPath('videos', key);
    if (!file) {
      temp = path.join(deps.tmpDir, `${randomUUID()}.capture`);
      await pipeline(await deps.storage.read('videos', key), createWriteStream(temp));
      file = temp;
    }
    const info = await probe(deps.tools.ffprobe, file);
    const jpeg = await captureFrame({ ffmpeg: deps.tools.ffmpeg, file, time, quality, info });
    const meta = await sharp(jpeg).metadata();
    return { jpeg, width: meta.width ?? 0, height: meta.height ?? 0 };
  } finally {
    if (temp) await rm(temp, { force: true });
  }
}
