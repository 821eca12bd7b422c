/**
 * Checkout for the browser tests: what the catalogue says an order costs (so expectations are
 * computed, never typed in), putting a product in the cart from its page, the checkout page,
 * and the embedded payment page (/pay/...) that stands in for the hosted checkout.
 */
import { randomUUID } from 'node:crypto';
import { expect, type Locator, type Page } from '@playwright/test';
import sharp from 'sharp';
import { readCatalogue } from '../../api/modules/merch/catalogue.ts';
import type { Catalogue, CatalogueProduct } from '../../shared/catalogue/parse.ts';
import { formatCents, splitMargin } from '../../shared/money.ts';
import type { checkoutSessionRoute, orderRoute } from '../../shared/schemas/checkout.ts';
import type { createProductRoute } from '../../shared/schemas/products.ts';
import type { ReplyOf } from '../../shared/schemas/route.ts';
import { unitPriceCents } from '../../shared/shop/pricing.ts';
import { quoteShipping } from '../../shared/shop/shipping.ts';
import { variantId } from '../../shared/shop/variants.ts';
import { sameSite, signUp, uniqueEmail } from './accounts.ts';
import { seededVideo } from './videos.ts';

export const TEST_CARD = '4242 4242 4242 4242';
export const DECLINED_CARD = '4000 0000 0000 0002';
/** The creator's share of an item's margin (spec section 1). */
export const CREATOR_PERCENT = 70;

let catalogue: Promise<Catalogue> | null = null;
export const shopCatalogue = () => (catalogue ??= readCatalogue());

export async function catalogueProduct(name: string): Promise<CatalogueProduct> {
  const product = (await shopCatalogue()).products.find((p) => p.name === name);
  if (!product) throw new Error(`${name} is not in the catalogue`);
  return product;
}

export interface OrderLine {
  product: CatalogueProduct;
  size: string | null;
  quantity: number;
}

/** What the catalogue says the order costs: items, shipping to `country`, and the creator's earnings. */
export async function expectedOrder(lines: readonly OrderLine[], country: string) {
  const { shipping } = await shopCatalogue();
  const subtotal = lines.reduce((sum, l) => sum + unitPriceCents(l.product, l.size) * l.quantity, 0);
  const shippingCents = quoteShipping(
    lines.map((l) => ({ bucket: l.product.shippingBucket, quantity: l.quantity })),
    country,
    shipping,
  ).cents;
  // Surcharges carry no margin: the margin is the base price less the base cost.
  const earnings = lines.reduce((sum, l) => sum + splitMargin((l.product.priceCents - l.product.baseCostCents) * l.quantity, CREATOR_PERCENT).creator, 0);
  return { subtotal, shipping: shippingCents, total: subtotal + shippingCents, earnings };
}

/** On a product page: picks the options of one product's card and adds it to the cart. */
export async function addToCart(page: Page, name: string, options: { colour?: string; size?: string } = {}) {
  const card = page.getByRole('article', { name, exact: true });
  if (options.colour) await card.getByLabel('Color').selectOption(options.colour);
  if (options.size) await card.getByLabel('Size').selectOption(options.size);
  await card.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(card.getByRole('status')).toHaveText('Added to cart!');
}

/** The checkout page's parts. */
export const checkoutPage = (page: Page) => ({
  items: page.getByRole('list', { name: 'Order items' }).getByRole('listitem'),
  zip: page.getByLabel('ZIP/Postal Code'),
  country: page.getByLabel('Country'),
  email: page.getByLabel(/Email for your order confirmation/),
  summary: page.getByRole('complementary'),
  placeOrder: page.getByRole('button', { name: 'Place Order' }),
});

/** The step of the checkout steps bar the page marks as the current one. */
export const currentStep = (page: Page) => page.getByRole('list', { name: 'Checkout steps' }).locator('[aria-current="step"]');

/** The value a page gives for a term of its description lists (Subtotal, Total, Earnings...). */
export const termValue = (scope: Page | Locator, term: string) =>
  scope.getByRole('term').filter({ hasText: new RegExp(`^${term}$`) }).locator('xpath=following-sibling::dd[1]');

/** Pays on the embedded payment page with a card, after checking it asks for `totalCents`. */
export async function payOnPaymentPage(page: Page, card: string, email: string, totalCents: number) {
  await page.waitForURL((url) => url.pathname.startsWith('/pay/'));
  await expect(page.getByRole('button', { name: `Pay ${formatCents(totalCents)}`, exact: true })).toBeVisible();
  await page.getByLabel(/email/i).fill(email);
  // Where the order goes: the postal code starts as the one the shipping was quoted for.
  await page.getByLabel('Full name').fill('Pat Buyer');
  await page.getByLabel('Address line 1').fill('1 Main St');
  await page.getByLabel('City').fill('New York');
  await page.getByLabel(/^State \/ Province/).fill('NY');
  await expect(page.getByLabel('ZIP / Postal code')).not.toHaveValue('');
  await page.getByLabel(/card number/i).fill(card);
  await page.getByLabel(/expir/i).fill('12 / 34');
  await page.getByLabel(/cvc/i).fill('123');
  await page.getByRole('button', { name: /^Pay/ }).click();
}

/** The checkout session id in the payment page's address (/pay/cs_...). */
export function sessionIdOf(page: Page): string {
  const id = new URL(page.url()).pathname.split('/').find((part) => part.startsWith('cs_'));
  if (!id) throw new Error(`No checkout session in ${page.url()}`);
  return id;
}

export async function apiCheckoutSession(page: Page, sessionId: string): Promise<ReplyOf<typeof checkoutSessionRoute>> {
  const reply = await page.request.get(`/api/checkout/sessions/${sessionId}`);
  expect(reply.status()).toBe(200);
  return (await reply.json()) as ReplyOf<typeof checkoutSessionRoute>;
}

/** The order behind a session, read through its secret link as the buyer would. */
export async function apiOrderOfSession(page: Page, sessionId: string): Promise<ReplyOf<typeof orderRoute>['order']> {
  const session = await apiCheckoutSession(page, sessionId);
  const link = new URL(session.order_url, page.url());
  const reply = await page.request.get(`/api${link.pathname}${link.search}`);
  expect(reply.status()).toBe(200);
  return ((await reply.json()) as ReplyOf<typeof orderRoute>).order;
}

/**
 * Signs a new customer up and makes a merch product of one screenshot of a seeded video through
 * the API (the video page's capture is driven by the journey test, not here); answers its id.
 */
export async function makeProductThroughApi(page: Page): Promise<string> {
  await signUp(page);
  const video = await seededVideo(page.request);
  const jpeg = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#2060c0' } }).jpeg({ quality: 85 }).toBuffer();
  const response = await page.request.post('/api/create-product', {
    headers: sameSite(),
    data: {
      videoUrl: video.video_url,
      thumbnail: video.thumbnail_url,
      screenshots: [`data:image/jpeg;base64,${jpeg.toString('base64')}`],
      screenshot_timestamp: 1,
      videoTitle: video.title,
      creatorName: video.channel_title ?? 'Creator',
      category: 'mens',
    },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as ReplyOf<typeof createProductRoute>).product_id;
}

/**
 * The buyer (signed in on `page`) buys `quantity` Unisex T-Shirts (size M) made from a frame of
 * `video` through the API and pays on the hosted page; answers the creator's share, its email
 * and the order's id.
 */
export async function buyShirts(page: Page, video: { videoUrl: string }, quantity: number): Promise<{ earnings: number; email: string; orderId: string }> {
  const shirt = await catalogueProduct('Unisex T-Shirt');
  const expected = await expectedOrder([{ product: shirt, size: 'M', quantity }], 'US');
  const frame = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#c04020' } }).jpeg({ quality: 85 }).toBuffer();
  const made = await page.request.post('/api/create-product', {
    headers: sameSite(),
    data: { videoUrl: video.videoUrl, screenshots: [`data:image/jpeg;base64,${frame.toString('base64')}`], screenshot_timestamp: 1, category: 'mens' },
  });
  expect(made.status(), await made.text()).toBe(200);
  const { product_id } = (await made.json()) as ReplyOf<typeof createProductRoute>;
  const email = uniqueEmail('buyer');
  const session = await page.request.post('/api/create-checkout-session', {
    headers: sameSite(),
    data: {
      shipping_address: { zip: '10001', country_code: 'US' },
      cart: [{ product_id, variant_id: variantId({ sku: shirt.sku, colour: shirt.colours[0]!, handleColour: null, size: 'M' }), quantity, selected_screenshot: 0 }],
      email,
      idempotency_key: randomUUID(),
    },
  });
  expect(session.status(), await session.text()).toBe(200);
  const { url, order_id } = (await session.json()) as { url: string; order_id: string };
  await page.goto(url);
  await payOnPaymentPage(page, TEST_CARD, email, expected.total);
  await page.waitForURL((u) => u.pathname === '/success', { timeout: 30_000 });
  return { earnings: expected.earnings, email, orderId: order_id };
}
