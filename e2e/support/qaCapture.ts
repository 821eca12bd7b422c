/** Driving the video page's capture for the frame-accuracy spec: seeking to a frame, and reading a slot's JPEG. */
import { expect, type Page } from '@playwright/test';

export const screenshotImages = (page: Page) => page.getByRole('list', { name: 'Screenshots' }).getByRole('img');
export const selectScreenshotButton = (page: Page) => page.getByRole('button', { name: 'Select Screenshot', exact: true });

/**
 * Pauses the player and seeks it to `seconds`; resolves once the seek is done and a frame whose
 * display interval [mediaTime, mediaTime + 1/fps) holds that time is on screen.
 */
export async function seekToFrame(page: Page, seconds: number, fps: number): Promise<number> {
  const video = page.locator('video');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { message: 'the video loads' }).toBeGreaterThanOrEqual(2);
  return video.evaluate(
    async (v: HTMLVideoElement, { t, frame }) => {
      v.pause();
      // The new frame may be presented before or after 'seeked' fires: wait for both.
      const presented = new Promise<number>((resolve) => {
        const onFrame: VideoFrameRequestCallback = (_now, meta) => {
          if (meta.mediaTime <= t && t < meta.mediaTime + frame) resolve(meta.mediaTime);
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
    { t: seconds, frame: 1 / fps },
  );
}

export interface SlotImage {
  jpeg: Buffer;
  source: string | null;
  timestamp: number;
}

/** The bytes behind a screenshot slot's blob: URL, with what the slot says about them. */
export async function readSlotImage(page: Page, number: number): Promise<SlotImage> {
  const img = page.getByRole('img', { name: `Screenshot ${number}`, exact: true });
  await expect(img).toHaveAttribute('src', /^blob:/);
  const { b64, source, timestamp } = await img.evaluate(async (el: HTMLImageElement) => {
    const bytes = new Uint8Array(await (await fetch(el.src)).arrayBuffer());
    let bin = '';
    for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return { b64: btoa(bin), source: el.dataset.source ?? null, timestamp: Number(el.dataset.timestamp) };
  });
  return { jpeg: Buffer.from(b64, 'base64'), source, timestamp };
}
