/**
 * Offline: after one visit online, the service worker has cached the whole app (the shell at
 * install, the ffmpeg core after it), and with the network gone the app still opens at its own
 * addresses and still makes print files and captures frames in the browser.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { printFileSize } from '../shared/print.ts';
import type { OfflineStatus } from '../web/sw/sw.ts';
import { downloadPng, openTool, parseSize, photo } from './support/printTool.ts';
import { seededVideo } from './support/videos.ts';

test.use({ serviceWorkers: 'allow' });
// The first visit downloads the whole build, the 32 MB ffmpeg core included.
test.setTimeout(120_000);

/** What the service worker controlling the page says of its caches; null while none controls it. */
function offlineStatus(page: Page): Promise<OfflineStatus | null> {
  return page.evaluate(
    () =>
      new Promise<OfflineStatus | null>((resolve, reject) => {
        const worker = navigator.serviceWorker.controller;
        if (!worker) return resolve(null);
        const channel = new MessageChannel();
        channel.port1.onmessage = (event) => resolve(event.data as OfflineStatus);
        worker.postMessage({ type: 'status' }, [channel.port2]);
        setTimeout(() => reject(new Error('The service worker did not answer')), 5_000);
      }),
  );
}

async function untilOfflineReady(page: Page): Promise<OfflineStatus> {
  await expect.poll(async () => (await offlineStatus(page))?.ready ?? false, { timeout: 90_000, intervals: [250, 500, 1000] }).toBe(true);
  const status = (await offlineStatus(page))!;
  // The shell holds the page, its scripts and the print worker; the second phase the ffmpeg core.
  expect(status.shell.cached).toBe(status.shell.total);
  expect(status.deferred.cached).toBe(status.deferred.total);
  expect(status.deferred.total).toBeGreaterThan(0);
  return status;
}

async function goOffline(page: Page, context: BrowserContext) {
  await context.setOffline(true);
  const health = await page.evaluate(() => fetch('/api/health', { cache: 'no-store' }).then((r) => `answered ${r.status}`, () => 'unreachable'));
  expect(health).toBe('unreachable');
}

test('the crop tool opens and makes a 300 DPI print file with no network', async ({ page, context }) => {
  await page.goto('/test-crop-tool');
  await untilOfflineReady(page);
  await goOffline(page, context);

  const reloaded = await page.reload();
  expect(reloaded?.fromServiceWorker()).toBe(true);
  // A print file is made only for a crop that prints at 150 DPI or more: a photo large enough for 4x6.
  const dialog = await openTool(page, await photo());
  await dialog.getByLabel('Print size').selectOption({ label: '4x6 in' });
  await dialog.getByRole('radio', { name: 'Landscape' }).check();
  await expect(dialog.getByRole('status', { name: 'Crop size' })).toHaveText('1800 × 1200 px');
  const crop = parseSize(await dialog.getByRole('status', { name: 'Crop size' }).textContent());
  const expected = printFileSize(crop, { widthIn: 6, heightIn: 4 }, 300);
  await dialog.getByRole('button', { name: 'Apply Feather & Generate Print Quality' }).click();
  await expect(page.getByText('Feather effect applied and print quality image generated!')).toBeVisible({ timeout: 25_000 });
  await expect(page.getByRole('figure', { name: 'After' })).toContainText(`${expected.width} × ${expected.height} px`);

  const png = await downloadPng(page);
  const meta = await png.metadata();
  expect({ format: meta.format, width: meta.width, height: meta.height, hasAlpha: meta.hasAlpha }).toEqual({ format: 'png', ...expected, hasAlpha: true });
  const { data, info } = await png.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const alphaAt = (x: number, y: number) => data[(y * info.width + x) * info.channels + 3];
  expect(alphaAt(0, 0)).toBeLessThan(16);
  expect(alphaAt(info.width >> 1, info.height >> 1)).toBe(255);
});

test('another address of the app opens offline from the cached page', async ({ page, context }) => {
  await page.goto('/test-crop-tool');
  await untilOfflineReady(page);
  await goOffline(page, context);
  const response = await page.goto('/privacy-policy');
  expect(response?.fromServiceWorker()).toBe(true);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

/**
 * Waits until the page's video has its current frame (readyState HAVE_CURRENT_DATA), and says
 * what the element reports when it does not come within `ms`.
 */
async function videoLoaded(page: Page, ms = 60_000): Promise<void> {
  await page.locator('video').evaluate(
    (video: HTMLVideoElement, ms) =>
      new Promise<void>((resolve, reject) => {
        if (video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA) return resolve();
        const state = () => `readyState ${video.readyState}, networkState ${video.networkState}, error ${video.error?.code ?? 'none'}, src ${video.currentSrc}`;
        video.addEventListener('loadeddata', () => resolve(), { once: true });
        video.addEventListener('error', () => reject(new Error(`video error (${state()})`)), { once: true });
        setTimeout(() => reject(new Error(`video not loaded after ${ms} ms (${state()})`)), ms);
      }),
    ms,
  );
}

test('a frame of a video that has loaded is captured with no network', async ({ page, context, request }) => {
  const target = await seededVideo(request);
  // Which capture step made the screenshot, and why an earlier one failed, in the report when this fails.
  page.on('console', (m) => m.text().startsWith('Screenshot:') && console.log(`[offline capture] ${m.text()}`));
  await page.goto(`/video/${target.category_id}/${target.id}`);
  await expect(page.getByRole('heading', { level: 1, name: target.title })).toBeVisible();
  await untilOfflineReady(page);
  // The frame to capture is on screen and decoded before the network goes.
  await videoLoaded(page);
  await page.locator('video').evaluate(async (video: HTMLVideoElement) => {
    video.pause();
    await new Promise<void>((resolve) => {
      video.addEventListener('seeked', () => resolve(), { once: true });
      video.currentTime = Math.min(1, video.duration / 2);
    });
  });
  await goOffline(page, context);

  const screenshots = page.getByRole('list', { name: 'Screenshots' });
  await expect(screenshots.getByRole('img', { name: 'Screenshot 1', exact: true })).toHaveAttribute('data-source', 'thumbnail');
  await page.getByRole('button', { name: 'Select Screenshot', exact: true }).click();
  const captured = screenshots.getByRole('img', { name: 'Screenshot 2', exact: true });
  await expect(captured).toBeVisible({ timeout: 30_000 });
  // Made in the browser (the server is out of reach), from the frame, not the thumbnail.
  await expect(captured).toHaveAttribute('data-source', 'canvas');
  await expect(captured).toHaveJSProperty('complete', true);
  expect(await captured.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  // And it stays: its full-resolution image was made and kept with the network off.
  await expect(screenshots.getByRole('listitem').nth(1)).not.toHaveAttribute('aria-busy', 'true', { timeout: 15_000 });
  await expect(captured).toHaveAttribute('data-source', 'canvas');
});

test('a video page visited once reloads offline with its video, its screenshots and its crop box', async ({ page, context, request }) => {
  const target = await seededVideo(request);
  const videoPath = new URL(target.video_url!, 'http://x').pathname;
  await page.goto(`/video/${target.category_id}/${target.id}`);
  await expect(page.getByRole('heading', { level: 1, name: target.title })).toBeVisible({ timeout: 30_000 });
  await untilOfflineReady(page);
  await videoLoaded(page);

  // A screenshot and a crop box, as a viewer leaves them.
  const screenshots = page.getByRole('list', { name: 'Screenshots' });
  await page.getByRole('button', { name: 'Select Screenshot', exact: true }).click();
  const captured = screenshots.getByRole('img', { name: 'Screenshot 2', exact: true });
  await expect(captured).toBeVisible({ timeout: 30_000 });
  await expect(screenshots.getByRole('listitem').nth(1)).not.toHaveAttribute('aria-busy', 'true', { timeout: 15_000 });
  const source = await captured.getAttribute('data-source');
  const tools = page.getByRole('toolbar', { name: 'Screenshot tools' });
  await tools.getByRole('button', { name: 'Crop Mode' }).click();
  const cropSize = tools.getByRole('status', { name: 'Crop size' });
  await expect(cropSize).toBeVisible();
  const size = await cropSize.textContent();

  // The video file is kept whole, and the box written, before the network goes.
  await expect
    .poll(() => page.evaluate(async () => (await (await caches.open('framemerch-kept')).keys()).map((r) => new URL(r.url).pathname)), { timeout: 60_000 })
    .toEqual(expect.arrayContaining([videoPath, `/api/videos/${target.id}`]));
  await expect
    .poll(() =>
      page.evaluate(
        (id) =>
          new Promise<boolean>((resolve) => {
            const open = indexedDB.open('framemerch-video-crop');
            open.onerror = () => resolve(false);
            open.onsuccess = () => {
              const db = open.result;
              if (!db.objectStoreNames.contains('crops')) return resolve(false);
              const get = db.transaction('crops').objectStore('crops').get(id);
              get.onsuccess = () => resolve(get.result !== undefined);
              get.onerror = () => resolve(false);
            };
          }),
        target.id,
      ),
    )
    .toBe(true);

  await goOffline(page, context);
  const reloaded = await page.reload();
  expect(reloaded?.fromServiceWorker()).toBe(true);
  // The video's details from the worker's copy, the screenshots and the box from IndexedDB.
  await expect(page.getByRole('heading', { level: 1, name: target.title })).toBeVisible();
  await expect(screenshots.getByRole('img', { name: 'Screenshot 1', exact: true })).toHaveAttribute('data-source', 'thumbnail');
  await expect(captured).toHaveAttribute('data-source', source!);
  await expect(captured).toHaveJSProperty('complete', true);
  await expect(tools.getByRole('button', { name: 'Crop Mode' })).toHaveAttribute('aria-pressed', 'true');
  await expect(cropSize).toHaveText(size!);
  // And the video itself plays from the kept copy.
  await videoLoaded(page, 20_000);
});

test('with the service worker in control, the ffmpeg.wasm step loads its core from the cache', async ({ page, request }) => {
  const video = await seededVideo(request);
  // Which capture step made the screenshot, and why an earlier one failed, in the report when this fails.
  page.on('console', (m) => m.text().startsWith('Screenshot:') && console.log(`[wasm capture] ${m.text()}`));
  await page.goto(`/video/${video.category_id}/${video.id}?capture=wasm`);
  await untilOfflineReady(page);
  await videoLoaded(page);
  await page.getByRole('button', { name: 'Select Screenshot', exact: true }).click();
  const captured = page.getByRole('list', { name: 'Screenshots' }).getByRole('img', { name: 'Screenshot 2', exact: true });
  await expect(captured).toBeVisible({ timeout: 60_000 });
  await expect(captured).toHaveAttribute('data-source', 'wasm');
});

test('media is left to the network: Range requests still get partial content', async ({ page, request }) => {
  const videoUrl = (await seededVideo(request)).video_url;
  await page.goto('/test-crop-tool');
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  const reply = await page.evaluate(async (url) => {
    const r = await fetch(url, { headers: { range: 'bytes=0-99' } });
    return { status: r.status, range: r.headers.get('content-range'), bytes: (await r.arrayBuffer()).byteLength };
  }, videoUrl);
  expect(reply.status).toBe(206);
  expect(reply.range).toMatch(/^bytes 0-99\/\d+$/);
  expect(reply.bytes).toBe(100);
});
