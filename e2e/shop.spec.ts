/**
 * The merch shop: a product made through the API from two screenshots of a seeded video, then
 * the product page (screenshot grid, live mockups that follow every option, prices that follow
 * the size, print quality), the cart (adding, surviving a reload, deleting), a product that
 * does not exist, and the categories page asking for a sign-in before browsing. Expectations
 * are computed from the API's own catalogue data.
 */
import { randomUUID } from 'node:crypto';
import { expect, test, type Locator, type Page } from '@playwright/test';
import sharp from 'sharp';
import { formatCents } from '../shared/money.ts';
import { dpiLevel } from '../shared/print.ts';
import type { CatalogueProductReply } from '../shared/schemas/catalogue.ts';
import type { createProductRoute, productRoute, browseProductsRoute } from '../shared/schemas/products.ts';
import type { ReplyOf } from '../shared/schemas/route.ts';
import { PASSWORD, sameSite, signUp, uniqueEmail } from './support/accounts.ts';
import { seededVideo } from './support/videos.ts';

type ProductReply = ReplyOf<typeof productRoute>;

const CATEGORY = 'mens';

/** A JPEG data URL: two colour halves, so every screenshot draws differently. */
async function screenshot(width: number, height: number, left: string, right: string): Promise<string> {
  const half = Math.floor(width / 2);
  const jpeg = await sharp({ create: { width, height, channels: 3, background: left } })
    .composite([{ input: await sharp({ create: { width: width - half, height, channels: 3, background: right } }).png().toBuffer(), left: half, top: 0 }])
    .jpeg({ quality: 90 })
    .toBuffer();
  return `data:image/jpeg;base64,${jpeg.toString('base64')}`;
}

/** Signs up and makes a product of two screenshots (small, then large) through the API. */
async function makeProduct(page: Page, small: { width: number; height: number }, large: { width: number; height: number }, category = CATEGORY): Promise<ProductReply> {
  await signUp(page);
  const video = await seededVideo(page.request);
  const response = await page.request.post('/api/create-product', {
    headers: sameSite(),
    data: {
      videoUrl: video.video_url,
      thumbnail: video.thumbnail_url,
      screenshots: [await screenshot(small.width, small.height, '#d01010', '#1040d0'), await screenshot(large.width, large.height, '#10a040', '#f0d020')],
      screenshot_timestamp: 1,
      videoTitle: video.title,
      creatorName: video.channel_title ?? 'Creator',
      category,
    },
  });
  expect(response.status()).toBe(200);
  const created = (await response.json()) as ReplyOf<typeof createProductRoute>;
  const reply = await page.request.get(`/api/product/${created.product_id}`);
  expect(reply.status()).toBe(200);
  return (await reply.json()) as ProductReply;
}

const card = (page: Page, name: string) => page.getByRole('article', { name, exact: true });
const canvasOf = (c: Locator) => c.locator('canvas');
const pixels = (c: Locator) => canvasOf(c).evaluate((canvas: HTMLCanvasElement) => canvas.toDataURL('image/png'));

/** Waits for the mockup to hold this image, then reads its pixels. */
async function mockupWith(c: Locator, imageUrl: string): Promise<string> {
  await expect(canvasOf(c)).toHaveAttribute('data-image', new RegExp(`${imageUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
  return pixels(c);
}

const areaOf = (p: CatalogueProductReply, size: string) => p.print_area_by_size[size] ?? p.print_area;
const dpiOf = (image: { width: number; height: number }, area: { width_in: number; height_in: number }) =>
  Math.floor(Math.max(image.width / area.width_in, image.height / area.height_in) + 1e-9);
/** The card's print-quality badge shows this DPI, at the level of that DPI. */
async function expectBadge(c: Locator, dpi: number) {
  const badge = c.locator('.dpi-badge');
  await expect(badge).toHaveText(new RegExp(` ${dpi} DPI$`));
  await expect(badge).toHaveAttribute('data-level', dpiLevel(dpi));
}

test('the product page: screenshots, live mockups, prices by size, print quality, and a cart that survives a reload', async ({ page }) => {
  test.setTimeout(90_000);
  // A 4K frame, the largest a video has: 3840 px across 11.5 in is over 300 DPI on the base print area.
  const data = await makeProduct(page, { width: 320, height: 180 }, { width: 3840, height: 2160 });
  const { product, products } = data;
  expect(product.thumbnail_url, 'the seeded video has a thumbnail').not.toBeNull();
  expect(product.screenshots).toHaveLength(2);
  expect(products.length).toBeGreaterThan(1);

  await page.goto(`/product/${product.id}`);
  await expect(page.getByText('Make Merchandise - Create custom products with your screenshot')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(product.video_title);

  // The grid: the thumbnail and the two screenshots, the first screenshot chosen.
  const grid = page.getByRole('group', { name: 'Select Your Screenshot' });
  await expect(grid.getByRole('radio')).toHaveCount(3);
  await expect(grid.getByRole('radio', { name: 'Screenshot 1' })).toBeChecked();
  await expect(page.getByRole('article')).toHaveCount(products.length);
  await expect(page.getByRole('article').getByRole('heading')).toHaveText(products.map((p) => p.name));

  // A product sold in sizes with a surcharge, in more than one colour.
  const tee = products.find((p) => Object.keys(p.size_surcharges_cents).length > 0 && p.colours.length > 1);
  if (!tee) throw new Error('The category needs a product with size surcharges and colours');
  const other = products.find((p) => p.sku !== tee.sku)!;
  const teeCard = card(page, tee.name);
  const sizeSelect = teeCard.getByLabel('Size');
  const size = await sizeSelect.inputValue();

  // The small screenshot on a garment: a low-resolution warning with its real DPI.
  const small = product.screenshot_sizes[0]!;
  const smallDpi = dpiOf(small, areaOf(tee, size));
  expect(smallDpi).toBeLessThan(150);
  await expectBadge(teeCard, smallDpi);
  await expect(teeCard.locator('.product-card__hint')).toBeVisible();
  const first = await mockupWith(teeCard, product.screenshots[0]!);

  // Switching screenshots redraws the mockup and the print quality.
  await grid.getByRole('radio', { name: 'Screenshot 2' }).check();
  const second = await mockupWith(teeCard, product.screenshots[1]!);
  expect(second).not.toBe(first);
  const large = product.screenshot_sizes[1]!;
  await expectBadge(teeCard, dpiOf(large, areaOf(tee, size)));
  await expect(teeCard.locator('.product-card__hint')).toHaveCount(0);

  await grid.getByRole('radio', { name: 'Thumbnail' }).check();
  const thumb = await mockupWith(teeCard, product.thumbnail_url!);
  expect(thumb).not.toBe(second);
  await grid.getByRole('radio', { name: 'Screenshot 2' }).check();
  expect(await mockupWith(teeCard, product.screenshots[1]!)).toBe(second);

  // A colour change redraws at once.
  const colour = tee.colours[1]!;
  await teeCard.getByLabel('Color').selectOption(colour);
  const recoloured = await pixels(teeCard);
  expect(recoloured).not.toBe(second);
  await expect(canvasOf(teeCard)).toHaveAccessibleName(new RegExp(`in ${colour}`));

  // The price follows the size's surcharge, and the print area of that size.
  await expect(teeCard.getByText(formatCents(tee.price_cents + (tee.size_surcharges_cents[size] ?? 0)), { exact: true })).toBeVisible();
  const [surchargedSize, surcharge] = Object.entries(tee.size_surcharges_cents).find(([, cents]) => cents > 0)!;
  await sizeSelect.selectOption(surchargedSize);
  await expect(teeCard.getByText(formatCents(tee.price_cents + surcharge), { exact: true })).toBeVisible();
  await expectBadge(teeCard, dpiOf(large, areaOf(tee, surchargedSize)));

  // Three items: the tee twice (two colours) and another product.
  await teeCard.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(teeCard.getByRole('status')).toHaveText('Added to cart!');
  await teeCard.getByLabel('Color').selectOption(tee.colours[0]!);
  await teeCard.getByRole('button', { name: 'Add to Cart' }).click();
  const otherCard = card(page, other.name);
  await otherCard.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(otherCard.getByRole('status')).toHaveText('Added to cart!');
  await expect(page.getByRole('button', { name: 'Cart, 3 items' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'View Cart (3)' })).toHaveCount(2);
  await expect(page.getByRole('link', { name: 'Checkout' })).toHaveCount(2);

  // The cart is kept across a reload.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Cart, 3 items' })).toBeVisible();
  await page.getByRole('button', { name: 'View Cart (3)' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Your Cart' });
  const items = dialog.getByRole('list', { name: 'Cart items' }).getByRole('listitem');
  await expect(items).toHaveCount(3);
  await expect(items.nth(0)).toContainText(tee.name);
  await expect(items.nth(0)).toContainText(`Color: ${colour}`);
  await expect(items.nth(0)).toContainText(`Size: ${surchargedSize}`);
  await expect(items.nth(0)).toContainText(formatCents(tee.price_cents + surcharge));
  await expect(items.nth(0).getByRole('img', { name: 'Screenshot to print' })).toHaveAttribute('src', product.screenshots[1]!);
  await expect(items.nth(2)).toContainText(other.name);

  await items.nth(1).getByRole('button', { name: /^Delete / }).click();
  await expect(items).toHaveCount(2);
  await expect(items.nth(1)).toContainText(other.name);

  // Quantities change in the cart: the line's price, the total and the count follow, and stay after a reload.
  const teeLine = items.nth(0);
  await expect(teeLine.getByRole('button', { name: /^Fewer / })).toBeDisabled();
  await teeLine.getByRole('button', { name: /^More / }).click();
  await teeLine.getByRole('button', { name: /^More / }).click();
  await expect(teeLine.getByRole('group', { name: /^Quantity of / })).toContainText('3');
  await expect(teeLine).toContainText(formatCents(3 * (tee.price_cents + surcharge)));
  await teeLine.getByRole('button', { name: /^Fewer / }).click();
  await expect(teeLine.getByRole('group', { name: /^Quantity of / })).toContainText('2');
  await expect(page.getByRole('button', { name: 'Cart, 3 items' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Cart, 3 items' })).toBeVisible();
  await page.getByRole('button', { name: 'View Cart (3)' }).first().click();
  await expect(items.nth(0).getByRole('group', { name: /^Quantity of / })).toContainText('2');
  await expect(dialog.getByRole('link', { name: 'Checkout' })).toHaveAttribute('href', '/checkout');
  await dialog.getByRole('button', { name: 'Continue Shopping' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'Cart, 3 items' })).toBeVisible();
});

test("the thumbnails category sells photo prints of the video's thumbnail, judged by the print-size minimums", async ({ page }) => {
  const reply = await makeProduct(page, { width: 320, height: 180 }, { width: 640, height: 360 }, 'thumbnails');
  const thumb = reply.product.thumbnail_size!;
  const print = reply.products.find((p) => p.sku === 'photo-print')!;
  expect(print.sizes).toEqual(['4x6', '5x7', '8x10', '11x14']);
  await page.goto(`/product/${reply.product.id}`);
  const photo = card(page, print.name);
  // The thumbnail is chosen first, and the mockup draws it.
  await mockupWith(photo, reply.product.thumbnail_url!);
  const long = Math.max(thumb.width, thumb.height);
  const short = Math.min(thumb.width, thumb.height);
  for (const [size, minW, minH] of [['4x6', 1200, 1800], ['11x14', 3300, 4200]] as const) {
    await photo.getByLabel('Size').selectOption(size);
    const ok = short >= minW && long >= minH;
    await expect(photo.getByText(`${size} print: ${ok ? 'OK for Print' : 'Too Small for Print'} (needs ${minW} × ${minH} px)`)).toBeVisible();
  }
});

test('an unknown or malformed product id is Product Not Found', async ({ page }) => {
  const id = randomUUID();
  expect((await page.request.get(`/api/product/${id}`)).status()).toBe(404);
  await page.goto(`/product/${id}`);
  await expect(page.getByRole('alert')).toContainText('Product Not Found');
  await page.goto('/product/not-a-product');
  await expect(page.getByRole('alert')).toContainText('Product Not Found');
});

test('a failed product fetch offers Retry and the categories, and Retry loads the product', async ({ page }) => {
  test.setTimeout(60_000);
  const { product } = await makeProduct(page, { width: 640, height: 360 }, { width: 1280, height: 720 });
  let fail = true;
  await page.route(`**/api/product/${product.id}`, (route) =>
    fail ? route.fulfill({ status: 500, contentType: 'text/plain', body: 'upstream exploded' }) : route.continue(),
  );
  await page.goto(`/product/${product.id}`);
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Error Loading Product');
  await expect(alert).toContainText('Failed to fetch product data: 500 - upstream exploded');
  await expect(alert.getByRole('navigation', { name: 'Merchandise categories' }).getByRole('link')).toHaveCount(11);
  fail = false;
  await alert.getByRole('button', { name: 'Retry' }).click();
  const radios = page.getByRole('group', { name: 'Select Your Screenshot' }).getByRole('radio');
  await expect(radios).toHaveCount(3);

  // Once seen, the product still shows when the server cannot be reached (asked twice), from this device's copy.
  let attempts = 0;
  await page.unroute(`**/api/product/${product.id}`);
  await page.route(`**/api/product/${product.id}`, (route) => {
    attempts += 1;
    return route.abort('internetdisconnected');
  });
  await page.reload();
  await expect(page.getByRole('status').filter({ hasText: 'Showing the copy saved on this device.' })).toBeVisible();
  await expect(radios).toHaveCount(3);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(product.video_title);
  expect(attempts).toBe(2);
});

test('choosing a category signed out asks for a sign-in, then shows the category to browse', async ({ page }) => {
  const browse = await page.request.get('/api/product/browse?category=mugs');
  const { products } = (await browse.json()) as ReplyOf<typeof browseProductsRoute>;
  expect(products.length).toBeGreaterThan(0);

  await page.goto('/merchandise');
  const categories = page.getByRole('list', { name: 'Merchandise categories' }).getByRole('button');
  await expect(categories).toHaveText(['All', "Women's", "Men's", 'Kids', 'Mugs', 'Hats', 'Bags', 'Pets', 'Stickers', 'Misc', 'Thumbnails']);
  await page.getByRole('button', { name: 'Mugs' }).click();

  const dialog = page.getByRole('dialog', { name: 'Login' });
  await expect(dialog).toContainText('Login Required');
  await dialog.getByRole('button', { name: 'Sign Up' }).click();
  const signUpDialog = page.getByRole('dialog', { name: 'Sign Up' });
  await signUpDialog.getByLabel('Email').fill(uniqueEmail('shopper'));
  await signUpDialog.getByLabel('Password').fill(PASSWORD);
  await signUpDialog.getByRole('button', { name: 'Sign Up' }).click();

  // Nothing was captured in this browser, so the category opens for browsing.
  await expect(page).toHaveURL(/\/product\/browse\?category=mugs&authenticated=true/);
  await expect(page.getByRole('article').getByRole('heading')).toHaveText(products.map((p) => p.name));
  await expect(page.getByRole('note')).toContainText('you need a screenshot from a video');
  await expect(page.getByRole('article').first().getByRole('button', { name: 'Add to Cart' })).toBeDisabled();
  // Mugs offer a handle colour, and its outline is drawn without a screenshot.
  const mug = page.getByRole('article').first();
  await expect(mug.getByLabel('Handle Color')).toBeVisible();
  const before = await pixels(mug);
  await mug.getByLabel('Handle Color').selectOption((products[0]!.handle_colours[1])!);
  expect(await pixels(mug)).not.toBe(before);
});

/**
 * Puts a pending merch record in this browser, as the video page keeps it (IndexedDB
 * 'framemerch-pending-merch', version 1 records with the screenshots as Blobs).
 */
async function seedPendingMerch(page: Page, video: { videoId: string; videoUrl: string; thumbnail: string | null; title: string }, jpeg: string) {
  await page.evaluate(
    async ({ video, jpeg }) => {
      const blob = await (await fetch(jpeg)).blob();
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open('framemerch-pending-merch');
        open.onupgradeneeded = () => open.result.createObjectStore('records');
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      const record = {
        version: 1,
        videoId: video.videoId,
        videoUrl: video.videoUrl,
        thumbnail: video.thumbnail,
        videoTitle: video.title,
        creatorName: 'Creator',
        screenshots: [{ id: 'shot-1', blob, width: 800, height: 450, source: 'canvas', timestamp: 2.5 }],
        screenshot_timestamp: 2.5,
      };
      await new Promise<void>((resolve, reject) => {
        const tx = db.transaction('records', 'readwrite');
        tx.objectStore('records').put(record, 'current');
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      });
      db.close();
    },
    { video, jpeg },
  );
}

test('choosing a category signed in makes the pending screenshots into a product of that category', async ({ page }) => {
  await signUp(page);
  const video = await seededVideo(page.request);
  await page.goto('/merchandise');
  await seedPendingMerch(page, { videoId: video.id, videoUrl: video.video_url!, thumbnail: video.thumbnail_url, title: video.title }, await screenshot(800, 450, '#ff8800', '#0088ff'));

  await page.getByRole('button', { name: 'Hats' }).click();
  await expect(page).toHaveURL(/\/product\/[0-9a-f-]{36}\?category=hats$/);
  const id = new URL(page.url()).pathname.split('/').pop()!;
  const reply = await page.request.get(`/api/product/${id}`);
  const { product, products } = (await reply.json()) as ProductReply;
  expect(product.category).toBe('hats');
  expect(product.screenshot_sizes).toEqual([{ width: 800, height: 450 }]);
  await expect(page.getByRole('group', { name: 'Select Your Screenshot' }).getByRole('radio')).toHaveCount(1 + (product.thumbnail_url ? 1 : 0));
  await expect(page.getByRole('article').getByRole('heading')).toHaveText(products.map((p) => p.name));
});

test('a refused product creation shows the server reason in the spec words', async ({ page }) => {
  await signUp(page);
  const video = await seededVideo(page.request);
  await page.goto('/merchandise');
  // A video address that is not on this site: the server refuses it.
  await seedPendingMerch(page, { videoId: video.id, videoUrl: 'https://elsewhere.example/clip.mp4', thumbnail: null, title: video.title }, await screenshot(64, 36, '#000000', '#ffffff'));
  await page.getByRole('button', { name: 'Stickers' }).click();
  await expect(page.getByRole('alert')).toHaveText('Failed to create merch product page: Only videos on this site can be made into merch.');
  await expect(page).toHaveURL(/\/merchandise$/);
});
