/**
 * The home feed and the video page, checked against what the API itself answers: the
 * expected titles, categories and URLs are read from the API, never hard-coded.
 */
import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { VIDEO_CATEGORIES } from '../shared/categories.ts';
import { FEED_PAGE_SIZE } from '../shared/constants.ts';
import { formatViews } from '../shared/format.ts';
import type { ReplyOf } from '../shared/schemas/route.ts';
import type { feedRoute, videoRoute } from '../shared/schemas/videos.ts';

type FeedReply = ReplyOf<typeof feedRoute>;
type VideoReply = ReplyOf<typeof videoRoute>;

/** The first feed page exactly as the home page asks for it. */
async function apiFeed(page: Page, category?: string): Promise<FeedReply> {
  const query = new URLSearchParams({ limit: String(FEED_PAGE_SIZE), ...(category ? { category } : {}) });
  const response = await page.request.get(`/api/videos?${query}`);
  expect(response.status()).toBe(200);
  return (await response.json()) as FeedReply;
}

async function apiVideo(page: Page, id: string): Promise<VideoReply> {
  const response = await page.request.get(`/api/videos/${id}`);
  expect(response.status()).toBe(200);
  return (await response.json()) as VideoReply;
}

const isFeedRequest = (url: URL) => url.pathname === '/api/videos';

test('the home feed shows the first page of the API, in order', async ({ page }) => {
  const feed = await apiFeed(page);
  expect(feed.videos.length).toBeGreaterThan(0);

  await page.goto('/');
  await expect(page.getByRole('list', { name: 'How FrameMerch works' })).toContainText('Choose Video');
  const cards = page.getByTestId('feed-grid').getByTestId('video-card');
  await expect(cards).toHaveCount(feed.videos.length);
  await expect(cards.getByRole('heading', { level: 3 })).toHaveText(feed.videos.map((v) => v.title));

  // One card in detail: address, channel, abbreviated views, a thumbnail sized before it loads.
  const index = Math.max(
    0,
    feed.videos.findIndex((v) => v.view_count >= 1_000 && v.thumbnail_url !== null),
  );
  const video = feed.videos[index]!;
  const card = cards.nth(index);
  await expect(card).toHaveAttribute('href', `/video/${video.category_id}/${video.id}`);
  await expect(card).toContainText(video.channel_title ?? 'Creator');
  // Views may grow while the test runs; any of the next few counts reads the same or one more.
  const views = [0, 1, 2, 3].map((extra) => formatViews(video.view_count + extra));
  await expect(card).toContainText(new RegExp(views.map((v) => v.replace('.', '\\.')).join('|')));
  if (video.thumbnail_url) {
    const thumbnail = card.locator('img');
    await expect(thumbnail).toHaveAttribute('src', video.thumbnail_url);
    await expect(thumbnail).toHaveAttribute('width', /\d+/);
    await expect(thumbnail).toHaveAttribute('height', /\d+/);
  }

  const loadMore = page.getByRole('button', { name: 'Load more' });
  if (feed.next_cursor === null) await expect(loadMore).toHaveCount(0);
  else await expect(loadMore).toBeVisible();
});

test('the feed says when it is loading and when it failed', async ({ page }) => {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(isFeedRequest, async (route) => {
    await held;
    await route.fulfill({ status: 500, json: { success: false, error: 'Database down.', code: 'INTERNAL' } });
  });

  await page.goto('/');
  await expect(page.getByText('Loading videos...')).toBeVisible();
  release();
  await expect(page.getByText('Failed to fetch videos')).toBeVisible();
  await expect(page.getByTestId('video-card')).toHaveCount(0);
});

test('choosing a category shows only that category, as the API filters it', async ({ page }) => {
  const all = await apiFeed(page);
  // A category that has videos but not all of them, so choosing it visibly changes the grid.
  const chosen = VIDEO_CATEGORIES.find((c) => {
    const count = all.videos.filter((v) => v.category_id === c.id).length;
    return count > 0 && count < all.videos.length;
  });
  if (!chosen) throw new Error('The seeded feed needs videos in at least two categories');
  const filtered = await apiFeed(page, chosen.slug);
  expect(filtered.videos.length).toBeGreaterThan(0);
  expect(filtered.videos.every((v) => v.category_id === chosen.id)).toBe(true);

  await page.goto('/');
  const cards = page.getByTestId('video-card');
  const titles = page.getByTestId('feed-grid').getByRole('heading', { level: 3 });
  await expect(cards).toHaveCount(all.videos.length);

  const chip = page.getByRole('button', { name: chosen.name, exact: true });
  const filteredRequest = page.waitForRequest((r) => {
    const url = new URL(r.url());
    return isFeedRequest(url) && url.searchParams.get('category') === chosen.slug;
  });
  await chip.click();
  await filteredRequest;
  await expect(chip).toHaveAttribute('aria-pressed', 'true');
  await expect(titles).toHaveText(filtered.videos.map((v) => v.title));
  for (const [i, v] of filtered.videos.entries()) {
    await expect(cards.nth(i)).toHaveAttribute('href', `/video/${chosen.id}/${v.id}`);
  }

  await page.getByRole('button', { name: 'All', exact: true }).click();
  await expect(titles).toHaveText(all.videos.map((v) => v.title));
});

test('a slow answer for a category left behind never replaces the newer one', async ({ page }) => {
  const all = await apiFeed(page);
  const [first, second] = VIDEO_CATEGORIES.filter((c) => all.videos.some((v) => v.category_id === c.id));
  if (!first || !second) throw new Error('The seeded feed needs videos in at least two categories');
  const expected = await apiFeed(page, second.slug);

  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(
    (url) => isFeedRequest(url) && url.searchParams.get('category') === first.slug,
    async (route) => {
      await held;
      // The page has aborted this request by now; continuing it may fail, which is the point.
      await route.continue().catch(() => undefined);
    },
  );

  await page.goto('/');
  await expect(page.getByTestId('video-card')).toHaveCount(all.videos.length);
  await page.getByRole('button', { name: first.name, exact: true }).click();
  await expect(page.getByText('Loading videos...')).toBeVisible();
  await page.getByRole('button', { name: second.name, exact: true }).click();
  const titles = page.getByTestId('feed-grid').getByRole('heading', { level: 3 });
  await expect(titles).toHaveText(expected.videos.map((v) => v.title));
  release();
  // Give the abandoned answer every chance to land, then check it did not.
  await page.waitForLoadState('networkidle');
  await expect(titles).toHaveText(expected.videos.map((v) => v.title));
  await expect(page.getByRole('button', { name: second.name, exact: true })).toHaveAttribute('aria-pressed', 'true');
});

test('Load more continues the feed from next_cursor', async ({ page }) => {
  const all = await apiFeed(page);
  const pageSize = 5;
  test.skip(all.videos.length <= pageSize, 'needs more videos than one small page');
  // Smaller pages than the app asks for, so the seeded feed spans several.
  await page.route(isFeedRequest, (route) => {
    const url = new URL(route.request().url());
    url.searchParams.set('limit', String(pageSize));
    return route.continue({ url: url.toString() });
  });

  await page.goto('/');
  const titles = page.getByTestId('feed-grid').getByRole('heading', { level: 3 });
  await expect(titles).toHaveText(all.videos.slice(0, pageSize).map((v) => v.title));
  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(titles).toHaveText(all.videos.slice(0, pageSize * 2).map((v) => v.title));
});

test('a card opens /video/{categoryId}/{id} and the video plays', async ({ page }) => {
  const feed = await apiFeed(page);
  const target = feed.videos[0]!;
  const { video } = await apiVideo(page, target.id);
  expect(video.video_url).not.toBeNull();

  await page.goto('/');
  await page.getByTestId('video-card').nth(0).click();
  await expect(page).toHaveURL(new RegExp(`/video/${target.category_id}/${target.id}$`));

  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { level: 1, name: target.title })).toBeVisible();
  if (video.channel_slug) {
    await expect(main.getByRole('link', { name: video.channel_title ?? 'Creator', exact: true })).toHaveAttribute(
      'href',
      `/channel/${video.channel_slug}`,
    );
  }
  if (video.description) await expect(main).toContainText(video.description);

  const player = main.locator('video');
  await expect(player).toHaveAttribute('src', video.video_url!);
  await expect(player).toHaveAttribute('controls', '');
  await page.evaluate(async () => {
    const element = document.querySelector('video');
    if (!element) throw new Error('no <video> on the page');
    element.muted = true;
    await element.play();
  });
  await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 0.5, undefined, {
    timeout: 15_000,
  });
  await expect(main.getByRole('heading', { name: 'Video Error' })).toHaveCount(0);
});

test('an unknown video id says Video not found.', async ({ page }) => {
  const id = randomUUID();
  expect((await page.request.get(`/api/videos/${id}`)).status()).toBe(404);

  await page.goto(`/video/0/${id}`);
  await expect(page.getByText('Video not found.')).toBeVisible();
  await expect(page.locator('video')).toHaveCount(0);
});

test('the video page reports a missing video URL and a video that cannot play', async ({ page }) => {
  const target = (await apiFeed(page)).videos[0]!;
  const detailUrl = (url: URL) => url.pathname === `/api/videos/${target.id}`;
  const serveWith = async (videoUrl: string | null) => {
    await page.unroute(detailUrl);
    await page.route(detailUrl, async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as VideoReply;
      await route.fulfill({ response, json: { ...body, video: { ...body.video, video_url: videoUrl } } });
    });
  };

  await serveWith(null);
  await page.goto(`/video/${target.category_id}/${target.id}`);
  await expect(page.getByText('Video URL is missing.')).toBeVisible();

  await serveWith(`/media/videos/e2e-missing-${randomUUID()}.mp4`);
  await page.goto(`/video/${target.category_id}/${target.id}`);
  await expect(page.getByRole('heading', { name: 'Video Error' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
});
