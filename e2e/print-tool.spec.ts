/**
 * The Simple Print Crop Tool on /test-crop-tool: a crop locked to the chosen print size, moved
 * and zoomed by pointer, wheel and keyboard, every size's DPI badge as the crop changes, a print
 * file only for a crop that prints at 150 DPI or more, and the tool and the player's crop box on
 * a phone.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { printFileSize } from '../shared/print.ts';
import { downloadPng, parsePosition, parseSize, photo, THUMBNAIL } from './support/printTool.ts';
import { seededVideo } from './support/videos.ts';

const SUCCESS = 'Feather effect applied and print quality image generated!';

/** Opens /test-crop-tool with an image and the crop tool on it; returns the dialog once the crop is known. */
async function openTool(page: Page, file: string | Awaited<ReturnType<typeof photo>>, size: string) {
  await page.goto('/test-crop-tool');
  await page.getByLabel('Choose an image').setInputFiles(typeof file === 'string' ? file : { name: file.name, mimeType: file.mimeType, buffer: file.buffer });
  await expect(page.getByRole('figure', { name: 'Before' })).toContainText(size);
  await page.getByRole('button', { name: 'Open Crop Tool' }).click();
  const dialog = page.getByRole('dialog', { name: 'Simple Print Crop Tool' });
  await expect(dialog).toBeVisible();
  await expect(cropSize(dialog)).toHaveText(/\d+ × \d+ px/);
  return dialog;
}

const cropSize = (dialog: Locator) => dialog.getByRole('status', { name: 'Crop size' });
const cropPosition = (dialog: Locator) => dialog.getByRole('status', { name: 'Crop position' });
const cropBox = (dialog: Locator) => dialog.getByRole('group', { name: 'Crop box' });
const readSize = async (dialog: Locator) => parseSize(await cropSize(dialog).textContent());
const readPosition = async (dialog: Locator) => parsePosition(await cropPosition(dialog).textContent());
const sizeRow = (dialog: Locator, target: string) =>
  dialog.getByRole('row').filter({ has: dialog.page().getByRole('rowheader', { name: target, exact: true }) });
/** The DPI on a size's badge in the table. */
const rowDpi = async (dialog: Locator, target: string) => Number(/(\d+) DPI/.exec((await sizeRow(dialog, target).locator('.dpi-badge').textContent()) ?? '')?.[1]);

async function choose(dialog: Locator, label: string, orientation?: 'Landscape' | 'Portrait') {
  await dialog.getByLabel('Print size').selectOption({ label });
  if (orientation) await dialog.getByRole('radio', { name: orientation }).check();
}

test('a file that is not an image is refused', async ({ page }) => {
  await page.goto('/test-crop-tool');
  await page.getByLabel('Choose an image').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(page.getByRole('alert')).toHaveText('Please select a valid image file');
  await expect(page.getByRole('button', { name: 'Open Crop Tool' })).toBeDisabled();
});

test('the crop is locked to the shape of each print size', async ({ page }) => {
  const dialog = await openTool(page, await photo(), '1800 × 1200 px');
  const shapes: [string, 'Landscape' | 'Portrait' | undefined, number][] = [
    ['4x6 in', 'Landscape', 6 / 4],
    ['4x6 in', 'Portrait', 4 / 6],
    ['5x7 in', 'Landscape', 7 / 5],
    ['8x10 in', 'Portrait', 8 / 10],
    ['11x14 in', 'Landscape', 14 / 11],
    ['Mug 4x4 in', undefined, 1],
    ['T-Shirt 12x16 in', undefined, 12 / 16],
    ['Phone Case 2x4 in', undefined, 2 / 4],
  ];
  for (const [label, orientation, aspect] of shapes) {
    await choose(dialog, label, orientation);
    await expect
      .poll(async () => {
        const crop = await readSize(dialog);
        return Math.abs(crop.width / crop.height - aspect) < 0.01;
      }, { message: `${label} ${orientation ?? ''}` })
      .toBe(true);
    const drawn = await cropBox(dialog).boundingBox();
    expect(drawn && drawn.width / drawn.height).toBeCloseTo(aspect, 1);
  }
  // A product's print area has one way up.
  await expect(dialog.getByRole('radio', { name: 'Landscape' })).toBeDisabled();
});

test('arrow keys move the crop, + and - zoom it, and the wheel zooms', async ({ page }) => {
  const dialog = await openTool(page, await photo(), '1800 × 1200 px');
  const box = cropBox(dialog);
  await expect(box).toBeFocused();
  // The focus ring shows on the box the keyboard drives.
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  await expect(box).toBeFocused();
  expect(await box.evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe('none');
  await expect(box).toHaveAccessibleDescription(/arrow keys move the crop/);

  await choose(dialog, '4x6 in', 'Landscape');
  await expect(cropSize(dialog)).toHaveText('1800 × 1200 px');
  await box.focus();
  await box.press('+');
  await box.press('+');
  const zoomed = await readSize(dialog);
  expect(zoomed.width).toBeLessThan(1800);
  expect(zoomed.width / zoomed.height).toBeCloseTo(1.5, 1);

  const start = await readPosition(dialog);
  await box.press('ArrowRight');
  await box.press('ArrowDown');
  await expect.poll(async () => (await readPosition(dialog)).x).toBeGreaterThan(start.x);
  await expect.poll(async () => (await readPosition(dialog)).y).toBeGreaterThan(start.y);
  const moved = await readPosition(dialog);
  await box.press('Shift+ArrowLeft');
  await expect.poll(async () => (await readPosition(dialog)).x).toBeLessThan(moved.x);
  expect(await readSize(dialog)).toEqual(zoomed);

  await box.press('-');
  await box.press('-');
  await expect(cropSize(dialog)).toHaveText('1800 × 1200 px');

  const stage = await box.boundingBox();
  if (!stage) throw new Error('No crop box');
  await page.mouse.move(stage.x + stage.width / 2, stage.y + stage.height / 2);
  await page.mouse.wheel(0, -400);
  await expect.poll(async () => (await readSize(dialog)).width).toBeLessThan(1800);
  await expect(dialog.getByRole('slider', { name: 'Zoom' })).not.toHaveValue('1');
});

test("every size's DPI badge follows the crop as it changes", async ({ page }) => {
  const dialog = await openTool(page, await photo(), '1800 × 1200 px');
  await choose(dialog, '4x6 in', 'Landscape');
  await expect(sizeRow(dialog, '4x6').locator('.dpi-badge')).toHaveText('Print ready · 300 DPI');
  await expect(sizeRow(dialog, '8x10').locator('.dpi-badge')).toHaveText('Acceptable · 150 DPI');
  await expect(sizeRow(dialog, '11x14').locator('.dpi-badge')).toHaveText('Low resolution · 109 DPI');
  await expect(dialog.getByRole('status', { name: 'Effective DPI' })).toHaveText('300');
  await expect(sizeRow(dialog, '4x6')).toContainText('OK for Print');

  await dialog.getByRole('slider', { name: 'Zoom' }).fill('2');
  await expect(dialog.getByRole('status', { name: 'Effective DPI' })).toHaveText('150');
  await expect(sizeRow(dialog, '4x6').locator('.dpi-badge')).toHaveText('Acceptable · 150 DPI');
  await expect(sizeRow(dialog, '4x6')).toContainText('Too Small for Print');
  expect(await rowDpi(dialog, '8x10')).toBe(75);
  await expect(sizeRow(dialog, '8x10').locator('.dpi-badge')).toHaveAttribute('data-level', 'low');
});

test('below 150 DPI there is no print file and no success, but the plain words and a smaller size', async ({ page }) => {
  test.slow();
  const dialog = await openTool(page, await photo(), '1800 × 1200 px');
  await choose(dialog, '11x14 in', 'Landscape');
  await expect(dialog.getByRole('status', { name: 'Effective DPI' })).toHaveText(/^1[0-4]\d$/);
  const dpi = Number(await dialog.getByRole('status', { name: 'Effective DPI' }).textContent());
  await expect(dialog.getByText(`Too small to print well at 11x14 in: this crop gives ${dpi} DPI`)).toBeVisible();

  await dialog.getByRole('button', { name: 'Apply Feather & Generate Print Quality' }).click();
  await expect(dialog.getByRole('alert')).toContainText(`Too small to print well at 11x14 in: this crop gives ${dpi} DPI`);
  await expect(dialog.getByRole('alert')).toContainText('It prints well at 8x10 in (150 DPI).');
  await page.waitForTimeout(500);
  await expect(page.getByText(SUCCESS)).toHaveCount(0);
  await expect(page.getByRole('figure', { name: 'After' })).toHaveCount(0);

  // The smaller size offered prints: acceptable, said by the badge beside the success.
  await dialog.getByRole('button', { name: 'Use 8x10 in' }).click();
  await expect(dialog.getByLabel('Print size')).toHaveValue('8x10');
  await expect(dialog.getByRole('status', { name: 'Effective DPI' })).toHaveText('150');
  const crop = await readSize(dialog);
  await dialog.getByRole('button', { name: 'Apply Feather & Generate Print Quality' }).click();
  await expect(page.getByText(SUCCESS)).toBeVisible({ timeout: 25_000 });
  await expect(page.getByRole('main').locator('.dpi-badge')).toHaveText('Acceptable · 150 DPI');
  const expected = printFileSize(crop, { widthIn: 10, heightIn: 8 }, 300);
  await expect(page.getByRole('figure', { name: 'After' })).toContainText(`${expected.width} × ${expected.height} px`);
});

test('a small frame is never scaled up into a print file', async ({ page }) => {
  const dialog = await openTool(page, THUMBNAIL, '640 × 360 px');
  // The T-shirt by default: a 270 px wide crop over 12 in.
  await expect(dialog.getByRole('status', { name: 'Effective DPI' })).toHaveText('22');
  await expect(dialog.locator('.crop-tool__chosen .dpi-badge')).toHaveText('Low resolution · 22 DPI');
  await dialog.getByRole('button', { name: 'Apply Feather & Generate Print Quality' }).click();
  await expect(dialog.getByRole('alert')).toContainText('Too small to print well at T-Shirt 12x16 in: this crop gives 22 DPI');
  await expect(dialog.getByRole('alert')).toContainText('No print size suits this crop');
  await expect(page.getByText(SUCCESS)).toHaveCount(0);
  await expect(dialog).toBeVisible();
});

test('the print file is feathered, sized for 4x6 at 300 DPI and downloads as a PNG', async ({ page }) => {
  const dialog = await openTool(page, await photo(), '1800 × 1200 px');
  await choose(dialog, '4x6 in', 'Landscape');
  await expect(cropSize(dialog)).toHaveText('1800 × 1200 px');

  await dialog.getByRole('button', { name: 'Apply Feather & Generate Print Quality' }).click();
  await expect(page.getByText(SUCCESS)).toBeVisible({ timeout: 25_000 });
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('main').locator('.dpi-badge')).toHaveText('Print ready · 300 DPI');
  await expect(page.getByRole('figure', { name: 'After' })).toContainText('1800 × 1200 px');

  const png = await downloadPng(page);
  const meta = await png.metadata();
  expect(meta.format).toBe('png');
  expect({ width: meta.width, height: meta.height }).toEqual({ width: 1800, height: 1200 });
  expect(meta.hasAlpha).toBe(true);
  const { data, info } = await png.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const alphaAt = (x: number, y: number) => data[(y * info.width + x) * info.channels + 3];
  const w = info.width - 1;
  const h = info.height - 1;
  for (const [x, y] of [[0, 0], [w, 0], [0, h], [w, h]] as const) expect(alphaAt(x, y)).toBeLessThan(16);
  expect(alphaAt(Math.floor(w / 2), Math.floor(h / 2))).toBe(255);
});

test('Apply Crop shows the crop, pixel for pixel, as the after image', async ({ page }) => {
  const dialog = await openTool(page, THUMBNAIL, '640 × 360 px');
  await choose(dialog, 'Mug 4x4 in');
  const box = cropBox(dialog);
  await box.focus();
  await box.press('+');
  await box.press('ArrowRight');
  const crop = await readSize(dialog);
  expect(crop.width).toBeLessThan(360);
  expect(Math.abs(crop.width - crop.height)).toBeLessThanOrEqual(1);

  await dialog.getByRole('button', { name: 'Apply Crop' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('figure', { name: 'After' })).toContainText(`${crop.width} × ${crop.height} px`);
  const meta = await (await downloadPng(page)).metadata();
  expect({ width: meta.width, height: meta.height }).toEqual(crop);
});

test('Escape cancels the tool and gives focus back to its button', async ({ page }) => {
  const dialog = await openTool(page, THUMBNAIL, '640 × 360 px');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'Open Crop Tool' })).toBeFocused();
  await expect(page.getByRole('figure', { name: 'After' })).toHaveCount(0);
});

test('without OffscreenCanvas the print file is made by the server', async ({ page }) => {
  // A PNG data URL each way through the server.
  test.slow();
  await page.addInitScript(() => {
    Reflect.deleteProperty(globalThis, 'OffscreenCanvas');
  });
  const dialog = await openTool(page, await photo(1200, 800), '1200 × 800 px');
  await choose(dialog, 'Mug 4x4 in');
  await expect(dialog.getByRole('status', { name: 'Effective DPI' })).toHaveText('200');
  const crop = await readSize(dialog);
  const expected = printFileSize(crop, { widthIn: 4, heightIn: 4 }, 300);

  const served = page.waitForResponse((r) => r.url().endsWith('/api/process-thumbnail-print-quality'));
  await dialog.getByRole('button', { name: 'Apply Feather & Generate Print Quality' }).click();
  expect((await served).status()).toBe(200);
  await expect(page.getByText(SUCCESS)).toBeVisible({ timeout: 25_000 });
  await expect(page.getByRole('figure', { name: 'After' })).toContainText(`${expected.width} × ${expected.height} px`);
  const meta = await (await downloadPng(page)).metadata();
  expect({ width: meta.width, height: meta.height, hasAlpha: meta.hasAlpha }).toEqual({ ...expected, hasAlpha: true });
});

test('Cancel while the print file is being made throws the work away', async ({ page }) => {
  const dialog = await openTool(page, await photo(), '1800 × 1200 px');
  await choose(dialog, '4x6 in', 'Landscape');
  await dialog.getByRole('button', { name: 'Apply Feather & Generate Print Quality' }).click();
  await expect(dialog.getByRole('progressbar', { name: 'Generating print file' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Apply Crop' })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  // Long enough for the (aborted) work to have finished had it not been thrown away.
  await page.waitForTimeout(1500);
  await expect(page.getByRole('figure', { name: 'After' })).toHaveCount(0);
  await expect(page.getByText(SUCCESS)).toHaveCount(0);
});

/** In the viewport as the page first shows it: nothing scrolled. */
async function expectUnscrolledInView(page: Page, locator: Locator) {
  await expect(locator).toBeInViewport({ ratio: 1 });
  const box = await locator.boundingBox();
  if (!box) throw new Error('Not shown');
  const viewport = page.viewportSize();
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height).toBeLessThanOrEqual(viewport?.height ?? 0);
}

test.describe('on a 375 x 667 phone', () => {
  test.use({ viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true });

  test('the print crop tool has Cancel and both Apply buttons in view without scrolling', async ({ page }) => {
    const dialog = await openTool(page, await photo(), '1800 × 1200 px');
    for (const name of ['Cancel', 'Apply Crop', 'Apply Feather & Generate Print Quality']) {
      await expectUnscrolledInView(page, dialog.getByRole('button', { name, exact: true }));
    }
    await expect(cropBox(dialog)).toBeInViewport();
    // Still in reach after choosing a size further down.
    await choose(dialog, '4x6 in', 'Landscape');
    await expect(dialog.getByRole('button', { name: 'Apply Crop', exact: true })).toBeInViewport({ ratio: 1 });
  });

  test("the player's crop box has 44 px handles and Apply Crop and Cancel in view", async ({ page }) => {
    test.slow();
    const target = await seededVideo(page.request);
    await page.goto(`/video/${target.category_id}/${target.id}`);
    await expect(page.getByRole('heading', { level: 1, name: target.title })).toBeVisible({ timeout: 30_000 });
    const cropMode = page.getByRole('button', { name: 'Crop Mode', exact: true });
    await expect(cropMode).toBeEnabled();
    await cropMode.tap();
    const box = page.getByRole('group', { name: 'Crop box' });
    await expect(box).toBeVisible();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    for (const corner of ['nw', 'ne', 'sw', 'se']) {
      const handle = await box.locator(`[data-handle="${corner}"]`).boundingBox();
      expect(handle?.width, corner).toBeGreaterThanOrEqual(44);
      expect(handle?.height, corner).toBeGreaterThanOrEqual(44);
    }
    const toolbar = page.getByRole('toolbar', { name: 'Screenshot tools' });
    await expectUnscrolledInView(page, toolbar.getByRole('button', { name: 'Apply Crop', exact: true }));
    await expectUnscrolledInView(page, toolbar.getByRole('button', { name: 'Cancel', exact: true }));

    // A finger 14 px in from the corner, outside the drawn handle, still resizes the box.
    const before = await box.boundingBox();
    const se = await box.locator('[data-handle="se"]').boundingBox();
    if (!before || !se) throw new Error('No crop box');
    const cdp = await page.context().newCDPSession(page);
    const from = { x: se.x + 8, y: se.y + 8 };
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [from] });
    for (let i = 1; i <= 5; i++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: from.x - 6 * i, y: from.y - 4 * i }] });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    const after = await box.boundingBox();
    expect(after?.width).toBeCloseTo(before.width - 30, 0);
    expect(after?.height).toBeCloseTo(before.height - 20, 0);
  });
});
