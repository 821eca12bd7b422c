/**
 * The crop box on the player, kept per video in IndexedDB so a reload of the video page (online
 * or offline) finds the box where it was left. One small record per video, the newest few kept;
 * a failed read or write only costs the memory of the box.
 */
import { createStore, del, entries, get, set } from 'idb-keyval';
import { clampCrop, type CropRect, type Size } from '../../../shared/print.ts';

/** The box as kept: in video pixels, with the video's size it was drawn on. */
export interface SavedCrop {
  rect: CropRect;
  video: Size;
  savedAt: number;
}

/** Boxes of this many videos are kept; older ones are dropped. */
export const SAVED_CROPS = 20;

const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);

/** A stored box for a video of `video`'s size, kept inside it; null when it is not one or was drawn on another size. */
export function restoredCrop(stored: unknown, video: Size): CropRect | null {
  if (typeof stored !== 'object' || stored === null) return null;
  const { rect, video: drawnOn } = stored as Partial<SavedCrop>;
  if (!rect || !drawnOn || ![rect.x, rect.y, rect.width, rect.height, drawnOn.width, drawnOn.height].every(finite)) return null;
  if (drawnOn.width !== video.width || drawnOn.height !== video.height || rect.width <= 0 || rect.height <= 0) return null;
  return clampCrop(rect, video, 1);
}

/** The ids to drop so that only the `keep` newest boxes remain. */
export function cropsToDrop(saved: ReadonlyArray<readonly [string, unknown]>, keep = SAVED_CROPS): string[] {
  const at = (v: unknown) => (typeof v === 'object' && v !== null && finite((v as SavedCrop).savedAt) ? (v as SavedCrop).savedAt : 0);
  return [...saved]
    .sort((a, b) => at(b[1]) - at(a[1]))
    .slice(keep)
    .map(([id]) => id);
}

let store: ReturnType<typeof createStore> | null = null;
const db = () => (store ??= createStore('framemerch-video-crop', 'crops'));

export async function loadCrop(videoId: string, video: Size): Promise<CropRect | null> {
  try {
    return restoredCrop(await get(videoId, db()), video);
  } catch {
    return null;
  }
}

/** Keeps the box (or forgets it, with null). */
export async function saveCrop(videoId: string, rect: CropRect | null, video: Size | null): Promise<void> {
  try {
    if (!rect || !video) {
      await del(videoId, db());
      return;
    }
    await set(videoId, { rect, video, savedAt: Date.now() } satisfies SavedCrop, db());
    const all = (await entries(db())) as Array<[IDBValidKey, unknown]>;
    for (const id of cropsToDrop(all.map(([k, v]) => [String(k), v] as const))) await del(id, db());
  } catch {
    // Private browsing or a full disk: the box still works, it is just not kept.
  }
}
