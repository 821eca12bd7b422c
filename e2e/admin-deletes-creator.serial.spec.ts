/**
 * Runs after every other browser test (its own Playwright project): it deletes a seeded
 * creator, which would change the feed and sidebar under tests running beside it.
 */
import { expect, test } from '@playwright/test';
import { FEED_PAGE_MAX, FEED_PAGE_SIZE } from '../shared/constants.ts';
import type { newestCreatorsRoute } from '../shared/schemas/creators.ts';
import type { ReplyOf } from '../shared/schemas/route.ts';
import type { feedRoute, videoRoute } from '../shared/schemas/videos.ts';
import { ADMIN, logIn, sameSite } from './support/accounts.ts';

test("an admin deletes a creator: their videos leave the feed and their files are gone", async ({ page }) => {
  type Feed = ReplyOf<typeof feedRoute>;
  type Video = ReplyOf<typeof videoRoute>['video'];
  type Creators = ReplyOf<typeof newestCreatorsRoute>;

  const admin = await logIn(page, ADMIN);
  expect(admin.is_admin).toBe(true);

  const feed = (await (await page.request.get(`/api/videos?limit=${FEED_PAGE_MAX}`)).json()) as Feed;
  const details = await Promise.all(
    feed.videos.map(async (card) => ((await (await page.request.get(`/api/videos/${card.id}`)).json()) as { video: Video }).video),
  );
  const { creators } = (await (await page.request.get('/api/creators/newest')).json()) as Creators;
  const videosOf = (id: string) => details.filter((v) => v.user_id === id);
  // A creator with exactly one video, so the whole of their content is checked.
  const candidates = creators
    .filter((c) => videosOf(c.id).length === 1 && videosOf(c.id)[0]!.video_url)
    .sort((a, b) => videosOf(a.id)[0]!.view_count - videosOf(b.id)[0]!.view_count);
  const creator = candidates[0];
  if (!creator) throw new Error('The seeded feed has no creator with exactly one video');
  const video = videosOf(creator.id)[0]!;
  expect((await page.request.get(video.video_url!)).status()).toBe(200);

  const response = await page.request.delete(`/api/users/${creator.id}/delete-account`, { headers: sameSite() });
  expect(response.status()).toBe(200);
  expect(await response.json()).toMatchObject({ success: true, message: 'Your account has been successfully deleted.' });

  // The admin's own session is untouched.
  expect(((await (await page.request.get('/api/auth/me')).json()) as { user: unknown }).user).toMatchObject({ is_admin: true });
  expect((await page.request.get(video.video_url!)).status()).toBe(404);
  expect((await page.request.get(`/api/videos/${video.id}`)).status()).toBe(404);

  await page.goto('/');
  const after = (await (await page.request.get(`/api/videos?limit=${FEED_PAGE_SIZE}`)).json()) as Feed;
  const cards = page.getByTestId('feed-grid').getByTestId('video-card');
  await expect(cards).toHaveCount(after.videos.length);
  const hrefs = await cards.evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
  expect(hrefs.some((href) => href.endsWith(`/${video.id}`))).toBe(false);
  await expect(page.getByTestId('feed-grid')).not.toContainText(video.title);
  const sidebarCreators = page.getByTestId('sidebar-creator');
  await expect(sidebarCreators.first()).toBeVisible();
  await expect(sidebarCreators.filter({ hasText: creator.display_name })).toHaveCount(0);
});

