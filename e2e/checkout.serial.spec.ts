/**
 * The whole journey with the embedded defaults (payments and print-on-demand run inside the
 * app): a creator's video, a viewer's capture and crop, Make Merch, options, the cart,
 * checkout with the shipping quote appearing on its own, the embedded payment page, /success,
 * the order page reaching Shipped with tracking, and the creator's Analytics tab showing the
 * sale. Serial: the creator uploads a video (seeded creators cannot sign in), which enters the
 * feed other specs read.
 */
import { expect, test } from '@playwright/test';
import { formatCents } from '../shared/money.ts';
import { QA_CLIPS } from '../scripts/qa-clips.ts';
import { sameSite, signUp, uniqueEmail } from './support/accounts.ts';
import { addToCart, apiCheckoutSession, currentStep, catalogueProduct, checkoutPage, expectedOrder, payOnPaymentPage, termValue, TEST_CARD } from './support/checkout.ts';
import { signInAsCreator } from './support/creators.ts';
import { screenshotImages, selectScreenshotButton } from './support/qaCapture.ts';
import { uploadQaClip } from './support/qaUpload.ts';

const PRODUCT = 'Unisex T-Shirt';
const SIZE = 'M';
const ZIP = '10001';

test('a viewer buys a shirt made from a frame; it ships, and the creator sees the sale', async ({ page, browser }) => {
  test.setTimeout(240_000);
  const shirt = await catalogueProduct(PRODUCT);
  const expected = await expectedOrder([{ product: shirt, size: SIZE, quantity: 1 }], 'US');

  // The creator and their video.
  const creatorPage = await browser.newPage();
  await signInAsCreator(creatorPage, '/');
  const clip = QA_CLIPS.find((c) => c.codec === 'h264' && c.fps === 30 && c.height === 720)!;
  const video = await uploadQaClip(creatorPage.request, clip, sameSite());

  // The viewer: signed in (Make Merch needs it), captures a frame and a crop of it.
  await signUp(page);
  await page.goto(video.pagePath);
  await expect(screenshotImages(page)).toHaveCount(1);
  await page.locator('video').evaluate(async (el: HTMLVideoElement) => {
    el.pause();
    await new Promise<void>((resolve) => {
      el.addEventListener('seeked', () => resolve(), { once: true });
      el.currentTime = 1;
    });
  });
  await selectScreenshotButton(page).click();
  await expect(screenshotImages(page)).toHaveCount(2);
  await page.getByRole('button', { name: 'Crop Mode', exact: true }).click();
  await expect(page.getByRole('group', { name: 'Crop box' })).toBeVisible();
  await page.getByRole('button', { name: 'Apply Crop', exact: true }).click();
  await expect(screenshotImages(page)).toHaveCount(3);

  await page.getByRole('button', { name: 'Make Merch', exact: true }).click();
  await expect(page).toHaveURL(/\/product\/[0-9a-f-]{36}$/, { timeout: 30_000 });
  const colour = shirt.colours[1]!;
  await addToCart(page, PRODUCT, { colour, size: SIZE });
  await page.getByRole('link', { name: 'Checkout' }).first().click();

  // Checkout: the quote appears on its own once the ZIP is typed.
  await expect(page).toHaveURL(/\/checkout$/);
  await expect(currentStep(page)).toContainText('Review');
  const checkout = checkoutPage(page);
  await expect(checkout.items).toHaveCount(1);
  await expect(checkout.items.first()).toContainText(PRODUCT);
  await expect(checkout.items.first()).toContainText(`Color: ${colour}`);
  await expect(checkout.items.first()).toContainText(`Size: ${SIZE}`);
  await expect(termValue(page, 'Subtotal')).toHaveText(formatCents(expected.subtotal));
  await expect(checkout.country).toHaveValue('US');
  await checkout.zip.pressSequentially(ZIP);
  await expect(termValue(page, 'Shipping')).toHaveText(`${formatCents(expected.shipping)} (Standard)`);
  expect(formatCents(expected.shipping)).toBe('$4.75');
  await expect(termValue(page, 'Total')).toHaveText(formatCents(expected.total));
  const email = uniqueEmail('buyer');
  await checkout.email.fill(email);
  await checkout.placeOrder.click();

  // The embedded payment page, then /success.
  await payOnPaymentPage(page, TEST_CARD, email, expected.total);
  await page.waitForURL((url) => url.pathname === '/success', { timeout: 30_000 });
  const sessionId = new URL(page.url()).searchParams.get('session_id')!;
  const session = await apiCheckoutSession(page, sessionId);
  await expect(page.getByTestId('order-id')).toHaveText(session.order_id);
  await expect(currentStep(page)).toContainText('Complete');
  await expect(page.getByRole('button', { name: 'Cart, 0 items' })).toBeVisible();

  // The order page from the secret link: it moves on by itself until Shipped, with tracking.
  await page.getByRole('link', { name: 'Track your order' }).click();
  await expect(page).toHaveURL(new RegExp(`/orders/${session.order_id}\\?token=`));
  await expect(page.getByRole('status', { name: 'Order status' })).toHaveText(/^(Shipped|Delivered)$/, { timeout: 90_000 });
  const tracking = page.getByRole('link', { name: 'Track your package' });
  await expect(tracking).toHaveAttribute('href', /\S/);
  const history = page.getByRole('list', { name: 'Status history' });
  await expect(history).toContainText('Paid');
  await expect(history).toContainText('Shipped');
  await expect(termValue(page, 'Total')).toHaveText(formatCents(expected.total));
  // The address given on the payment page is where it ships.
  await expect(termValue(page, 'Ships to')).toContainText('Pat Buyer1 Main StNew York, NY 10001United StatesStandard shipping');

  // The creator's dashboard shows the sale and their share of it.
  await creatorPage.goto('/dashboard?tab=analytics');
  const figures = creatorPage.getByRole('tabpanel');
  const figure = (label: string) => termValue(figures, label);
  await expect(figure('Total Sales')).toHaveText('1');
  await expect(figure('Total Revenue')).toHaveText(formatCents(expected.subtotal));
  await expect(figure('Products Sold')).toHaveText('1');
  await expect(figure('Videos With Sales')).toHaveText('1');
  await expect(figure('Average Order Value')).toHaveText(formatCents(expected.subtotal));
  await expect(figure('Earnings')).toHaveText(formatCents(expected.earnings));
  const row = creatorPage.getByRole('row').filter({ hasText: PRODUCT });
  await expect(row).toContainText(formatCents(expected.subtotal));
  await expect(row.getByRole('link', { name: `QA ${clip.name}` })).toHaveAttribute('href', new RegExp(`/video/\\d+/${video.id}$`));
  await creatorPage.close();
});
