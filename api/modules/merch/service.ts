/**
 * Merch products: a video's captured frames, stored as image files and linked to the video (and
 * so to its creator) by id. The names a page sends are never used to find anyone.
 */
import type { Kysely } from 'kysely';
import sharp from 'sharp';
import { PRODUCT_MESSAGES, MAX_SCREENSHOT_BYTES, type MerchProductReply } from '../../../shared/schemas/products.ts';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import type { MerchCategory } from '../../../shared/categories.ts';
import type { DB } from '../../platform/db/schema.ts';
import { findVisibleVideo } from '../videos/index.ts';
import { AppError } from '../../platform/http/errors.ts';
import { ImageRejected, ImageTooLarge, reencodeImage, STORED_FRAME_JPEG } from '../../platform/media/images.ts';
import { SNIFF_BYTES, sniffImage } from '../../platform/media/sniff.ts';
import type { ObjectStorage } from '../../platform/storage/object-storage.ts';
import { newKey } from '../../platform/storage/object-storage.ts';
import type { PendingObjects, StoredFile } from '../../platform/storage/pending-objects.ts';
import { mediaUrl } from '../../platform/storage/media-urls.ts';
import { findMerchProductRow, insertMerchProduct, listScreenshots } from './repository.ts';

export interface MerchDeps {
  db: Kysely<DB>;
  storage: ObjectStorage;
  pending: PendingObjects;
}

export interface CreateMerchInput {
  userId: string;
  videoKey: string;
  screenshots: string[];
  screenshotTimestamp: number | null;
  category: MerchCategory | null;
}

interface PreparedImage {
  data: Buffer;
  width: number;
  height: number;
}


async function prepareScreenshot(dataUrl: string): Promise<PreparedImage> {
  const bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  if (bytes.length > MAX_SCREENSHOT_BYTES) throw new AppError(413, ERROR_CODES.PAYLOAD_TOO_LARGE, PRODUCT_MESSAGES.tooLarge);
  // Bytes that are not the image type the data URL claims (or no image at all) are refused as such: 415.
  const notAnImage = () => new AppError(415, ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, PRODUCT_MESSAGES.notAnImage);
  const claimed = /^data:image\/(png|jpeg|webp);/.exec(dataUrl)?.[1];
  if (!claimed || sniffImage(bytes.subarray(0, SNIFF_BYTES)) !== claimed) throw notAnImage();
  try {
    // Screenshots keep their full resolution and every colour, at a quality that leaves nothing visible for print.
    return await reencodeImage(bytes, STORED_FRAME_JPEG);
  } catch (err) {
    if (err instanceof ImageRejected) throw notAnImage();
    if (err instanceof ImageTooLarge) throw new AppError(413, ERROR_CODES.PAYLOAD_TOO_LARGE, `${PRODUCT_MESSAGES.tooLarge} ${err.message}`);
    throw err;
  }
}

/** Checks and re-encodes everything first, then stores the files and the rows together. */
export async function createMerchProduct(deps: MerchDeps, input: CreateMerchInput): Promise<{ id: string }> {
  const video = await findVisibleVideo(deps.db, { key: input.videoKey });
  if (!video) throw AppError.badRequest(PRODUCT_MESSAGES.unknownVideo);

  // One at a time: six full-resolution decodes at once would hold a lot of memory for one request.
  const shots: PreparedImage[] = [];
  for (const s of input.screenshots) shots.push(await prepareScreenshot(s));

  let thumbnail: PreparedImage | null = null;
  if (video.thumbnail_key) {
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of await deps.storage.read('thumbnails', video.thumbnail_key)) chunks.push(chunk as Buffer);
      const data = Buffer.concat(chunks);
      const meta = await sharp(data).metadata();
      thumbnail = { data, width: meta.width ?? 0, height: meta.height ?? 0 };
    } catch {
      thumbnail = null; // a product without the thumbnail still sells its screenshots
    }
  }
  if (shots.length === 0 && !thumbnail) throw AppError.badRequest('Capture at least one screenshot first.');

  const files: Array<StoredFile & { image: PreparedImage; position: number; kind: 'thumbnail' | 'capture' }> = [];
  if (thumbnail && thumbnail.width > 0) files.push({ bucket: 'screenshots', key: newKey('jpg'), image: thumbnail, position: 0, kind: 'thumbnail' });
  shots.forEach((image, i) => files.push({ bucket: 'screenshots', key: newKey('jpg'), image, position: i + 1, kind: 'capture' }));

  const stored = files.map(({ bucket, key }) => ({ bucket, key }));
  await deps.pending.announce(stored);
  try {
    for (const f of files) await deps.storage.put(f.bucket, f.key, f.image.data);
    return await deps.db.transaction().execute(async (trx) => {
      const id = await insertMerchProduct(
        trx,
        {
          videoId: video.id,
          creatorId: video.user_id,
          createdBy: input.userId,
          category: input.category,
          videoTitle: video.title,
          creatorName: video.channel_title ?? '',
          screenshotTimestampMs: input.screenshotTimestamp === null ? null : Math.round(input.screenshotTimestamp * 1000),
        },
        files.map((f) => ({
          position: f.position,
          kind: f.kind,
          storageKey: f.key,
          contentType: 'image/jpeg',
          width: f.image.width,
          height: f.image.height,
          sizeBytes: f.image.data.length,
        })),
      );
      await deps.pending.release(trx, stored);
      return { id };
    });
  } catch (err) {
    await deps.pending.discard(stored);
    throw err;
  }
}

export async function findMerchProduct(db: Kysely<DB>, id: string): Promise<MerchProductReply | null> {
  const p = await findMerchProductRow(db, id);
  if (!p) return null;
  // The video's file is named only while anyone may watch it (a deleted video takes its products with it).
  const video = p.video_id ? await findVisibleVideo(db, { id: p.video_id }) : undefined;
  const shots = await listScreenshots(db, id);
  const thumb = shots.find((s) => s.kind === 'thumbnail') ?? null;
  const captures = shots.filter((s) => s.kind !== 'thumbnail');
  return {
    id: p.id,
    video_id: p.video_id,
    video_url: video ? mediaUrl('videos', video.video_key) : null,
    video_title: p.video_title,
    creator_name: p.creator_name,
    category: p.category,
    thumbnail_url: thumb ? mediaUrl('screenshots', thumb.storage_key) : null,
    thumbnail_size: thumb ? { width: thumb.width, height: thumb.height } : null,
    screenshots: captures.map((s) => mediaUrl('screenshots', s.storage_key)),
    screenshot_sizes: captures.map((s) => ({ width: s.width, height: s.height })),
    screenshot_timestamp: p.screenshot_timestamp_ms === null ? null : p.screenshot_timestamp_ms / 1000,
    created_at: p.created_at.toISOString(),
  };
}
