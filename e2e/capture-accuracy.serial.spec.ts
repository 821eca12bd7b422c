/**
 * Frame accuracy of every capture path, through the real video page: each QA clip (H.264 and
 * VP9, 24 to 60 fps, 720p and 1080p, a rotated phone clip), uploaded by a new creator, is paused
 * on the centre of frame N, and Select Screenshot must produce frame N itself, from the path the
 * page was told to use (?capture=...): its barcode reads N, it has the clip's display size
 * (upright), and it matches ffmpeg's own decode of frame N far better than frames N-1 and N+1.
 */
import { expect, test } from '@playwright/test';
import { findMediaTools, type MediaTools } from '../api/platform/media/ffmpeg.ts';
import { makeQaClips, QA_CLIPS } from '../scripts/qa-clips.ts';
import { sameSite } from './support/accounts.ts';
import { signInAsCreator } from './support/creators.ts';
import { readSlotImage, screenshotImages, seekToFrame, selectScreenshotButton, storedScreenshot } from './support/qaCapture.ts';
import sharp from 'sharp';
import { decodeRgba, displaySizeOf, frameIndexOf, psnr, referenceFrame } from '../scripts/qa-frames.ts';
import { uploadQaClip, type UploadedClip } from './support/qaUpload.ts';

/** A frame in every clip that is not a keyframe (keyframes fall every second). */
const FRAME = 37;
/** The capture (JPEG at quality 0.9) of frame N against ffmpeg's decode of frame N, RGB PSNR (see qa-clips.ts). */
const SAME_FRAME_DB = 40;
const NEIGHBOUR_DB = 35;
/**
 * The slot's small preview against the full-resolution capture scaled to its size (RGB): both
 * ways of making it (from the frame's YUV planes, or the browser's draw for a rotated clip) come
 * to about 25-27 dB on these frames of sharp edges and text, JPEG at 0.85 and a different filter.
 */
const PREVIEW_DB = 24;
/**
 * `again`: a path that keeps memory from one capture for the next (the canvas path's plane
 * buffer, the frame worker's canvas, ffmpeg.wasm's output file and canvas) captures a second,
 * later frame after the first, which must be that frame and none of the first.
 */
const PATHS = [
  { query: '', source: 'canvas', again: true },
  { query: '?capture=wasm', source: 'wasm', again: true },
  { query: '?capture=server', source: 'server', again: false },
] as const;
/** The frame the second capture is of: in the same second as FRAME, so on the same keyframe's run. */
const LATER_FRAME = FRAME + 5;
/** What only the ffmpeg.wasm step needs: its page-side chunk, the worker, the core and its wasm. */
const WASM_PARTS = /\/assets\/(wasmCapture|capture\.worker|ffmpeg-core)-[^/]*\.(js|wasm)$/;

// The clips are uploaded once, then one test per clip runs after another in this worker.
test.describe.configure({ mode: 'default' });

let uploaded: UploadedClip[] = [];
let tools: MediaTools;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  await makeQaClips();
  tools = await findMediaTools({ ffmpegPath: process.env.FFMPEG_PATH ?? null, ffprobePath: process.env.FFPROBE_PATH ?? null });
  const page = await browser.newPage();
  await signInAsCreator(page, '/');
  uploaded = [];
  for (const clip of QA_CLIPS) uploaded.push(await uploadQaClip(page.request, clip, sameSite()));
  await page.close();
});

test('the home page and the video page fetch no part of ffmpeg.wasm until the wasm step runs', async ({ page, context }) => {
  const fetched: string[] = [];
  const elsewhere: string[] = [];
  const site = new URL(test.info().project.use.baseURL!).host;
  // Which step made each screenshot, and why an earlier one failed, in the report when this fails.
  page.on('console', (m) => m.text().startsWith('Screenshot:') && console.log(`[lazy wasm] ${m.text()}`));
  context.on('request', (r) => {
    const url = new URL(r.url());
    if (/^https?:$/.test(url.protocol) && url.host !== site) elsewhere.push(r.url());
    if (WASM_PARTS.test(url.pathname)) fetched.push(url.pathname.replace(/^\/assets\//, '').replace(/-[\w-]{8}\.(js|wasm)$/, '.$1'));
  });
  await page.goto('/');
  await expect(page.getByTestId('feed-grid')).toBeVisible();
  const video = uploaded[0]!;
  await page.goto(video.pagePath);
  await expect(screenshotImages(page).first()).toHaveAttribute('data-source', 'thumbnail');
  const before = await screenshotImages(page).count();
  await seekToFrame(page, (FRAME + 0.5) / video.clip.fps, video.clip.fps);
  await selectScreenshotButton(page).click();
  await expect(screenshotImages(page)).toHaveCount(before + 1);
  await expect(screenshotImages(page).last()).toHaveAttribute('data-source', 'canvas');
  // The slot shows a preview at once; the screenshot is kept once its full-resolution image is
  // stored, which must happen before this page is left.
  expect((await readSlotImage(page, before + 1)).source).toBe('canvas');
  expect(fetched, 'nothing of ffmpeg.wasm before its step runs').toEqual([]);

  await page.goto(`${video.pagePath}?capture=wasm`);
  await seekToFrame(page, (FRAME + 0.5) / video.clip.fps, video.clip.fps);
  await selectScreenshotButton(page).click();
  await expect(screenshotImages(page)).toHaveCount(before + 2, { timeout: 60_000 });
  await expect(screenshotImages(page).last()).toHaveAttribute('data-source', 'wasm');
  // The core comes from this site, never from a CDN.
  expect(fetched.sort()).toEqual(['capture.worker.js', 'ffmpeg-core.js', 'ffmpeg-core.wasm', 'wasmCapture.js']);
  expect(elsewhere).toEqual([]);
});

for (const clip of QA_CLIPS) {
  test(`every capture path returns frame ${FRAME} itself: ${clip.name}`, async ({ page }) => {
    test.setTimeout(120_000);
    const video = uploaded.find((u) => u.clip.name === clip.name)!;
    const reference = await Promise.all([FRAME - 1, FRAME, FRAME + 1].map(async (n) => (await decodeRgba(await referenceFrame(tools.ffmpeg, clip, n))).data));
    const size = displaySizeOf(clip);
    page.on('console', (m) => m.text().startsWith('Screenshot:') && console.log(`[${clip.name}] ${m.text()}`));

    for (const path of PATHS) {
      await test.step(path.source, async () => {
        await page.goto(video.pagePath + path.query);
        await expect(screenshotImages(page).first()).toHaveAttribute('data-source', 'thumbnail');
        const before = await screenshotImages(page).count();
        const mediaTime = await seekToFrame(page, (FRAME + 0.5) / clip.fps, clip.fps);

        await selectScreenshotButton(page).click();
        await expect(screenshotImages(page)).toHaveCount(before + 1, { timeout: 60_000 });
        const got = await readSlotImage(page, before + 1);

        expect(got.source, 'the path that made the screenshot').toBe(path.source);
        expect(got.timestamp, 'the media time of the frame on screen').toBeCloseTo(mediaTime, 3);
        const pixels = await decodeRgba(got.jpeg);
        expect({ width: pixels.width, height: pixels.height }).toEqual(size);
        expect(await frameIndexOf(got.jpeg, clip), 'the barcode of the captured frame').toBe(FRAME);
        const [previous, same, next] = reference.map((ref) => psnr(pixels.data, ref)) as [number, number, number];
        const scores = `${same.toFixed(1)} dB against frame ${FRAME}, ${previous.toFixed(1)} and ${next.toFixed(1)} against its neighbours`;
        console.log(`[${clip.name}] ${path.source}: ${scores}`);
        expect(same, scores).toBeGreaterThanOrEqual(SAME_FRAME_DB);
        expect(Math.max(previous, next), scores).toBeLessThan(NEIGHBOUR_DB);

        if (path.source === 'canvas') {
          // The slot's preview (made from the frame's own YUV planes where the browser allows) is
          // the same picture, colours included: the full image scaled to its size.
          const stored = await storedScreenshot(page, before + 1);
          const preview = await decodeRgba(stored.previewJpeg!);
          const scaled = await decodeRgba(await sharp(got.jpeg).resize(preview.width, preview.height, { fit: 'fill' }).png().toBuffer());
          const previewDb = psnr(preview.data, scaled.data);
          expect(previewDb, `the preview against the full image scaled down: ${previewDb.toFixed(1)} dB`).toBeGreaterThanOrEqual(PREVIEW_DB);
          // The same colours on average: a wrong matrix or range would shift them.
          const means = (data: Buffer) => [0, 1, 2].map((c) => data.reduce((sum, v, i) => (i % 4 === c ? sum + v : sum), 0) / (data.length / 4));
          const [previewMeans, scaledMeans] = [means(preview.data), means(scaled.data)];
          previewMeans.forEach((m, c) => expect(Math.abs(m - scaledMeans[c]!), `mean of channel ${c}: ${m.toFixed(1)} against ${scaledMeans[c]!.toFixed(1)}`).toBeLessThanOrEqual(2));
        }

        if (path.again) {
          await seekToFrame(page, (LATER_FRAME + 0.5) / clip.fps, clip.fps);
          await selectScreenshotButton(page).click();
          await expect(screenshotImages(page)).toHaveCount(before + 2, { timeout: 60_000 });
          const later = await readSlotImage(page, before + 2);
          expect(later.source, 'the path that made the second screenshot').toBe(path.source);
          expect(await frameIndexOf(later.jpeg, clip), 'the barcode of the second captured frame').toBe(LATER_FRAME);
        }
      });
    }
  });
}
