/**
 * Channel, search and profile pages, checked against what the API answers for a seeded
 * creator (read, never changed), plus who may see a profile and the dashboard.
 */
import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import type { channelRoute, profileRoute, searchChannelsRoute } from '../shared/schemas/channels.ts';
import { FEED_PAGE_SIZE } from '../shared/constants.ts';
import type { ReplyOf } from '../shared/schemas/route.ts';
import type { feedRoute } from '../shared/schemas/videos.ts';
import { here, signUp } from './support/accounts.ts';

type ChannelReply = ReplyOf<typeof channelRoute>;
type ProfileReply = ReplyOf<typeof profileRoute>;
type SearchReply = ReplyOf<typeof searchChannelsRoute>;
type FeedReply = ReplyOf<typeof feedRoute>;

async function getJson<T>(page: Page, url: string, status = 200): Promise<T> {
  const response = await page.request.get(url);
  expect(response.status(), url).toBe(status);
  return (await response.json()) as T;
}

/**
 * A seeded creator with videos: the channel of the oldest video on the first feed page, older
 * than anything the tests upload while they run.
 */
async function seededChannel(page: Page): Promise<ChannelReply> {
  const feed = await getJson<FeedReply>(page, `/api/videos?limit=${FEED_PAGE_SIZE}`);
  const slug = feed.videos.findLast((v) => v.channel_slug !== null)?.channel_slug;
  if (!slug) throw new Error('The seeded feed needs a video with a channel');
  const channel = await getJson<ChannelReply>(page, `/api/channels/${slug}`);
  expect(channel.videos.length).toBeGreaterThan(0);
  return channel;
}

test('a channel page shows the creator and their videos as the API lists them', async ({ page }) => {
  const { channel, videos } = await seededChannel(page);
  await page.goto(`/channel/${channel.username}`);
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { level: 1 })).toHaveText(channel.display_name);
  await expect(main).toContainText(`@${channel.username}`);
  if (channel.bio) await expect(main).toContainText(channel.bio);

  const grid = main.getByRole('list', { name: `Videos by ${channel.display_name}` });
  await expect(grid.getByRole('heading', { level: 3 })).toHaveText(videos.map((v) => v.title));
  const first = videos[0]!;
  await expect(grid.getByTestId('video-card').first()).toHaveAttribute('href', `/video/${first.category_id}/${first.id}`);
  await expect(page).toHaveTitle(new RegExp(channel.display_name));
});

test('an unknown channel says Failed to load channel', async ({ page }) => {
  const slug = `nobody${randomUUID().slice(0, 8)}`;
  expect((await page.request.get(`/api/channels/${slug}`)).status()).toBe(404);
  await page.goto(`/channel/${slug}`);
  await expect(page.getByRole('alert')).toContainText('Failed to load channel');
});

test('search needs two characters, then goes to the best matching channel', async ({ page }) => {
  await page.goto('/search?q=x');
  await expect(page.getByRole('main')).toContainText('Please enter at least 2 characters to search');
  await page.goto('/search?q=%20a%20');
  await expect(page.getByRole('main')).toContainText('Please enter at least 2 characters to search');

  const { channel } = await seededChannel(page);
  // Part of the display name, in other letter case.
  const part = channel.display_name.slice(1, 5).toUpperCase();
  const search = await getJson<SearchReply>(page, `/api/search/channels?q=${encodeURIComponent(part)}`);
  const best = search.channels[0]!;
  expect(search.channels.map((c) => c.username)).toContain(channel.username);

  await page.goto('/privacy-policy');
  await page.goto(`/search?q=${encodeURIComponent(part)}`);
  await expect.poll(() => here(page)).toBe(`/channel/${best.username}`);
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toHaveText(best.display_name);
  // The search page was replaced, not stacked: one step back is the page before it.
  await page.goBack();
  await expect.poll(() => here(page)).toBe('/privacy-policy');

  const nothing = `zz${randomUUID().slice(0, 10)}`;
  await page.goto(`/search?q=${nothing}`);
  await expect(page.getByRole('main')).toContainText(`No channels found for "${nothing}"`);
  await page.getByRole('main').getByRole('link').click();
  await expect.poll(() => here(page)).toBe('/');
});

test('a profile shows only public fields and its videos; an unknown one says User not found', async ({ page }) => {
  const { channel } = await seededChannel(page);
  const { profile, videos } = await getJson<ProfileReply>(page, `/api/profiles/${channel.username}`);
  expect(Object.keys(profile).sort()).toEqual(['bio', 'cover_image_url', 'created_at', 'display_name', 'id', 'profile_image_url']);

  await page.goto(`/profile/${channel.username}`);
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { level: 1 })).toHaveText(profile.display_name);
  if (profile.bio) await expect(main).toContainText(profile.bio);
  await expect(main.getByRole('list', { name: `Videos by ${profile.display_name}` }).getByRole('heading', { level: 3 })).toHaveText(
    videos.map((v) => v.title),
  );
  // The profile read has no username, so the page shows no handle.
  await expect(main).not.toContainText(`@${channel.username}`);

  const unknown = `nobody${randomUUID().slice(0, 8)}`;
  expect((await page.request.get(`/api/profiles/${unknown}`)).status()).toBe(404);
  await page.goto(`/profile/${unknown}`);
  await expect(page.getByRole('alert')).toContainText('User not found');
});

test('a signed-in customer is sent home from a profile and denied the dashboard', async ({ page }) => {
  const { channel } = await seededChannel(page);
  await signUp(page);
  await page.goto(`/profile/${channel.username}`);
  await expect.poll(() => here(page)).toBe('/');

  await page.goto('/dashboard');
  await expect(page.getByRole('main')).toContainText('Access denied.');
  await expect(page.getByRole('tab')).toHaveCount(0);
});

test('a signed-out visitor on the dashboard is denied and offered a sign-in', async ({ page }) => {
  await page.goto('/dashboard');
  const main = page.getByRole('main');
  await expect(main).toContainText('Access denied.');
  await expect(main.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
});
