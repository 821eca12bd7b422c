/**
 * The video page's screenshots: the thumbnail in slot 1, five captured frames, the limit of
 * six, deleting, the crop box over the player, the print crop tool on a screenshot, the pending
 * screenshots surviving a reload, and the phone layout's counter. The video is a seeded one,
 * read from the API.
 */
import { createHash } from 'node:crypto';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { MAX_SCREENSHOTS } from '../shared/constants.ts';
import { effectiveDpi, type Size } from '../shared/print.ts';
import { storedScreenshot } from './support/qaCapture.ts';
import { seededVideos, type SeededVideo } from './support/videos.ts';

// Capturing, cropping and print files are real pixel work, slower than page checks on a busy machine.
test.describe.configure({ timeout: 60_000 });

const MAX_MESSAGE = 'Maximum 6 screenshots allowed. Please delete some screenshots first.';

/** Seeded videos that can be captured (a playable file and a thumbnail), at least two. */
async function capturableVideos(page: Page): Promise<SeededVideo[]> {
  const videos = await seededVideos(page.request);
  expect(videos.length, 'the seed has capturable videos').toBeGreaterThan(1);
  return videos;
}

const slots = (page: Page) => page.getByRole('list', { name: 'Screenshots' }).getByRole('listitem');
const shots = (page: Page) => page.getByRole('list', { name: 'Screenshots' }).getByRole('img');
const shot = (page: Page, n: number) => page.getByRole('img', { name: `Screenshot ${n}`, exact: true });
const selectScreenshot = (page: Page) => page.getByRole('button', { name: 'Select Screenshot', exact: true });
const step = (page: Page, n: number) => page.getByRole('list', { name: 'Merch steps' }).getByRole('listitem').nth(n - 1);

async function openVideo(page: Page, video: SeededVideo) {
  await page.goto(`/video/${video.category_id}/${video.id}`);
  await expect(page.getByRole('heading', { level: 1, name: video.title })).toBeVisible();
  await expect(slots(page)).toHaveCount(MAX_SCREENSHOTS);
  // Slot 1 is the thumbnail; the rest are empty.
  await expect(shot(page, 1)).toHaveAttribute('data-source', 'thumbnail');
  await expect(selectScreenshot(page)).toBeEnabled();
}

/** The <video> paused at `seconds`, the frame decoded. */
async function seek(page: Page, seconds: number) {
  await page.locator('video').evaluate(async (video: HTMLVideoElement, t) => {
    video.pause();
    if (Math.abs(video.currentTime - t) < 1e-6) return;
    await new Promise<void>((resolve) => {
      video.addEventListener('seeked', () => resolve(), { once: true });
      video.currentTime = t;
    });
  }, seconds);
}

async function videoFacts(page: Page) {
  return page.locator('video').evaluate((video: HTMLVideoElement) => ({
    duration: video.duration,
    width: video.videoWidth,
    height: video.videoHeight,
  }));
}

async function naturalSize(img: Locator): Promise<Size> {
  await expect(img).toHaveJSProperty('complete', true);
  return img.evaluate((el: HTMLImageElement) => ({ width: el.naturalWidth, height: el.naturalHeight }));
}

/** A digest of the image bytes behind an <img>, to tell frames apart. */
async function imageDigest(img: Locator): Promise<string> {
  return img.evaluate(async (el: HTMLImageElement) => {
    const bytes = await (await fetch(el.src)).arrayBuffer();
    const digest = await crypto.subtle.digest('SHA-256', bytes);
    return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
  });
}

/** Where the picture is drawn inside the <video> box (object-fit: contain), in page pixels, measured here independently of the app. */
async function pictureBox(page: Page) {
  const box = await page.locator('video').boundingBox();
  if (!box) throw new Error('No video on the page');
  const { width, height } = await videoFacts(page);
  const scale = Math.min(box.width / width, box.height / height);
  const w = width * scale;
  const h = height * scale;
  return { x: box.x + (box.width - w) / 2, y: box.y + (box.height - h) / 2, width: w, height: h, videoPerDisplay: width / w };
}

async function drag(page: Page, from: { x: number; y: number }, dx: number, dy: number) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + dx, from.y + dy, { steps: 6 });
  await page.mouse.up();
}

const parseSize = (text: string | null): Size => {
  const match = /(\d+) × (\d+) px/.exec(text ?? '');
  if (!match) throw new Error(`No pixel size in ${JSON.stringify(text)}`);
  return { width: Number(match[1]), height: Number(match[2]) };
};

async function sources(page: Page) {
  return shots(page).evaluateAll((imgs) => imgs.map((img) => [img.getAttribute('data-source'), img.getAttribute('data-timestamp')]));
}

test('six screenshots, the limit, delete, crop on the player, print file, and a reload keeps them', async ({ page }) => {
  test.setTimeout(150_000);
  const [video] = await capturableVideos(page);
  if (!video) throw new Error('No capturable video');
  await openVideo(page, video);

  await expect(shot(page, 1)).toHaveAttribute('data-timestamp', '');
  await expect(page.getByRole('list', { name: 'Screenshots' }).getByText('No screenshot')).toHaveCount(MAX_SCREENSHOTS - 1);
  // Only the thumbnail: the pulse is on step 2.
  await expect(step(page, 2)).toHaveAttribute('aria-current', 'step');
  await expect(step(page, 2)).toHaveClass(/merch-steps__step--pulse/);
  await expect(step(page, 3)).not.toHaveAttribute('aria-current', 'step');
  // The round counter is for phones only.
  await expect(page.getByRole('status', { name: 'Screenshot count' })).toBeHidden();
  // The thumbnail alone is enough to make merch from (e2e/make-merch.spec.ts follows it through).
  await expect(page.getByRole('button', { name: 'Make Merch', exact: true })).toBeEnabled();

  const facts = await videoFacts(page);
  expect(facts.duration).toBeGreaterThan(1);
  const times = [0.1, 0.3, 0.5, 0.7, 0.9].map((f) => Math.round(facts.duration * f * 100) / 100);

  for (const [i, t] of times.entries()) {
    await seek(page, t);
    if (i === 0) {
      // Two clicks in the same instant make one screenshot: a capture under way blocks the next.
      await selectScreenshot(page).evaluate((button: HTMLButtonElement) => {
        button.click();
        button.click();
      });
    } else {
      await selectScreenshot(page).click();
    }
    const img = shot(page, i + 2);
    await expect(img).toHaveAttribute('data-source', /^(canvas|wasm|server)$/);
    await expect(shots(page)).toHaveCount(i + 2);
    expect(Number(await img.getAttribute('data-timestamp'))).toBeCloseTo(t, 1);
    // The slot shows a small preview of the frame; the record keeps the frame at the video's own size.
    const stored = await storedScreenshot(page, i + 2);
    expect({ width: stored.width, height: stored.height }).toEqual({ width: facts.width, height: facts.height });
    expect(stored.timestamp).toBe(Number(await img.getAttribute('data-timestamp')));
    expect(stored.preview).toEqual(await naturalSize(img));
    expect(stored.preview!.width).toBeLessThanOrEqual(facts.width);
    await expect(selectScreenshot(page)).toBeEnabled();
    // More than one screenshot: the pulse moves to step 3.
    await expect(step(page, 3)).toHaveAttribute('aria-current', 'step');
    await expect(step(page, 2)).not.toHaveAttribute('aria-current', 'step');
  }
  await expect(page.getByText('No screenshot')).toHaveCount(0);

  // Six different pictures, on screen and stored.
  const digests = await Promise.all(Array.from({ length: MAX_SCREENSHOTS }, (_, i) => imageDigest(shot(page, i + 1))));
  expect(new Set(digests).size).toBe(MAX_SCREENSHOTS);
  const storedDigests = await Promise.all(Array.from({ length: MAX_SCREENSHOTS }, async (_, i) => (await storedScreenshot(page, i + 1)).digest));
  expect(new Set(storedDigests).size).toBe(MAX_SCREENSHOTS);

  // A seventh is refused with the spec's message in a red toast.
  await selectScreenshot(page).click();
  const toast = page.getByRole('alert').filter({ hasText: MAX_MESSAGE });
  await expect(toast).toBeVisible();
  await expect(shots(page)).toHaveCount(MAX_SCREENSHOTS);

  // Delete screenshot 3: five remain, an empty slot shows, and its image address stops working
  // (a fresh capture's slot shows its preview from a data: URL, which holds nothing once the
  // image is gone; an object URL must be revoked).
  const deletedSrc = await shot(page, 3).getAttribute('src');
  const third = await sources(page);
  await page.getByRole('button', { name: 'Delete screenshot 3', exact: true }).click();
  await expect(shots(page)).toHaveCount(MAX_SCREENSHOTS - 1);
  await expect(page.getByText('No screenshot')).toHaveCount(1);
  expect(await sources(page)).toEqual([...third.slice(0, 2), ...third.slice(3)]);
  expect(deletedSrc, 'the slot shows an image made in the page').toMatch(/^(blob|data):/);
  if (deletedSrc?.startsWith('blob:')) {
    await expect
      .poll(() => page.evaluate((src) => fetch(src ?? '').then(() => 'loads', () => 'revoked'), deletedSrc), { timeout: 5_000 })
      .toBe('revoked');
  }
  // The toast goes by itself.
  await expect(toast).toBeHidden({ timeout: 6_000 });

  // The print crop tool on a captured frame works on the full-resolution frame, not the slot's preview.
  await page.getByRole('button', { name: 'Crop screenshot 2', exact: true }).click();
  const frameTool = page.getByRole('dialog', { name: 'Simple Print Crop Tool' });
  expect(await naturalSize(frameTool.getByRole('img', { name: 'Image to crop' }))).toEqual({ width: facts.width, height: facts.height });
  await frameTool.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(frameTool).toBeHidden();

  // Crop mode: the default box is 200 display pixels square, centred on the picture.
  await seek(page, times[2]!);
  await page.getByRole('button', { name: 'Crop Mode', exact: true }).click();
  const cropBox = page.getByRole('group', { name: 'Crop box' });
  await expect(cropBox).toBeVisible();
  // The whole player on screen, clear of the sticky navbar, for the drags below.
  await page.locator('video').evaluate((el) => el.scrollIntoView({ block: 'center' }));
  const picture = await pictureBox(page);
  const initial = await cropBox.boundingBox();
  if (!initial) throw new Error('No crop box');
  expect(initial.width).toBeCloseTo(200, 0);
  expect(initial.height).toBeCloseTo(200, 0);
  expect(initial.x + initial.width / 2).toBeCloseTo(picture.x + picture.width / 2, 0);
  expect(initial.y + initial.height / 2).toBeCloseTo(picture.y + picture.height / 2, 0);
  const readout = page.getByRole('status', { name: 'Crop size' });
  const side = Math.round(200 * picture.videoPerDisplay);
  await expect(readout).toHaveText(`${side} × ${side} px`);

  // Move it up and left, then grow it from the south-east corner.
  await drag(page, { x: initial.x + initial.width / 2, y: initial.y + initial.height / 2 }, -60, -40);
  const moved = await cropBox.boundingBox();
  if (!moved) throw new Error('No crop box');
  expect(moved.x).toBeCloseTo(initial.x - 60, 0);
  expect(moved.y).toBeCloseTo(initial.y - 40, 0);
  await drag(page, { x: moved.x + moved.width - 2, y: moved.y + moved.height - 2 }, 80, 30);
  const resized = await cropBox.boundingBox();
  if (!resized) throw new Error('No crop box');
  expect(resized.x).toBeCloseTo(moved.x, 0);
  expect(resized.width).toBeCloseTo(280, 0);
  expect(resized.height).toBeCloseTo(230, 0);
  // Dragging far past the picture's corner stops at its edge.
  await drag(page, { x: resized.x + resized.width / 2, y: resized.y + resized.height / 2 }, -2000, -2000);
  const cornered = await cropBox.boundingBox();
  if (!cornered) throw new Error('No crop box');
  expect(cornered.x).toBeCloseTo(picture.x, 0);
  expect(cornered.y).toBeCloseTo(picture.y, 0);

  const cropSize = parseSize(await readout.textContent());
  // The box, measured on screen and mapped to the video's own pixels, is what the readout says (to rounding).
  expect(Math.abs(cropSize.width - cornered.width * picture.videoPerDisplay)).toBeLessThanOrEqual(2);
  expect(Math.abs(cropSize.height - cornered.height * picture.videoPerDisplay)).toBeLessThanOrEqual(2);

  await page.getByRole('button', { name: 'Apply Crop', exact: true }).click();
  await expect(cropBox).toBeHidden();
  const cropped = shot(page, MAX_SCREENSHOTS);
  await expect(cropped).toHaveAttribute('data-source', 'crop');
  expect(Number(await cropped.getAttribute('data-timestamp'))).toBeCloseTo(times[2]!, 1);
  expect(await naturalSize(cropped)).toEqual(cropSize);

  // The print crop tool on the crop: a few hundred pixels make no 4x6 in print file, and it says so.
  await page.getByRole('button', { name: `Crop screenshot ${MAX_SCREENSHOTS}`, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Simple Print Crop Tool' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Print size').selectOption({ label: '4x6 in' });
  await expect(dialog.getByRole('status', { name: 'Crop size' })).toHaveText(/\d+ × \d+ px/);
  const toolCrop = parseSize(await dialog.getByRole('status', { name: 'Crop size' }).textContent());
  const dpi = effectiveDpi(toolCrop, { widthIn: 6, heightIn: 4 });
  expect(dpi).toBeLessThan(150);
  await expect(dialog.getByRole('status', { name: 'Effective DPI' })).toHaveText(String(dpi));
  await dialog.getByRole('button', { name: 'Apply Feather & Generate Print Quality' }).click();
  await expect(dialog.getByRole('alert')).toContainText(`Too small to print well at 4x6 in: this crop gives ${dpi} DPI`);
  await expect(page.getByText('Feather effect applied and print quality image generated!')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('figure', { name: 'Print file' })).toHaveCount(0);
  // The print file is not a screenshot.
  await expect(shots(page)).toHaveCount(MAX_SCREENSHOTS);

  // A reload finds the same six screenshots, in order.
  const before = await sources(page);
  const beforeSizes = await Promise.all(before.map((_, i) => naturalSize(shot(page, i + 1))));
  await page.reload();
  await expect(shots(page)).toHaveCount(MAX_SCREENSHOTS);
  expect(await sources(page)).toEqual(before);
  expect(await Promise.all(before.map((_, i) => naturalSize(shot(page, i + 1))))).toEqual(beforeSizes);
  await expect(step(page, 3)).toHaveAttribute('aria-current', 'step');

  // Images read back from IndexedDB are shown through object URLs, revoked once deleted.
  const reloadedSrc = await shot(page, 2).getAttribute('src');
  expect(reloadedSrc).toMatch(/^blob:/);
  await page.getByRole('button', { name: 'Delete screenshot 2', exact: true }).click();
  await expect(shots(page)).toHaveCount(MAX_SCREENSHOTS - 1);
  await expect
    .poll(() => page.evaluate((src) => fetch(src ?? '').then(() => 'loads', () => 'revoked'), reloadedSrc), { timeout: 5_000 })
    .toBe('revoked');
});

test('Apply Crop from the print crop tool adds the crop as a new screenshot; Cancel leaves crop mode', async ({ page }) => {
  const [video] = await capturableVideos(page);
  if (!video) throw new Error('No capturable video');
  await openVideo(page, video);

  await page.getByRole('button', { name: 'Crop Mode', exact: true }).click();
  await expect(page.getByRole('group', { name: 'Crop box' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(page.getByRole('group', { name: 'Crop box' })).toHaveCount(0);
  await expect(shots(page)).toHaveCount(1);

  await page.getByRole('button', { name: 'Crop screenshot 1', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Simple Print Crop Tool' });
  const crop = parseSize(await dialog.getByRole('status', { name: 'Crop size' }).textContent());
  await dialog.getByRole('button', { name: 'Apply Crop', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(shot(page, 2)).toHaveAttribute('data-source', 'crop');
  expect(await naturalSize(shot(page, 2))).toEqual(crop);
  await expect(step(page, 3)).toHaveAttribute('aria-current', 'step');
});

test('the crop box keeps to the picture when bars surround it', async ({ page }) => {
  const [video] = await capturableVideos(page);
  if (!video) throw new Error('No capturable video');
  await openVideo(page, video);
  // A square frame around the 16:9 picture: bars above and below it, as a wider video would have.
  await page.locator('.player').evaluate((el: HTMLElement) => {
    el.style.aspectRatio = '1';
    el.style.maxWidth = '600px';
  });
  await page.getByRole('button', { name: 'Crop Mode', exact: true }).click();
  const cropBox = page.getByRole('group', { name: 'Crop box' });
  await expect(cropBox).toBeVisible();
  await page.locator('video').evaluate((el) => el.scrollIntoView({ block: 'center' }));
  const picture = await pictureBox(page);
  const frame = await page.locator('video').boundingBox();
  if (!frame) throw new Error('No video');
  expect(picture.y - frame.y).toBeGreaterThan(50);

  const start = await cropBox.boundingBox();
  if (!start) throw new Error('No crop box');
  expect(start.y + start.height / 2).toBeCloseTo(picture.y + picture.height / 2, 0);
  // Dragged up past the picture, the box stops at the picture's top edge, not the frame's.
  await drag(page, { x: start.x + start.width / 2, y: start.y + start.height / 2 }, 0, -400);
  const top = await cropBox.boundingBox();
  expect(top?.y).toBeCloseTo(picture.y, 0);
  // A corner dragged past the bottom stops at the picture's bottom edge.
  if (!top) throw new Error('No crop box');
  await drag(page, { x: top.x + top.width - 2, y: top.y + top.height - 2 }, 0, 600);
  const tall = await cropBox.boundingBox();
  if (!tall) throw new Error('No crop box');
  expect(tall.y + tall.height).toBeCloseTo(picture.y + picture.height, 0);

  // Touching the top and bottom edges: the crop is the picture's full height in video pixels.
  const { height } = await videoFacts(page);
  const readout = parseSize(await page.getByRole('status', { name: 'Crop size' }).textContent());
  expect(readout.height).toBe(height);
  await page.getByRole('button', { name: 'Apply Crop', exact: true }).click();
  await expect(shot(page, 2)).toHaveAttribute('data-source', 'crop');
  expect(await naturalSize(shot(page, 2))).toEqual(readout);
});

test('opening another video starts again from its thumbnail', async ({ page }) => {
  const [first, second] = await capturableVideos(page);
  if (!first || !second) throw new Error('Two capturable videos are needed');
  await openVideo(page, first);
  await selectScreenshot(page).click();
  await expect(shots(page)).toHaveCount(2);
  const firstThumb = await imageDigest(shot(page, 1));

  await openVideo(page, second);
  await expect(shots(page)).toHaveCount(1);
  await expect(step(page, 2)).toHaveAttribute('aria-current', 'step');
  // Slot 1 holds exactly the second video's thumbnail.
  const thumbnail = await page.request.get(second.thumbnail_url ?? '');
  expect(thumbnail.status()).toBe(200);
  const secondThumb = await imageDigest(shot(page, 1));
  expect(secondThumb).toBe(createHash('sha256').update(await thumbnail.body()).digest('hex'));
  expect(secondThumb).not.toBe(firstThumb);

  // Only the latest video's screenshots are kept: the first one starts over too.
  await openVideo(page, first);
  await expect(shots(page)).toHaveCount(1);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('a round counter shows how many screenshots there are', async ({ page }) => {
    const [video] = await capturableVideos(page);
    if (!video) throw new Error('No capturable video');
    await openVideo(page, video);
    const counter = page.getByRole('status', { name: 'Screenshot count' });
    await expect(counter).toBeVisible();
    await expect(counter).toHaveText('1');
    await selectScreenshot(page).tap();
    await expect(shots(page)).toHaveCount(2);
    await expect(counter).toHaveText('2');
    const box = await counter.boundingBox();
    expect(box?.width).toBeCloseTo(box?.height ?? 0, 0);
  });

  test('the crop box moves and resizes by touch', async ({ page }) => {
    const [video] = await capturableVideos(page);
    if (!video) throw new Error('No capturable video');
    await openVideo(page, video);
    await page.getByRole('button', { name: 'Crop Mode', exact: true }).tap();
    const cropBox = page.getByRole('group', { name: 'Crop box' });
    await expect(cropBox).toBeVisible();
    await page.locator('video').evaluate((el) => el.scrollIntoView({ block: 'center' }));
    const picture = await pictureBox(page);
    const start = await cropBox.boundingBox();
    if (!start) throw new Error('No crop box');
    // The default box, kept inside the phone's smaller picture.
    expect(start.height).toBeCloseTo(Math.min(200, picture.height), 0);
    expect(start.width).toBeCloseTo(Math.min(200, picture.width), 0);

    const cdp = await page.context().newCDPSession(page);
    const touchDrag = async (from: { x: number; y: number }, dx: number, dy: number) => {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: from.x, y: from.y }] });
      for (let i = 1; i <= 5; i++) {
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: from.x + (dx * i) / 5, y: from.y + (dy * i) / 5 }] });
      }
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    };

    // Shrink from the north-west corner, then move the smaller box right.
    await touchDrag({ x: start.x + 4, y: start.y + 4 }, 40, 30);
    const shrunk = await cropBox.boundingBox();
    if (!shrunk) throw new Error('No crop box');
    expect(shrunk.width).toBeCloseTo(start.width - 40, 0);
    expect(shrunk.height).toBeCloseTo(start.height - 30, 0);
    await touchDrag({ x: shrunk.x + shrunk.width / 2, y: shrunk.y + shrunk.height / 2 }, 25, 0);
    const moved = await cropBox.boundingBox();
    expect(moved?.x).toBeCloseTo(shrunk.x + 25, 0);
    expect(moved?.width).toBeCloseTo(shrunk.width, 0);
  });
});
