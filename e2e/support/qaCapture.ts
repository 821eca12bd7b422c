/** Driving the video page's capture for the frame-accuracy spec: seeking to a frame, and reading a slot's JPEG. */
import { expect, type Page } from '@playwright/test';

export const screenshotImages = (page: Page) => page.getByRole('list', { name: 'Screenshots' }).getByRole('img');
export const selectScreenshotButton = (page: Page) => page.getByRole('button', { name: 'Select Screenshot', exact: true });

/**
 * Pauses the player and seeks it to `seconds`; resolves with the media time of the frame on screen
 * once the seek is done and a frame whose display interval holds that time is on screen. The
 * interval is [mediaTime, mediaTime + 1/fps), or, given the clip's own frame times (for a clip
 * whose frames last unevenly), [mediaTime, the next of those times).
 */
export async function seekToFrame(page: Page, seconds: number, fps: number, frameTimes?: number[]): Promise<number> {
  const video = page.locator('video');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { message: 'the video loads' }).toBeGreaterThanOrEqual(2);
  return video.evaluate(
    async (v: HTMLVideoElement, { t, frame, times }) => {
      v.pause();
      const holds = (mediaTime: number) => {
        const next = times ? (times.find((s) => s > mediaTime + 0.0005) ?? Infinity) : mediaTime + frame;
        return mediaTime <= t && t < next;
      };
      // The new frame may be presented before or after 'seeked' fires: wait for both.
      const presented = new Promise<number>((resolve) => {
        const onFrame: VideoFrameRequestCallback = (_now, meta) => {
          if (holds(meta.mediaTime)) resolve(meta.mediaTime);
          else v.requestVideoFrameCallback(onFrame);
        };
        v.requestVideoFrameCallback(onFrame);
      });
      const seeked = new Promise((resolve) => v.addEventListener('seeked', resolve, { once: true }));
      v.currentTime = t;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no frame presented for ${t} s`)), 10_000)));
      try {
        const [mediaTime] = await Promise.race([Promise.all([presented, seeked]), late]);
        return mediaTime;
      } finally {
        clearTimeout(timer);
      }
    },
    { t: seconds, frame: 1 / fps, times: frameTimes ?? null },
  );
}

export interface StoredScreenshot {
  /** The full-resolution image the record keeps (what Make Merch sends and the crop tools cut). */
  jpeg: Buffer;
  width: number;
  height: number;
  /** SHA-256 of the image bytes. */
  digest: string;
  source: string;
  timestamp: number | null;
  /** The pixel size of the small preview kept beside it for the slot, if any. */
  preview: { width: number; height: number } | null;
  /** That preview's JPEG. */
  previewJpeg: Buffer | null;
}

/**
 * Screenshot `number` (1-based) as the pending merch record keeps it in IndexedDB, waiting until
 * the record holds it: a capture's slot shows a small preview at once, and its full-resolution
 * JPEG is stored right after. The database is only read, never created.
 */
export async function storedScreenshot(page: Page, number: number): Promise<StoredScreenshot> {
  const found = await page.evaluate(async (n) => {
    const read = async () => {
      const dbs = await indexedDB.databases();
      if (!dbs.some((d) => d.name === 'framemerch-pending-merch')) return null;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open('framemerch-pending-merch');
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      try {
        if (!db.objectStoreNames.contains('records')) return null;
        return await new Promise<unknown>((resolve, reject) => {
          const get = db.transaction('records').objectStore('records').get('current');
          get.onsuccess = () => resolve(get.result);
          get.onerror = () => reject(get.error);
        });
      } finally {
        db.close();
      }
    };
    type Shot = { blob: Blob; preview?: Blob; source: string; timestamp: number | null };
    for (const until = Date.now() + 15_000; Date.now() < until; await new Promise((r) => setTimeout(r, 50))) {
      const record = (await read()) as { screenshots?: Shot[] } | null;
      const shot = record?.screenshots?.[n - 1];
      if (!shot) continue;
      const bytes = new Uint8Array(await shot.blob.arrayBuffer());
      const bitmap = await createImageBitmap(shot.blob);
      const previewBitmap = shot.preview ? await createImageBitmap(shot.preview) : null;
      const digest = Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)), (b) => b.toString(16).padStart(2, '0')).join('');
      let bin = '';
      for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      let previewBin = '';
      if (shot.preview) {
        const previewBytes = new Uint8Array(await shot.preview.arrayBuffer());
        for (let i = 0; i < previewBytes.length; i += 0x8000) previewBin += String.fromCharCode(...previewBytes.subarray(i, i + 0x8000));
      }
      const out = {
        b64: btoa(bin),
        previewB64: shot.preview ? btoa(previewBin) : null,
        width: bitmap.width,
        height: bitmap.height,
        digest,
        source: shot.source,
        timestamp: shot.timestamp,
        preview: previewBitmap ? { width: previewBitmap.width, height: previewBitmap.height } : null,
      };
      bitmap.close();
      previewBitmap?.close();
      return out;
    }
    return null;
  }, number);
  if (!found) throw new Error(`The stored pending merch has no screenshot ${number}`);
  const { b64, previewB64, ...rest } = found;
  return { jpeg: Buffer.from(b64, 'base64'), previewJpeg: previewB64 === null ? null : Buffer.from(previewB64, 'base64'), ...rest };
}

export interface SlotImage {
  jpeg: Buffer;
  source: string | null;
  timestamp: number;
}

/**
 * Screenshot `number` as the viewer has it: what its slot says (path, media time) and the
 * full-resolution JPEG the record stores for it (the slot itself may show a small preview).
 */
export async function readSlotImage(page: Page, number: number): Promise<SlotImage> {
  const img = page.getByRole('img', { name: `Screenshot ${number}`, exact: true });
  await expect(img).toHaveAttribute('src', /^(blob|data):/);
  const { source, timestamp } = await img.evaluate((el: HTMLImageElement) => ({ source: el.dataset.source ?? null, timestamp: Number(el.dataset.timestamp) }));
  const stored = await storedScreenshot(page, number);
  expect({ source: stored.source, timestamp: stored.timestamp }, 'the stored screenshot is the one in the slot').toEqual({ source, timestamp });
  return { jpeg: stored.jpeg, source, timestamp };
}
