/**
 * A creator's journey through the studio: signing in from the upload page, uploading a clip
 * with a thumbnail while the progress bar fills, finding the video in the feed and on the
 * channel, playing it, editing the profile and deleting the video from the dashboard. Also
 * the upload page's sign-in prompt and its client-side checks. Every test signs in its own
 * new creator; the seeded creators are never touched.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { videoCategoryBySlug } from '../shared/categories.ts';
import type { channelRoute, profileRoute } from '../shared/schemas/channels.ts';
import type { ReplyOf } from '../shared/schemas/route.ts';
import { UPLOAD_STAGES, type myVideosRoute } from '../shared/schemas/studio.ts';
import { here } from './support/accounts.ts';
import { signInAsCreator } from './support/creators.ts';

type ChannelReply = ReplyOf<typeof channelRoute>;
type ProfileReply = ReplyOf<typeof profileRoute>;
type MyVideosReply = ReplyOf<typeof myVideosRoute>;

const MEDIA = path.resolve(import.meta.dirname, '../.cache/test-media');
const CLIP = path.join(MEDIA, 'h264-small.mp4');
const THUMBNAIL = path.join(MEDIA, 'thumbnail.jpg');

const signInPrompt = (page: Page) => page.getByRole('main').getByRole('button', { name: 'Sign In', exact: true });
const progressBar = (page: Page) => page.getByRole('progressbar', { name: 'Upload progress' });

async function apiChannel(page: Page, slug: string): Promise<ChannelReply> {
  const response = await page.request.get(`/api/channels/${slug}`);
  expect(response.status()).toBe(200);
  return (await response.json()) as ChannelReply;
}

/** Records every value the progress bar shows, from the moment it appears. */
async function watchProgress(page: Page): Promise<() => Promise<number[]>> {
  await page.evaluate(() => {
    const seen: number[] = [];
    (window as unknown as { progressSeen: number[] }).progressSeen = seen;
    const record = (el: Element) => {
      const value = Number(el.getAttribute('aria-valuenow'));
      if (seen.at(-1) !== value) seen.push(value);
    };
    new MutationObserver((mutations) => {
      for (const m of mutations) {
        if (m.type === 'attributes' && m.target instanceof Element && m.target.matches('progress')) record(m.target);
        for (const node of Array.from(m.addedNodes)) {
          if (node instanceof Element) node.querySelectorAll('progress').forEach(record);
        }
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-valuenow'] });
  });
  return () => page.evaluate(() => (window as unknown as { progressSeen: number[] }).progressSeen);
}

test('a signed-out visitor on /upload is asked to sign in', async ({ page }) => {
  await page.goto('/upload');
  await expect(page.getByRole('main')).toContainText('Please log in to upload videos');
  await expect(signInPrompt(page)).toBeVisible();
  await expect(page.getByLabel('Title')).toHaveCount(0);
});

test('the upload form checks files when chosen and fields on submit, with the spec messages', async ({ page }) => {
  await signInAsCreator(page, '/upload', signInPrompt);
  const uploads: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/videos' && r.method() === 'POST') uploads.push(r.url());
  });

  // A picture is not a video: refused at once, and the input forgets it.
  const videoInput = page.getByLabel('Video file');
  await videoInput.setInputFiles(THUMBNAIL);
  await expect(page.getByText('❌ Please select a valid video file')).toBeVisible();
  await expect(videoInput).toHaveAttribute('aria-invalid', 'true');
  expect(await videoInput.evaluate((el: HTMLInputElement) => el.files?.length)).toBe(0);

  // A video is not an image either.
  await page.getByLabel('Thumbnail image').setInputFiles(CLIP);
  await expect(page.getByText('❌ Please select a valid image file')).toBeVisible();

  // Submitting with an empty title names the title first, and moves focus there.
  const upload = page.getByRole('button', { name: 'Upload Video' });
  await upload.click();
  await expect(page.getByRole('alert').filter({ hasText: 'Please enter a video title' })).toHaveText(
    '❌ Please enter a video title',
  );
  await expect(page.getByLabel('Title')).toBeFocused();

  // Then, in order: description, video, thumbnail.
  await page.getByLabel('Title').fill('   ');
  await upload.click();
  await expect(page.getByText('❌ Please enter a video title')).toBeVisible();
  await page.getByLabel('Title').fill('A title');
  await upload.click();
  await expect(page.getByText('❌ Please enter a video description')).toBeVisible();
  await page.getByLabel('Description').fill('Words');
  await upload.click();
  await expect(page.getByText('❌ Please select a video file')).toBeVisible();
  await videoInput.setInputFiles(CLIP);
  await expect(page.getByText('❌ Please select a valid video file')).toHaveCount(0);
  await upload.click();
  await expect(page.getByText('❌ Please select a thumbnail image')).toBeVisible();

  // Clearing a chosen file says so.
  await videoInput.setInputFiles([]);
  await expect(page.getByText('No file selected').first()).toBeVisible();
  expect(uploads).toEqual([]);
});

test('a creator uploads a video, finds and plays it, edits the profile and deletes the video', async ({ page }) => {
  test.setTimeout(90_000);
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.accept();
  });

  // Signing in from the upload page's prompt comes back to the form.
  await page.goto('/upload');
  const creator = await signInAsCreator(page, '/upload', signInPrompt);
  const title = `E2E upload ${randomUUID().slice(0, 8)}`;
  const category = videoCategoryBySlug('music')!;

  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Description').fill('Uploaded by the end-to-end test.');
  await page.getByLabel('Category').selectOption(category.slug);
  await page.getByLabel('Video file').setInputFiles(CLIP);
  await page.getByLabel('Thumbnail image').setInputFiles(THUMBNAIL);
  await expect(page.getByText('h264-small.mp4')).toBeVisible();

  const progress = await watchProgress(page);
  const created = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/videos' && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Upload Video' }).click();
  expect((await created).status()).toBe(201);

  await expect(progressBar(page)).toHaveAttribute('aria-valuenow', String(UPLOAD_STAGES.metadata));
  await expect(page.getByRole('status').filter({ hasText: '✅' })).toBeVisible();
  const succeededAt = Date.now();
  const seen = await progress();
  expect(seen.at(-1)).toBe(100);
  expect(seen).toEqual([...seen].sort((a, b) => a - b));
  expect(seen).toContain(UPLOAD_STAGES.ensureUser);
  expect(seen.every((v) => v >= 0 && v <= 100)).toBe(true);

  // Home after 2 s, where the new video leads the feed.
  await page.waitForURL((url) => url.pathname === '/', { timeout: 6_000 });
  expect(Date.now() - succeededAt).toBeGreaterThanOrEqual(1_500);
  const card = page.getByTestId('feed-grid').getByTestId('video-card').filter({ hasText: title });
  await expect(card).toHaveCount(1);
  await expect(card).toContainText(creator.display_name);

  // On the channel, as the API lists it.
  const channel = await apiChannel(page, creator.username);
  const uploaded = channel.videos.find((v) => v.title === title);
  expect(uploaded).toBeDefined();
  expect(uploaded!.category_id).toBe(category.id);
  await page.goto(`/channel/${creator.username}`);
  const grid = page.getByRole('list', { name: `Videos by ${creator.display_name}` });
  await expect(grid.getByRole('heading', { level: 3 })).toHaveText(channel.videos.map((v) => v.title));

  // It opens and plays; the view is counted once.
  await grid.getByTestId('video-card').filter({ hasText: title }).click();
  await expect(page).toHaveURL(new RegExp(`/video/${category.id}/${uploaded!.id}$`));
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(main).toContainText('1 view');
  await page.evaluate(async () => {
    const element = document.querySelector('video');
    if (!element) throw new Error('no <video> on the page');
    element.muted = true;
    await element.play();
  });
  await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 0.5, undefined, { timeout: 15_000 });
  await expect(main.getByRole('heading', { name: 'Video Error' })).toHaveCount(0);

  // The profile: new name and bio show on the public page, which shows no private field.
  const newName = `Renamed ${randomUUID().slice(0, 6)}`;
  const bio = `Bio written by the test ${randomUUID().slice(0, 6)}.`;
  await page.goto('/dashboard');
  await page.getByRole('tab', { name: 'Profile' }).click();
  await page.getByLabel('Display name').fill(newName);
  await page.getByLabel('Bio').fill(bio);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Profile saved.' })).toBeVisible();

  const publicProfile = await page.request.get(`/api/profiles/${creator.username}`);
  expect(((await publicProfile.json()) as ProfileReply).profile).toMatchObject({ display_name: newName, bio });
  await page.goto(`/profile/${creator.username}`);
  await expect(main.getByRole('heading', { level: 1 })).toHaveText(newName);
  await expect(main).toContainText(bio);
  await expect(main).not.toContainText(creator.email);
  await expect(main.getByRole('list', { name: `Videos by ${newName}` })).toContainText(title);

  // Deleting from the dashboard, after confirming, removes it from the list and the channel.
  await page.goto('/dashboard');
  const row = page.getByRole('list', { name: 'Your videos' }).getByRole('listitem').filter({ hasText: title });
  await expect(row).toContainText('1 view');
  await row.getByRole('button', { name: 'Delete' }).click();
  await expect(row).toHaveCount(0);
  expect(dialogs).toEqual(['confirm: Are you sure you want to delete this video?']);
  const mine = (await (await page.request.get('/api/studio/videos')).json()) as MyVideosReply;
  expect(mine.videos.map((v) => v.title)).not.toContain(title);

  await page.goto(`/channel/${creator.username}`);
  await expect(main.getByRole('heading', { level: 1 })).toHaveText(newName);
  await expect(main).toContainText('No videos found for this channel');
  expect(here(page)).toBe(`/channel/${creator.username}`);
});

test('a failed delete is reported and keeps the video in the list', async ({ page }) => {
  await signInAsCreator(page, '/upload', signInPrompt);
  // The list and the refusal are stood in for, so no real video joins the feed other tests read.
  const title = `E2E keep ${randomUUID().slice(0, 8)}`;
  const video: MyVideosReply['videos'][number] = {
    id: randomUUID(),
    title,
    thumbnail_url: null,
    channel_title: 'E2E',
    channel_slug: null,
    category: null,
    category_id: 0,
    view_count: 0,
    duration_s: 5,
    created_at: new Date().toISOString(),
    verification_status: 'approved',
    size_bytes: 1000,
    width: 640,
    height: 360,
  };
  await page.route(
    (url) => url.pathname === '/api/studio/videos',
    (route) => route.fulfill({ json: { success: true, videos: [video] } }),
  );
  await page.route(
    (url) => url.pathname === `/api/videos/${video.id}`,
    (route) => route.fulfill({ status: 500, json: { success: false, error: 'Disk on fire.', code: 'INTERNAL' } }),
  );
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.accept();
  });

  await page.goto('/dashboard');
  const row = page.getByRole('list', { name: 'Your videos' }).getByRole('listitem').filter({ hasText: title });
  await expect(row).toContainText('Approved');
  await row.getByRole('button', { name: 'Delete' }).click();
  await expect.poll(() => dialogs).toEqual(['confirm: Are you sure you want to delete this video?', 'alert: Failed to delete video']);
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('button', { name: 'Delete' })).toBeEnabled();
});

test('a server refusal shows Upload failed with the server message', async ({ page }) => {
  await signInAsCreator(page, '/upload', signInPrompt);
  const reason = 'Video upload failed: the stand-in server said no';
  await page.route(
    (url) => url.pathname === '/api/videos',
    (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 422, json: { success: false, error: reason, code: 'VALIDATION_FAILED' } })
        : route.continue(),
  );
  await page.getByLabel('Title').fill('Refused');
  await page.getByLabel('Description').fill('Refused.');
  await page.getByLabel('Video file').setInputFiles(CLIP);
  await page.getByLabel('Thumbnail image').setInputFiles(THUMBNAIL);
  await page.getByRole('button', { name: 'Upload Video' }).click();

  const failure = page.getByRole('alert').filter({ hasText: reason });
  await expect(failure.getByRole('heading')).toHaveText('❌ Upload failed');
  await expect(failure).toContainText(reason);
  // The form stays filled for another try.
  await expect(page.getByLabel('Title')).toHaveValue('Refused');
  await expect(page.getByRole('button', { name: 'Upload Video' })).toBeEnabled();
  expect(here(page)).toBe('/upload');
});
