/**
 * Product pages by category: the categories page leads to one category's products (the
 * category in the address), a switcher moves between categories with the current one marked,
 * 'All' is one short section per category, and every card of a product made from a 720p frame
 * shows its effective DPI as the three-level badge, following the size and the screenshot
 * chosen. Expectations come from the API's own answers for each category.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import sharp from 'sharp';
import { dpiLevel } from '../shared/print.ts';
import type { CatalogueProductReply } from '../shared/schemas/catalogue.ts';
import type { browseProductsRoute, createProductRoute, productRoute } from '../shared/schemas/products.ts';
import type { ReplyOf } from '../shared/schemas/route.ts';
import { sameSite, signUp } from './support/accounts.ts';
import { seededVideo } from './support/videos.ts';

type BrowseReply = ReplyOf<typeof browseProductsRoute>;
type ProductReply = ReplyOf<typeof productRoute>;

/** The tallest a one-category page may be on a desktop, and the all-products page (it was about 10,000 px). */
const DESKTOP_CATEGORY_MAX_PX = 4_000;
const DESKTOP_ALL_MAX_PX = 8_000;

const names = (products: readonly CatalogueProductReply[]) => products.map((p) => p.name);
const cards = (page: Page) => page.getByRole('article');
const switcher = (page: Page) => page.getByRole('navigation', { name: 'Product categories' });
const pageHeight = (page: Page) => page.evaluate(() => document.documentElement.scrollHeight);

async function browse(page: Page, category: string): Promise<BrowseReply> {
  const reply = await page.request.get(`/api/product/browse?category=${category}`);
  expect(reply.status()).toBe(200);
  return (await reply.json()) as BrowseReply;
}

const frame = async (width: number, height: number, colour: string) =>
  `data:image/jpeg;base64,${(await sharp({ create: { width, height, channels: 3, background: colour } }).jpeg({ quality: 90 }).toBuffer()).toString('base64')}`;

/** A product of a 720p frame and a 4K frame, made through the API in a category. */
async function makeProduct(page: Page, category: string): Promise<ProductReply> {
  await signUp(page);
  const video = await seededVideo(page.request);
  const made = await page.request.post('/api/create-product', {
    headers: sameSite(),
    data: { videoUrl: video.video_url, screenshots: [await frame(1280, 720, '#c04020'), await frame(3840, 2160, '#2060c0')], category },
  });
  expect(made.status()).toBe(200);
  const { product_id } = (await made.json()) as ReplyOf<typeof createProductRoute>;
  return (await (await page.request.get(`/api/product/${product_id}`)).json()) as ProductReply;
}

const dpiOf = (image: { width: number; height: number }, p: CatalogueProductReply, size: string | null) => {
  const area = (size && p.print_area_by_size[size]) || p.print_area;
  return Math.floor(Math.max(image.width / area.width_in, image.height / area.height_in) + 1e-9);
};

/** The badge on a card: its level, and the DPI its text shows; the two must agree. */
async function badgeOf(card: Locator): Promise<{ level: string; dpi: number }> {
  const badge = card.locator('.dpi-badge');
  await expect(badge).toHaveCount(1);
  const level = (await badge.getAttribute('data-level'))!;
  const dpi = Number(/(\d+) DPI/.exec(await badge.innerText())?.[1]);
  expect(level, `${await badge.innerText()}`).toBe(dpiLevel(dpi));
  return { level, dpi };
}

/** Every card shows the DPI the screenshot gives its product in the size its Size select shows. */
async function expectBadges(page: Page, products: readonly CatalogueProductReply[], image: { width: number; height: number }) {
  await expect(cards(page).getByRole('heading')).toHaveText(names(products));
  for (const p of products) {
    const card = page.getByRole('article', { name: p.name, exact: true });
    const size = p.sizes.length > 0 ? await card.getByLabel('Size', { exact: true }).inputValue() : null;
    const { dpi } = await badgeOf(card);
    expect(dpi, `${p.name} ${size ?? ''}`).toBe(dpiOf(image, p, size));
  }
}

test('from the categories page to one category, then switching categories with the links and the keyboard', async ({ page }) => {
  await signUp(page);
  const mugs = await browse(page, 'mugs');
  const hats = await browse(page, 'hats');
  const all = await browse(page, 'all');

  await page.goto('/merchandise');
  await page.getByRole('list', { name: 'Merchandise categories' }).getByRole('button', { name: 'Mugs' }).click();
  await expect(page).toHaveURL(/\/product\/browse\?category=mugs/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Merchandise: Mugs');
  await expect(cards(page).getByRole('heading')).toHaveText(names(mugs.products));
  await expect(switcher(page).getByRole('link', { name: 'Mugs', exact: true })).toHaveAttribute('aria-current', 'page');
  await expect(switcher(page).locator('[aria-current]')).toHaveCount(1);
  expect(await pageHeight(page)).toBeLessThan(DESKTOP_CATEGORY_MAX_PX);
  // The spec's parts stay: the step marker, and View Cart and Checkout at the top and the bottom.
  await expect(page.getByText('Make Merchandise - Create custom products with your screenshot')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Checkout' })).toHaveCount(2);

  // The keyboard alone: Tab to Hats, Enter; the focus stays on the link while the category changes.
  const hatsLink = switcher(page).getByRole('link', { name: 'Hats', exact: true });
  await hatsLink.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/product\/browse\?category=hats/);
  await expect(cards(page).getByRole('heading')).toHaveText(names(hats.products));
  await expect(hatsLink).toHaveAttribute('aria-current', 'page');
  await expect(hatsLink).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(switcher(page).getByRole('link', { name: 'Bags' })).toBeFocused();

  // All: a section per category with its first products and a link to the rest; far shorter than every card.
  await switcher(page).getByRole('link', { name: 'All', exact: true }).click();
  await expect(page).toHaveURL(/category=all/);
  const categories = [...new Set(all.products.map((p) => p.category))];
  // One heading a category (the cards' own headings are a level below).
  await expect(page.getByRole('heading', { level: 3 })).toHaveCount(categories.length);
  const mens = all.products.filter((p) => p.category === 'mens');
  const mensSection = page.getByRole('region', { name: "Men's", exact: true });
  await expect(mensSection.getByRole('article').getByRole('heading')).toHaveText(names(mens.slice(0, 3)));
  await expect(cards(page)).toHaveCount(categories.reduce((n, c) => n + Math.min(3, all.products.filter((p) => p.category === c).length), 0));
  const allHeight = await pageHeight(page);
  expect(allHeight).toBeLessThan(DESKTOP_ALL_MAX_PX);
  await mensSection.getByRole('link', { name: `See all ${mens.length} Men's products` }).click();
  await expect(page).toHaveURL(/category=mens/);
  await expect(cards(page).getByRole('heading')).toHaveText(names(mens));
  test.info().annotations.push({ type: 'heights', description: `desktop all ${allHeight}px` });
});

test('every card of a product made from a 720p frame shows its DPI badge, following the size, the screenshot and the category', async ({ page }) => {
  test.setTimeout(90_000);
  const { product, products } = await makeProduct(page, 'mens');
  const [hd, uhd] = product.screenshot_sizes as [{ width: number; height: number }, { width: number; height: number }];
  expect(products.every((p) => p.category === 'mens')).toBe(true);

  // The product opens in its own category.
  await page.goto(`/product/${product.id}`);
  await expect(switcher(page).getByRole('link', { name: "Men's", exact: true })).toHaveAttribute('aria-current', 'page');
  await expectBadges(page, products, hd);
  // Calm: no red banner anywhere, a short plain hint where the DPI is low.
  await expect(page.getByText(/Print-on-demand providers hold orders/)).toHaveCount(0);
  const tee = products.find((p) => Object.keys(p.print_area_by_size).length > 0)!;
  const teeCard = page.getByRole('article', { name: tee.name, exact: true });
  expect((await badgeOf(teeCard)).level).toBe('low');
  await expect(teeCard.locator('.product-card__hint')).toHaveText(/smaller product/);
  expect(await pageHeight(page)).toBeLessThan(DESKTOP_CATEGORY_MAX_PX + 600);

  // The badge follows the size chosen: a size with a larger print area gives fewer DPI.
  const bigger = Object.keys(tee.print_area_by_size)[0]!;
  await teeCard.getByLabel('Size', { exact: true }).selectOption(bigger);
  await expect(teeCard.locator('.dpi-badge')).toContainText(`${dpiOf(hd, tee, bigger)} DPI`);
  expect((await badgeOf(teeCard)).dpi).toBe(dpiOf(hd, tee, bigger));

  // And the screenshot chosen: the 4K frame.
  await page.getByRole('group', { name: 'Select Your Screenshot' }).getByRole('radio', { name: 'Screenshot 2' }).check();
  await expect(teeCard.locator('.dpi-badge')).toContainText(`${dpiOf(uhd, tee, bigger)} DPI`);
  expect((await badgeOf(teeCard)).level).not.toBe('low');
  await expect(teeCard.locator('.product-card__hint')).toHaveCount(0);

  // Another category of the same product: the server's products for it, each with its badge.
  await switcher(page).getByRole('link', { name: 'Mugs', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/product/${product.id}\\?category=mugs$`));
  const mugs = (await (await page.request.get(`/api/product/${product.id}?category=mugs`)).json()) as ProductReply;
  expect(mugs.products.every((p) => p.category === 'mugs')).toBe(true);
  await expect(page.getByRole('group', { name: 'Select Your Screenshot' }).getByRole('radio', { name: 'Screenshot 2' })).toBeChecked();
  await expectBadges(page, mugs.products, uhd);
});

test('a category name that does not exist shows every category and says so, never an error page', async ({ page }) => {
  expect((await page.request.get('/api/product/browse?category=boats')).status()).toBe(400);
  await page.goto('/product/browse?category=boats');
  await expect(page.getByRole('status').filter({ hasText: 'There is no category called “boats”' })).toBeVisible();
  await expect(switcher(page).getByRole('link', { name: 'All', exact: true })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true });

  test('a category and its DPI badges fit the screen; the switcher scrolls sideways; All shows two products a category', async ({ page }) => {
    test.setTimeout(90_000);
    const { product, products } = await makeProduct(page, 'hats');
    await page.goto('/merchandise');
    await page.getByRole('list', { name: 'Merchandise categories' }).getByRole('button', { name: 'Bags' }).click();
    const bags = await browse(page, 'bags');
    await expect(page).toHaveURL(/category=bags/);
    await expect(cards(page).getByRole('heading')).toHaveText(names(bags.products));

    await page.goto(`/product/${product.id}?category=hats`);
    await expectBadges(page, products, product.screenshot_sizes[0]!);
    // Nothing wider than the screen: the page does not scroll sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    const first = cards(page).first();
    const box = (await first.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    await expect(first.locator('.dpi-badge')).toBeVisible();
    const categoryHeight = await pageHeight(page);

    const last = switcher(page).getByRole('link', { name: 'Thumbnails' });
    await last.scrollIntoViewIfNeeded();
    await last.click();
    await expect(page).toHaveURL(/category=thumbnails/);
    await expect(last).toHaveAttribute('aria-current', 'page');

    await switcher(page).getByRole('link', { name: 'All', exact: true }).click();
    await expect(page).toHaveURL(/category=all/);
    const mensSection = page.getByRole('region', { name: "Men's", exact: true });
    // Two of the category's products on a phone (the third is hidden, not just off screen), and the link to the rest.
    await expect(mensSection.getByRole('article')).toHaveCount(2);
    await expect(mensSection.getByRole('link', { name: /^See all \d+ Men's products$/ })).toBeVisible();
    const allHeight = await pageHeight(page);
    test.info().annotations.push({ type: 'heights', description: `phone hats ${categoryHeight}px, all ${allHeight}px` });
    expect(allHeight).toBeLessThan(15_000);
  });
});
