/** The Simple Print Crop Tool (/test-crop-tool) as the specs drive it. */
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import sharp from 'sharp';
import type { Size } from '../../shared/print.ts';

export const THUMBNAIL = path.resolve(import.meta.dirname, '../../.cache/test-media/thumbnail.jpg');

export const parseSize = (text: string | null): Size => {
  const match = /(\d+) × (\d+) px/.exec(text ?? '');
  if (!match) throw new Error(`No pixel size in ${JSON.stringify(text)}`);
  return { width: Number(match[1]), height: Number(match[2]) };
};

export const parsePosition = (text: string | null) => {
  const match = /(\d+), (\d+)/.exec(text ?? '');
  if (!match) throw new Error(`No position in ${JSON.stringify(text)}`);
  return { x: Number(match[1]), y: Number(match[2]) };
};

/** A photo made here, by default 1800 x 1200: 4x6 in landscape at exactly 300 DPI. */
export async function photo(width = 1800, height = 1200) {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      pixels[i] = (x * 255) / width;
      pixels[i + 1] = (y * 255) / height;
      pixels[i + 2] = ((x ^ y) & 32) * 4;
    }
  }
  const buffer = await sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
  return { name: 'photo.jpg', mimeType: 'image/jpeg', buffer, size: `${width} × ${height} px` };
}

/** Opens /test-crop-tool, picks an image (the test thumbnail unless given) and opens the crop tool; returns the dialog. */
export async function openTool(page: Page, image?: Awaited<ReturnType<typeof photo>>) {
  await page.goto('/test-crop-tool');
  await page.getByLabel('Choose an image').setInputFiles(image ? { name: image.name, mimeType: image.mimeType, buffer: image.buffer } : THUMBNAIL);
  await expect(page.getByRole('figure', { name: 'Before' })).toContainText(image?.size ?? '640 × 360 px');
  await page.getByRole('button', { name: 'Open Crop Tool' }).click();
  const dialog = page.getByRole('dialog', { name: 'Simple Print Crop Tool' });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Clicks Download PNG and opens the file with sharp. */
export async function downloadPng(page: Page) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download PNG' }).click()]);
  expect(download.suggestedFilename()).toBe('framemerch-print.png');
  const file = await download.path();
  return sharp(file);
}
