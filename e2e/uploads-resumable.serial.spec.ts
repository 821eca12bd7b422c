/**
 * Large uploads (above RESUMABLE_UPLOAD.thresholdBytes) go up resumably. A real 150 MB video,
 * made once with ffmpeg: a Free creator is refused before any byte is sent, with the limit named
 * and the way to Pro, and the server refuses the same size itself; a Pro creator uploads it
 * while the connection drops once and the page is reloaded once, and the upload carries on each
 * time instead of starting over, then the video is stored, listed and plays.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { expect, test, type Page, type Request, type Route } from '@playwright/test';
import type { ReplyOf } from '../shared/schemas/route.ts';
import { RESUMABLE_UPLOAD, UPLOAD_LIMITS, UPLOAD_STAGES, type myVideosRoute, type videoInfoRoute } from '../shared/schemas/studio.ts';
import { signInAsCreator } from './support/creators.ts';
import { subscribePro } from './support/subscriptions.ts';

type MyVideosReply = ReplyOf<typeof myVideosRoute>;
type VideoInfoReply = ReplyOf<typeof videoInfoRoute>;

const MiB = 1024 * 1024;
/** Just above 150 MB, over the Free limit and the resumable threshold, far under Pro's. */
const VIDEO_MIN = 150 * MiB;
const VIDEO_MAX = 165 * MiB;
const VIDEO = path.join(os.tmpdir(), 'framemerch-e2e-noise-150mb.mp4');
const THUMBNAIL = path.join(os.tmpdir(), 'framemerch-e2e-resumable-thumbnail.jpg');
const UPGRADE = 'Upgrade to Pro for videos up to 2GB and 60 minutes';

const signInPrompt = (page: Page) => page.getByRole('main').getByRole('button', { name: 'Sign In', exact: true });
const progressBar = (page: Page) => page.getByRole('progressbar', { name: 'Upload progress' });
const isTus = (url: string) => new URL(url).pathname.startsWith(RESUMABLE_UPLOAD.endpoint);
const origin = (page: Page) => new URL(page.url()).origin;

/**
 * Lossless x264 of noise: about 12.8 MB a second at 640x360, so a dozen seconds make 150 MB.
 * Made once and kept under the system's temporary folder between runs.
 */
function makeBigVideo(): void {
  const fits = (file: string) => existsSync(file) && statSync(file).size > VIDEO_MIN && statSync(file).size < VIDEO_MAX;
  if (fits(VIDEO)) return;
  const ffmpeg = process.env.FFMPEG_PATH ?? 'ffmpeg';
  const partial = `${VIDEO}.${process.pid}.part.mp4`;
  let seconds = 12.5;
  for (let attempt = 0; attempt < 4; attempt++) {
    execFileSync(ffmpeg, [
      '-v', 'error', '-y',
      '-f', 'lavfi', '-i', 'color=c=gray:s=640x360:r=30,noise=alls=100:allf=t+u',
      '-t', seconds.toFixed(2),
      '-c:v', 'libx264', '-preset', 'ultrafast', '-qp', '0', '-pix_fmt', 'yuv420p', '-movflags', '+faststart',
      partial,
    ]);
    const size = statSync(partial).size;
    if (fits(partial)) {
      renameSync(partial, VIDEO);
      return;
    }
    seconds = (seconds * (VIDEO_MIN + 4 * MiB)) / size;
  }
  rmSync(partial, { force: true });
  throw new Error(`ffmpeg did not make a video between ${VIDEO_MIN} and ${VIDEO_MAX} bytes`);
}

async function makeThumbnail(): Promise<void> {
  if (existsSync(THUMBNAIL)) return;
  await sharp({ create: { width: 1280, height: 720, channels: 3, background: { r: 40, g: 90, b: 160 } } })
    .jpeg({ quality: 85 })
    .toFile(THUMBNAIL);
}

/** Every value the bar shows, every notice and byte count the page says, from now on. */
async function watchUpload(page: Page): Promise<() => Promise<{ percents: number[]; notices: string[]; bytes: string[] }>> {
  await page.evaluate(() => {
    const seen = { percents: [] as number[], notices: [] as string[], bytes: [] as string[] };
    (window as unknown as { uploadSeen: typeof seen }).uploadSeen = seen;
    const push = <T,>(list: T[], value: T) => {
      if (list.at(-1) !== value) list.push(value);
    };
    const read = () => {
      const bar = document.querySelector('progress');
      if (bar) push(seen.percents, Number(bar.getAttribute('aria-valuenow')));
      const notice = document.querySelector('.upload__notice')?.textContent ?? '';
      if (notice) push(seen.notices, notice);
      const bytes = document.querySelector('[data-testid="upload-bytes"]')?.textContent ?? '';
      if (bytes) push(seen.bytes, bytes);
    };
    new MutationObserver(read).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  return () => page.evaluate(() => (window as unknown as { uploadSeen: { percents: number[]; notices: string[]; bytes: string[] } }).uploadSeen);
}

/** Counts the tus requests by method, and the finish requests. */
function countRequests(page: Page) {
  const counts = { POST: 0, HEAD: 0, PATCH: 0, DELETE: 0, finish: 0 };
  page.on('request', (r: Request) => {
    const { pathname } = new URL(r.url());
    if (isTus(r.url())) counts[r.method() as keyof typeof counts] += 1;
    if (pathname === '/api/videos/resumable' && r.method() === 'POST') counts.finish += 1;
  });
  return counts;
}

async function fillForm(page: Page, title: string) {
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Description').fill('A 150 MB upload that survives a dropped connection and a reload.');
  await page.getByLabel('Category').selectOption('music');
  await page.getByLabel('Video file').setInputFiles(VIDEO);
  await page.getByLabel('Thumbnail image').setInputFiles(THUMBNAIL);
  await expect(page.getByText(new RegExp(`${path.basename(VIDEO).replace(/\./g, '\\.')} \\(1[56]\\d\\.\\d MB\\)`))).toBeVisible();
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  makeBigVideo();
  await makeThumbnail();
});

test('a Free creator is refused a 150 MB video before any upload, with the limit named and the way to Pro', async ({ page }) => {
  await signInAsCreator(page, '/upload', signInPrompt);
  await expect(page.getByText('Up to 100MB (Free plan)')).toBeVisible();
  const counts = countRequests(page);
  const size = statSync(VIDEO).size;
  expect(size).toBeGreaterThan(UPLOAD_LIMITS.free.videoBytes);

  const videoInput = page.getByLabel('Video file');
  await videoInput.setInputFiles(VIDEO);
  const refusal = page.getByRole('alert').filter({ hasText: 'Video file size must be less than 100MB' });
  await expect(refusal).toContainText('❌ Video file size must be less than 100MB');
  const upgrade = refusal.getByRole('link', { name: UPGRADE });
  await expect(upgrade).toHaveAttribute('href', '/subscription-tiers');
  expect(await videoInput.evaluate((el: HTMLInputElement) => el.files?.length)).toBe(0);

  // Nothing was sent; submitting now asks for a video.
  await page.getByLabel('Title').fill('Too big');
  await page.getByLabel('Description').fill('Over the Free limit.');
  await page.getByRole('button', { name: 'Upload Video' }).click();
  await expect(page.getByText('❌ Please select a video file')).toBeVisible();
  expect(counts).toMatchObject({ POST: 0, PATCH: 0, finish: 0 });

  // The server holds the same line when asked directly: a tus creation of that length is refused.
  const direct = await page.request.post(RESUMABLE_UPLOAD.endpoint, {
    headers: {
      Origin: origin(page),
      'Tus-Resumable': '1.0.0',
      'Upload-Length': String(size),
      'Upload-Metadata': `filename ${Buffer.from('noise.mp4').toString('base64')},filetype ${Buffer.from('video/mp4').toString('base64')}`,
    },
  });
  expect(direct.status(), await direct.text()).toBe(413);
  const body = (await direct.json()) as { success: boolean; error: string; code: string };
  expect(body).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE' });
  expect(body.error).toContain('100MB');
  expect(body.error).toContain('/subscription-tiers');

  // The link leads to the plans.
  await upgrade.click();
  await page.waitForURL((url) => url.pathname === '/subscription-tiers');
  await expect(page.getByRole('heading', { name: 'Pro', exact: true })).toBeVisible();
});

test('a Pro creator uploads 150 MB through a dropped connection and a reload, and the video plays', async ({ page }) => {
  test.setTimeout(300_000);
  await signInAsCreator(page, '/upload', signInPrompt);
  await subscribePro(page);
  await page.goto('/upload');
  await expect(page.getByText('Up to 2GB (Pro plan)')).toBeVisible();
  const size = statSync(VIDEO).size;
  const counts = countRequests(page);
  const title = `E2E resumable ${randomUUID().slice(0, 8)}`;

  // Past 30% of the bytes, one PATCH is cut off; past 60%, one is held while the page reloads.
  const dropAt = 0.3 * size;
  const reloadAt = 0.6 * size;
  let dropped = 0;
  let heldOffset = -1;
  let held: Route | null = null;
  let onHeld: () => void = () => undefined;
  const holding = new Promise<void>((resolve) => (onHeld = resolve));
  const cutter = async (route: Route) => {
    const request = route.request();
    const offset = Number((await request.headerValue('upload-offset')) ?? -1);
    if (request.method() === 'PATCH' && dropped === 0 && offset >= dropAt) {
      dropped += 1;
      await route.abort('connectionreset');
      return;
    }
    if (request.method() === 'PATCH' && dropped === 1 && !held && offset >= reloadAt) {
      held = route;
      heldOffset = offset;
      onHeld();
      return;
    }
    await route.fallback();
  };
  await page.route((url) => isTus(url.href), cutter);

  await fillForm(page, title);
  const seen = await watchUpload(page);
  await page.getByRole('button', { name: 'Upload Video' }).click();

  // The drop: 'Connection lost. Resuming...' while tus asks the server where it got to and carries on.
  await holding;
  const before = await seen();
  expect(dropped).toBe(1);
  expect(before.notices).toContain('Connection lost. Resuming...');
  expect(before.percents.some((p) => p > 30)).toBe(true);
  expect(before.percents).toEqual([...before.percents].sort((a, b) => a - b));
  expect(before.bytes.at(-1)).toMatch(/^Uploaded \d+\.\d MB of 1[56]\d\.\d MB$/);
  expect(counts.POST).toBe(1);
  expect(counts.HEAD).toBeGreaterThanOrEqual(1);

  // The reload: the page goes away mid-upload; choosing the same file again carries on from the server's offset.
  await page.reload();
  await (held as Route | null)?.abort().catch(() => undefined);
  await page.unroute((url) => isTus(url.href), cutter);
  await expect(page.getByText('Up to 2GB (Pro plan)')).toBeVisible();
  await fillForm(page, title);
  const after = await watchUpload(page);
  const finished = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/videos/resumable' && r.request().method() === 'POST', {
    timeout: 240_000,
  });
  await page.getByRole('button', { name: 'Upload Video' }).click();
  const finish = await finished;
  expect(finish.status(), await finish.text()).toBe(201);

  await expect(progressBar(page)).toHaveAttribute('aria-valuenow', String(UPLOAD_STAGES.metadata));
  await expect(page.getByRole('status').filter({ hasText: '✅ Video uploaded successfully!' })).toBeVisible();
  const resumed = await after();
  expect(resumed.notices).toContain('Resuming your earlier upload of this file...');
  expect(resumed.percents.at(-1)).toBe(100);
  expect(resumed.percents).toEqual([...resumed.percents].sort((a, b) => a - b));
  // Past the user check, the bar starts where the server's copy ended (60% of the bytes), not at 10.
  const firstBytes = resumed.percents.find((p) => p > UPLOAD_STAGES.ensureUser)!;
  expect(firstBytes).toBeGreaterThanOrEqual(Math.floor(UPLOAD_STAGES.ensureUser + (70 * heldOffset) / size) - 1);
  const lastBytes = resumed.bytes.at(-1)!.match(/^Uploaded (\S+) MB of (\S+) MB$/);
  expect(lastBytes?.[1]).toBe(lastBytes?.[2]);
  // One upload created in all: neither the drop nor the reload started over.
  expect(counts).toMatchObject({ POST: 1, DELETE: 0, finish: 1 });
  test.info().annotations.push({
    type: 'resumable upload',
    description: `${size} bytes; dropped a PATCH past ${Math.round((100 * dropAt) / size)}%, reloaded at offset ${heldOffset}; requests ${JSON.stringify(counts)}; bar before the reload ${before.percents.join(',')}; after ${resumed.percents.join(',')}`,
  });

  // Stored whole, listed among the creator's videos, served from /media at its size, and it plays.
  const mine = (await (await page.request.get('/api/studio/videos')).json()) as MyVideosReply;
  const stored = mine.videos.find((v) => v.title === title);
  expect(stored, 'the new video in /api/studio/videos').toBeDefined();
  expect(stored!.size_bytes).toBe(size);
  const info = (await (await page.request.get(`/api/video-info?id=${stored!.id}`)).json()) as VideoInfoReply;
  expect(info.video.video_url).toMatch(/^\/media\//);
  expect(info.video.size_bytes).toBe(size);
  expect(info.video.duration_s).toBeGreaterThan(10);
  const media = await page.request.get(info.video.video_url);
  expect(media.status()).toBe(200);
  expect((await media.body()).length).toBe(size);

  await page.waitForURL((url) => url.pathname === '/', { timeout: 6_000 });
  await page.goto('/dashboard');
  await expect(page.getByRole('list', { name: 'Your videos' }).getByRole('listitem').filter({ hasText: title })).toHaveCount(1);
  await page.goto(`/video/${stored!.category_id}/${stored!.id}`);
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await page.evaluate(async () => {
    const element = document.querySelector('video');
    if (!element) throw new Error('no <video> on the page');
    element.muted = true;
    await element.play();
  });
  await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 0.5, undefined, { timeout: 20_000 });
  await expect(main.getByRole('heading', { name: 'Video Error' })).toHaveCount(0);

  // The feed other specs read goes back to what it was.
  const removed = await page.request.delete(`/api/videos/${stored!.id}`, { headers: { Origin: origin(page) } });
  expect(removed.status()).toBe(200);
});
