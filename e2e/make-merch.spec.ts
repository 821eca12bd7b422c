/**
 * Make Merch from the video page: signed out, the screenshots are kept and the auth modal opens;
 * after the sign-in the product is made and the browser lands on its page with those frames.
 */
import { expect, test } from '@playwright/test';
import type { ReplyOf } from '../shared/schemas/route.ts';
import type { feedRoute, videoRoute } from '../shared/schemas/videos.ts';
import { PASSWORD, uniqueEmail } from './support/accounts.ts';
import { screenshotImages, selectScreenshotButton } from './support/qaCapture.ts';

test('signed out, Make Merch asks for a sign-in and then opens the product page with the captured frames', async ({ page, request }) => {
  const feed = (await (await request.get('/api/videos?limit=1')).json()) as ReplyOf<typeof feedRoute>;
  const card = feed.videos[0]!;
  const { video } = (await (await request.get(`/api/videos/${card.id}`)).json()) as ReplyOf<typeof videoRoute>;

  await page.goto(`/video/${video.category_id}/${video.id}`);
  await expect(screenshotImages(page)).toHaveCount(1);
  for (const t of [0.5, 1.5]) {
    await page.locator('video').evaluate(async (el: HTMLVideoElement, time) => {
      el.pause();
      await new Promise<void>((resolve) => {
        el.addEventListener('seeked', () => resolve(), { once: true });
        el.currentTime = time;
      });
    }, t);
    const before = await screenshotImages(page).count();
    await selectScreenshotButton(page).click();
    await expect(screenshotImages(page)).toHaveCount(before + 1);
  }

  await page.getByRole('button', { name: 'Make Merch', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Login' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Sign Up' }).click();
  const signUp = page.getByRole('dialog', { name: 'Sign Up' });
  await signUp.getByLabel('Email').fill(uniqueEmail('maker'));
  await signUp.getByLabel('Password').fill(PASSWORD);
  await signUp.getByRole('button', { name: 'Sign Up' }).click();

  await expect(page).toHaveURL(/\/product\/[0-9a-f-]{36}$/, { timeout: 20_000 });
  const productId = new URL(page.url()).pathname.split('/').pop()!;
  const product = await (await request.get(`/api/product/${productId}`)).json();
  // The two captures, the video's own thumbnail, and the video's creator (not a name from the page).
  expect(product.product.screenshots).toHaveLength(2);
  expect(product.product.video_id).toBe(video.id);
  expect(product.product.thumbnail_url).not.toBeNull();
  await expect(page.getByText('Make Merchandise - Create custom products with your screenshot')).toBeVisible();
});
