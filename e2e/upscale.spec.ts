/**
 * /test-crop-tool: a crop that prints below 300 DPI is upscaled in the browser ('Upscale with
 * AI'), with a progress bar and Cancel; the upscaled crop raises the DPI the print file is made
 * at. The model comes from the app itself, fetched only when an upscale starts: no request ever
 * leaves the app's origin.
 */
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';

/** A photograph-like image: smooth shading with fine grain, `width` x `height`. */
async function photoLike(width: number, height: number): Promise<Buffer> {
  const data = Buffer.alloc(width * height * 3);
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const grain = (rand() - 0.5) * 30;
      data[i] = Math.max(0, Math.min(255, 128 + 90 * Math.sin(x / 9) + grain));
      data[i + 1] = Math.max(0, Math.min(255, 128 + 90 * Math.cos(y / 7) + grain));
      data[i + 2] = Math.max(0, Math.min(255, 128 + 60 * Math.sin((x + y) / 13) + grain));
    }
  }
  return sharp(data, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

/** Every URL the page and its workers ask for; anything not of the app is refused. */
function watchRequests(page: Page, origin: string): string[] {
  const urls: string[] = [];
  page.context().on('request', (request) => urls.push(request.url()));
  void page.context().route((url) => url.origin !== origin, (route) => route.abort());
  return urls;
}

const ofApp = (origin: string) => (url: string) => url.startsWith(`${origin}/`) || url.startsWith('blob:') || url.startsWith('data:');

async function openWith(page: Page, png: Buffer, size: { width: number; height: number }) {
  await page.goto('/test-crop-tool');
  await page.getByLabel('Choose an image').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: png });
  await expect(page.getByRole('figure', { name: 'Before' })).toContainText(`${size.width} × ${size.height} px`);
  await page.getByRole('button', { name: 'Open Crop Tool' }).click();
  const dialog = page.getByRole('dialog', { name: 'Simple Print Crop Tool' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Print size').selectOption('4x6');
  const dpi = dialog.getByRole('status', { name: 'Effective DPI' });
  await expect(dpi).toHaveText(/^\d+$/);
  return { dialog, dpi };
}

test('a crop below 300 DPI is upscaled with AI, with progress, and its DPI rises', async ({ page, baseURL }) => {
  test.setTimeout(240_000);
  const origin = new URL(baseURL!).origin;
  const urls = watchRequests(page, origin);
  const { dialog, dpi } = await openWith(page, await photoLike(96, 72), { width: 96, height: 72 });
  const before = Number(await dpi.textContent());
  expect(before).toBeLessThan(300);
  // Nothing of the model is loaded until the viewer asks for it.
  expect(urls.filter((u) => u.includes('/models/'))).toEqual([]);

  await dialog.getByRole('button', { name: 'Upscale with AI' }).click();
  const bar = dialog.getByRole('progressbar', { name: 'Upscaling' });
  await expect(bar).toBeVisible();
  await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 60_000 }).toBeGreaterThan(0);

  await expect(bar).toBeHidden({ timeout: 200_000 });
  await expect(dialog.getByText(/upscaled to \d+ × \d+ px/)).toBeVisible();
  // The crop is upscaled once: no second run from the same crop is offered.
  await expect(dialog.getByText('Upscaled with AI', { exact: true })).toBeVisible();
  const after = Number(await dpi.textContent());
  // A crop this small takes the 4x model: four times the pixels a side, four times the DPI.
  expect(after).toBeGreaterThanOrEqual(before * 4 - 2);

  expect(urls.some((u) => u === `${origin}/models/esrgan-slim/x4/model.json`)).toBe(true);
  expect(urls.filter((u) => !ofApp(origin)(u))).toEqual([]);
});

test('Cancel stops the upscale: the worker ends and the crop stays as it was', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const origin = new URL(baseURL!).origin;
  const urls = watchRequests(page, origin);
  const closed: string[] = [];
  page.on('worker', (worker) => worker.on('close', () => closed.push(worker.url())));
  const { dialog, dpi } = await openWith(page, await photoLike(480, 360), { width: 480, height: 360 });
  const before = await dpi.textContent();

  await dialog.getByRole('button', { name: 'Upscale with AI' }).click();
  const bar = dialog.getByRole('progressbar', { name: 'Upscaling' });
  await expect(bar).toBeVisible();
  await expect.poll(() => page.workers().some((w) => w.url().includes('upscale')), { timeout: 30_000 }).toBe(true);
  await dialog.getByRole('button', { name: 'Cancel upscale' }).click();

  await expect(bar).toBeHidden();
  await expect(dialog.getByRole('button', { name: 'Upscale with AI' })).toBeVisible();
  await expect.poll(() => closed.some((u) => u.includes('upscale'))).toBe(true);
  // Well past the moment a late result could have landed: none does.
  await page.waitForTimeout(1_000);
  await expect(dpi).toHaveText(before!);
  await expect(dialog.getByText(/upscaled to/)).toHaveCount(0);
  expect(urls.filter((u) => !ofApp(origin)(u))).toEqual([]);
});
