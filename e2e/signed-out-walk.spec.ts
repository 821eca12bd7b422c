/**
 * A visitor who never signs in walks through every page of the app: no page logs an error to
 * the console (a 401 from "who am I" included), and no request the pages make fails.
 */
import { expect, test, type Page } from '@playwright/test';
import type { ReplyOf } from '../shared/schemas/route.ts';
import type { channelRoute } from '../shared/schemas/channels.ts';
import type { feedRoute, videoRoute } from '../shared/schemas/videos.ts';
import { makeProductThroughApi } from './support/checkout.ts';

interface Walk {
  errors: string[];
  failed: string[];
}

function watch(page: Page): Walk {
  const walk: Walk = { errors: [], failed: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') walk.errors.push(`${page.url()} → ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => walk.errors.push(`${page.url()} → uncaught ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) walk.failed.push(`${page.url()} → ${response.status()} ${response.request().method()} ${response.url()}`);
  });
  return walk;
}

/** The pages a visitor reaches, with real ids where a page shows one thing. */
async function pagesToVisit(page: Page): Promise<string[]> {
  const feed = (await (await page.request.get('/api/videos?limit=50')).json()) as ReplyOf<typeof feedRoute>;
  const card = feed.videos[0];
  if (!card) throw new Error('The seed needs at least one video');
  const { video } = (await (await page.request.get(`/api/videos/${card.id}`)).json()) as ReplyOf<typeof videoRoute>;
  const pages = [
    '/',
    '/?category=1',
    '/search?q=a',
    `/video/${video.category_id}/${video.id}`,
    '/upload',
    '/dashboard',
    '/privacy-policy',
    '/terms-of-service',
    '/coming-soon',
    '/login',
    '/signup',
    '/dev/mail',
    '/test-crop-tool',
    '/merchandise',
    '/product/browse',
    '/checkout',
    '/success',
    '/no-such-page',
  ];
  if (!video.channel_slug) throw new Error('The seeded video needs a channel');
  const { channel } = (await (await page.request.get(`/api/channels/${video.channel_slug}`)).json()) as ReplyOf<typeof channelRoute>;
  pages.push(`/channel/${video.channel_slug}`, `/profile/${channel.username}`);
  return pages;
}

test('signed out, every page opens without a console error or a failed request', async ({ page, browser }) => {
  test.setTimeout(120_000);
  // A product made by someone else, in a browser of its own, so this one stays signed out.
  const maker = await browser.newPage();
  const productId = await makeProductThroughApi(maker);
  await maker.close();

  const walk = watch(page);
  const pages = [...(await pagesToVisit(page)), `/product/${productId}`];
  for (const path of pages) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('banner').getByRole('button', { name: 'Sign In', exact: true }), path).toBeVisible();
  }
  expect(walk.errors).toEqual([]);
  expect(walk.failed).toEqual([]);
  expect(pages.length).toBeGreaterThanOrEqual(20);
});
