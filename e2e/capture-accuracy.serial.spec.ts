/**
 * Frame accuracy of every capture path, through the real video page: each QA clip (H.264 and
 * VP9, 24 to 60 fps, 720p and 1080p, a rotated phone clip, a variable-frame-rate clip), uploaded
 * by a new creator, is paused at times inside frame N's display interval (from the clip's own
 * frame times, as ffprobe reads them: the centre of a frame, just after it starts, just before the
 * next one starts), and Select Screenshot must produce frame N itself, from the path the page was
 * told to use (?capture=...): its barcode reads N, the stored full-resolution image has the clip's
 * display size (upright), and it matches ffmpeg's own decode of frame N (at least 40 dB) far
 * better than frames N-1 and N+1 (at least 6 dB more).
 */
import { expect, test } from '@playwright/test';
import { findMediaTools, type MediaTools } from '../api/platform/media/ffmpeg.ts';
import { makeQaClips, QA_CLIPS, VFR_LONG_FRAME, type QaClip } from '../scripts/qa-clips.ts';
import { sameSite } from './support/accounts.ts';
import { signInAsCreator } from './support/creators.ts';
import { readSlotImage, screenshotImages, seekToFrame, selectScreenshotButton, storedScreenshot } from './support/qaCapture.ts';
import sharp from 'sharp';
import { decodeRgba, displaySizeOf, frameIndexOf, frameTimes, psnr, referenceFrame } from '../scripts/qa-frames.ts';
import { uploadQaClip, type UploadedClip } from './support/qaUpload.ts';

/** A frame in every clip that is not a keyframe (keyframes fall every second). */
const FRAME = 37;
/** The stored capture of frame N against ffmpeg's decode of frame N, RGB PSNR (see qa-clips.ts). */
const SAME_FRAME_DB = 40;
/** ...and against frames N-1 and N+1: at most this, and this far below the score against frame N. */
const NEIGHBOUR_DB = 35;
const NEIGHBOUR_MARGIN_DB = 6;
/** How far inside a frame's display interval the times "just after it starts" and "just before the next" lie. */
const EDGE_S = 0.002;
/**
 * The slot's small preview against the full-resolution capture scaled to its size (RGB): both
 * ways of making it (from the frame's YUV planes, or the browser's draw for a rotated clip) come
 * to about 25-27 dB on these frames of sharp edges and text, JPEG at 0.85 and a different filter.
 */
const PREVIEW_DB = 24;
/**
 * Each path captures every request of a clip in turn on one page (each screenshot deleted once
 * checked): a path that keeps memory from one capture for the next (the canvas path's plane
 * buffer, the frame worker's canvas, ffmpeg.wasm's output file and canvas) must give each later
 * frame and none of an earlier one.
 */
const PATHS = [
  { query: '', source: 'canvas' },
  { query: '?capture=wasm', source: 'wasm' },
  { query: '?capture=server', source: 'server' },
] as const;
/** The frame of a later request on a constant-rate clip: in the same second as FRAME, so on the same keyframe's run. */
const LATER_FRAME = FRAME + 5;
/** What only the ffmpeg.wasm step needs: its page-side chunk, the capture worker, ffmpeg.wasm's own worker, the core and its wasm. */
const WASM_PARTS = /\/assets\/(wasmCapture|capture\.worker|worker|ffmpeg-core)-[^/]*\.(js|wasm)$/;

interface FrameRequest {
  frame: number;
  /** The media time the player is paused at: strictly inside the frame's display interval. */
  time: number;
  where: string;
}

/**
 * The times each clip is captured at, from its own frame times: on a constant-rate clip, the
 * centre of FRAME and the end of LATER_FRAME; on the variable-rate clip, a frame just after it
 * starts after a short one, one just before the next starts, the long frame half a second after
 * it started, and the frame after it just after it starts.
 */
function requestsFor(clip: QaClip, times: number[]): FrameRequest[] {
  const after = (n: number): FrameRequest => ({ frame: n, time: times[n]! + EDGE_S, where: `${EDGE_S * 1000} ms after frame ${n} starts` });
  const before = (n: number): FrameRequest => ({ frame: n, time: times[n + 1]! - EDGE_S, where: `${EDGE_S * 1000} ms before frame ${n + 1} starts` });
  if (clip.vfr) return [after(5), before(22), before(VFR_LONG_FRAME), after(VFR_LONG_FRAME + 1)];
  return [{ frame: FRAME, time: (times[FRAME]! + times[FRAME + 1]!) / 2, where: `the centre of frame ${FRAME}` }, before(LATER_FRAME)];
}

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
  // Two page loads and a cold start of ffmpeg.wasm (its 32 MB core compiled).
  test.setTimeout(90_000);
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
  expect(fetched.sort()).toEqual(['capture.worker.js', 'ffmpeg-core.js', 'ffmpeg-core.wasm', 'wasmCapture.js', 'worker.js']);
  expect(elsewhere).toEqual([]);
});

for (const clip of QA_CLIPS) {
  test(`every capture path returns the requested frame itself: ${clip.name}`, async ({ page }) => {
    test.setTimeout(240_000);
    const video = uploaded.find((u) => u.clip.name === clip.name)!;
    const times = await frameTimes(tools.ffprobe, clip);
    const requests = requestsFor(clip, times);
    const references = new Map<number, Buffer>();
    for (const n of new Set(requests.flatMap((r) => [r.frame - 1, r.frame, r.frame + 1]))) {
      references.set(n, (await decodeRgba(await referenceFrame(tools.ffmpeg, clip, n))).data);
    }
    const size = displaySizeOf(clip);
    page.on('console', (m) => m.text().startsWith('Screenshot:') && console.log(`[${clip.name}] ${m.text()}`));

    for (const path of PATHS) {
      await test.step(path.source, async () => {
        await page.goto(video.pagePath + path.query);
        await expect(screenshotImages(page).first()).toHaveAttribute('data-source', 'thumbnail');
        const before = await screenshotImages(page).count();

        for (const [i, request] of requests.entries()) {
          const n = request.frame;
          const label = `${path.source}, frame ${n} at ${request.time.toFixed(4)} s (${request.where})`;
          const mediaTime = await seekToFrame(page, request.time, clip.fps, times);
          expect(mediaTime, `${label}: the player shows frame ${n}, from its own frame times`).toBeCloseTo(times[n]!, 3);

          await selectScreenshotButton(page).click();
          await expect(screenshotImages(page)).toHaveCount(before + 1, { timeout: 60_000 });
          const got = await readSlotImage(page, before + 1);

          expect(got.source, `${label}: the path that made the screenshot`).toBe(path.source);
          expect(got.timestamp, `${label}: the media time of the frame on screen`).toBeCloseTo(mediaTime, 3);
          // The stored full-resolution image, whatever its format (decoded by its own bytes).
          const pixels = await decodeRgba(got.jpeg);
          expect({ width: pixels.width, height: pixels.height }, `${label}: the display size`).toEqual(size);
          expect(await frameIndexOf(got.jpeg, clip), `${label}: the barcode of the captured frame`).toBe(n);
          const [previous, same, next] = [n - 1, n, n + 1].map((k) => psnr(pixels.data, references.get(k)!)) as [number, number, number];
          const scores = `${same.toFixed(1)} dB against frame ${n}, ${previous.toFixed(1)} and ${next.toFixed(1)} against its neighbours`;
          console.log(`[${clip.name}] ${label}: ${scores}`);
          expect(same, `${label}: ${scores}`).toBeGreaterThanOrEqual(SAME_FRAME_DB);
          expect(Math.max(previous, next), `${label}: ${scores}`).toBeLessThanOrEqual(same - NEIGHBOUR_MARGIN_DB);
          expect(Math.max(previous, next), `${label}: ${scores}`).toBeLessThan(NEIGHBOUR_DB);

          if (path.source === 'canvas' && i === 0) {
            // The slot's preview (made from the frame's own YUV planes where the browser allows) is
            // the same picture, colours included: the full image scaled to its size.
            const stored = await storedScreenshot(page, before + 1);
            const preview = await decodeRgba(stored.previewJpeg!);
            const scaled = await decodeRgba(await sharp(got.jpeg).resize(preview.width, preview.height, { fit: 'fill' }).png().toBuffer());
            const previewDb = psnr(preview.data, scaled.data);
            expect(previewDb, `the preview against the full image scaled down: ${previewDb.toFixed(1)} dB`).toBeGreaterThanOrEqual(PREVIEW_DB);
            // The same colours on average: a wrong matrix or range would shift them.
            const means = (data: Buffer) => [0, 1, 2].map((c) => data.reduce((sum, v, k) => (k % 4 === c ? sum + v : sum), 0) / (data.length / 4));
            const [previewMeans, scaledMeans] = [means(preview.data), means(scaled.data)];
            previewMeans.forEach((m, c) => expect(Math.abs(m - scaledMeans[c]!), `mean of channel ${c}: ${m.toFixed(1)} against ${scaledMeans[c]!.toFixed(1)}`).toBeLessThanOrEqual(2));
          }
          // A video keeps six screenshots at most: this one makes room for the next.
          await page.getByRole('button', { name: `Delete screenshot ${before + 1}`, exact: true }).click();
          await expect(screenshotImages(page)).toHaveCount(before);
        }
      });
    }
  });
}
