/**
 * /test-crop-tool: pick an image, check the print targets, move and resize the crop box, make
 * the print file (feathered, resampled to the print area) and download it.
 */
import { expect, test } from '@playwright/test';
import { printFileSize } from '../shared/print.ts';
import { downloadPng, openTool, parsePosition, parseSize } from './support/printTool.ts';

test('a file that is not an image is refused', async ({ page }) => {
  await page.goto('/test-crop-tool');
  await page.getByLabel('Choose an image').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(page.getByRole('alert')).toHaveText('Please select a valid image file');
  await expect(page.getByRole('button', { name: 'Open Crop Tool' })).toBeDisabled();
});

test('the print file is feathered, sized for the T-shirt area and downloads as a PNG', async ({ page }) => {
  const dialog = await openTool(page);

  const row = (target: string) => dialog.getByRole('row').filter({ has: page.getByRole('rowheader', { name: target, exact: true }) });
  await expect(row('4x6')).toContainText('Too Small for Print');
  await expect(row('T-Shirt')).toContainText('Too Small for Print');
  // A 288 px square on 4x6 in: fitted to 4x4 in, 72 DPI.
  await expect(row('4x6')).toContainText('72');

  const box = dialog.getByRole('group', { name: 'Crop box' });
  await expect(box).toBeFocused();
  const position = dialog.getByRole('status', { name: 'Crop position' });
  const before = parsePosition(await position.textContent());
  await box.press('ArrowRight');
  await box.press('Shift+ArrowDown');
  await expect(position).toHaveText(`${before.x + 1}, ${before.y + 10}`);

  await dialog.getByLabel('Print area').selectOption({ label: 'T-Shirt 12x16 in' });
  const crop = parseSize(await dialog.getByRole('status', { name: 'Crop size' }).textContent());
  const expected = printFileSize(crop, { widthIn: 12, heightIn: 16 }, 300);

  await dialog.getByRole('button', { name: 'Apply Feather & Generate Print Quality' }).click();
  await expect(page.getByText('Feather effect applied and print quality image generated!')).toBeVisible({ timeout: 25_000 });
  await expect(dialog).toBeHidden();
  const after = page.getByRole('figure', { name: 'After' });
  await expect(after).toContainText(`${expected.width} × ${expected.height} px`);

  const png = await downloadPng(page);
  const meta = await png.metadata();
  expect(meta.format).toBe('png');
  expect({ width: meta.width, height: meta.height }).toEqual(expected);
  expect(meta.hasAlpha).toBe(true);
  const { data, info } = await png.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const alphaAt = (x: number, y: number) => data[(y * info.width + x) * info.channels + 3];
  const w = info.width - 1;
  const h = info.height - 1;
  for (const [x, y] of [[0, 0], [w, 0], [0, h], [w, h]] as const) expect(alphaAt(x, y)).toBeLessThan(16);
  expect(alphaAt(Math.floor(w / 2), Math.floor(h / 2))).toBe(255);
});

test('Apply Crop shows the crop, pixel for pixel, as the after image', async ({ page }) => {
  const dialog = await openTool(page);
  const size = dialog.getByRole('status', { name: 'Crop size' });
  const initial = parseSize(await size.textContent());

  // Drag the south-east corner left and up: the box shrinks, its top-left stays.
  const position = dialog.getByRole('status', { name: 'Crop position' });
  const start = parsePosition(await position.textContent());
  const handle = dialog.locator('[data-handle="se"]');
  const at = await handle.boundingBox();
  if (!at) throw new Error('No corner handle');
  await page.mouse.move(at.x + at.width / 2, at.y + at.height / 2);
  await page.mouse.down();
  await page.mouse.move(at.x - 40, at.y - 60, { steps: 5 });
  await page.mouse.up();
  await expect(position).toHaveText(`${start.x}, ${start.y}`);
  const crop = parseSize(await size.textContent());
  expect(crop.width).toBeLessThan(initial.width);
  expect(crop.height).toBeLessThan(initial.height);
  expect(Math.min(crop.width, crop.height)).toBeGreaterThanOrEqual(50);

  await dialog.getByRole('button', { name: 'Apply Crop' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('figure', { name: 'After' })).toContainText(`${crop.width} × ${crop.height} px`);
  const meta = await (await downloadPng(page)).metadata();
  expect({ width: meta.width, height: meta.height }).toEqual(crop);
});

test('Escape cancels the tool and gives focus back to its button', async ({ page }) => {
  const dialog = await openTool(page);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'Open Crop Tool' })).toBeFocused();
  await expect(page.getByRole('figure', { name: 'After' })).toHaveCount(0);
});

test('without OffscreenCanvas the print file is made by the server', async ({ page }) => {
  await page.addInitScript(() => {
    Reflect.deleteProperty(globalThis, 'OffscreenCanvas');
  });
  const dialog = await openTool(page);
  await dialog.getByLabel('Print area').selectOption({ label: '4x6 in' });
  const crop = parseSize(await dialog.getByRole('status', { name: 'Crop size' }).textContent());
  const expected = printFileSize(crop, { widthIn: 4, heightIn: 6 }, 300);

  const served = page.waitForResponse((r) => r.url().endsWith('/api/process-thumbnail-print-quality'));
  await dialog.getByRole('button', { name: 'Apply Feather & Generate Print Quality' }).click();
  expect((await served).status()).toBe(200);
  await expect(page.getByText('Feather effect applied and print quality image generated!')).toBeVisible({ timeout: 25_000 });
  await expect(page.getByRole('figure', { name: 'After' })).toContainText(`${expected.width} × ${expected.height} px`);
  const meta = await (await downloadPng(page)).metadata();
  expect({ width: meta.width, height: meta.height, hasAlpha: meta.hasAlpha }).toEqual({ ...expected, hasAlpha: true });
});

test('Cancel while the print file is being made throws the work away', async ({ page }) => {
  const dialog = await openTool(page);
  await dialog.getByRole('button', { name: 'Apply Feather & Generate Print Quality' }).click();
  await expect(dialog.getByRole('progressbar', { name: 'Generating print file' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Apply Crop' })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  // Long enough for the (aborted) work to have finished had it not been thrown away.
  await page.waitForTimeout(1500);
  await expect(page.getByRole('figure', { name: 'After' })).toHaveCount(0);
  await expect(page.getByText('Feather effect applied and print quality image generated!')).toHaveCount(0);
});
