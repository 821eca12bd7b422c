/**
 * Every page passes axe (WCAG 2.0 and 2.1, levels A and AA) with no serious or critical
 * violation, at a desktop size and on a 375x667 phone: each route of the app in the states a
 * visitor meets (loaded, empty, error), with the modals pages open (sign-in, updates, cart,
 * print crop) and the player's crop box showing. A failure lists every violation by rule,
 * impact and the selectors of the elements at fault, for all the states the test walked.
 */
import { randomUUID } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import type { ReplyOf } from '../shared/schemas/route.ts';
import type { channelRoute } from '../shared/schemas/channels.ts';
import type { feedRoute, videoRoute } from '../shared/schemas/videos.ts';
import { ADMIN, logIn, signUp } from './support/accounts.ts';
import { addToCart, apiCheckoutSession, checkoutPage, makeProductThroughApi, sessionIdOf, termValue } from './support/checkout.ts';
import { signInAsCreator } from './support/creators.ts';
import { openTool } from './support/printTool.ts';
import { screenshotImages, selectScreenshotButton } from './support/qaCapture.ts';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const BLOCKING = new Set(['serious', 'critical']);

/** The serious and critical violations seen on the states a test walks, reported together at its end. */
class Audit {
  private readonly found: string[] = [];
  readonly skipped: string[] = [];
  constructor(private readonly page: Page) {}

  /** Runs axe on the page as it is now, once the page's content (and `ready`, when given) is shown. */
  async check(state: string, ready?: Locator): Promise<void> {
    await settle(this.page, ready);
    const results = await new AxeBuilder({ page: this.page }).withTags(WCAG_TAGS).analyze();
    for (const v of results.violations) {
      if (!v.impact || !BLOCKING.has(v.impact)) continue;
      const targets = v.nodes.map((n) => `    ${n.target.join(' >> ')}${n.failureSummary ? `  (${firstLine(n.failureSummary)})` : ''}`);
      this.found.push(`${state}: ${v.id} [${v.impact}] ${v.help}\n${targets.join('\n')}`);
    }
  }

  assertClean(): void {
    if (this.skipped.length) test.info().annotations.push(...this.skipped.map((description) => ({ type: 'skipped state', description })));
    expect(this.found, `serious or critical axe violations:\n\n${this.found.join('\n\n')}`).toEqual([]);
  }
}

const firstLine = (summary: string) => summary.split('\n').slice(1).join(' ').trim().slice(0, 160);

/** Waits for the page's lazy chunk and data: no loading message in main, and `ready` visible. */
async function settle(page: Page, ready?: Locator) {
  await expect(page.locator('main .status--loading')).toHaveCount(0, { timeout: 20_000 });
  if (ready) await expect(ready).toBeVisible({ timeout: 20_000 });
  // The page's own transitions (a modal fading in) end before the colours are read.
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
}

const mainHeading = (page: Page) => page.getByRole('main').getByRole('heading', { level: 1 });

async function getJson<T>(page: Page, url: string): Promise<T> {
  const response = await page.request.get(url);
  expect(response.status(), url).toBe(200);
  return (await response.json()) as T;
}

/** A video with a playable file, and a channel with videos, as the API lists them now. */
async function seeded(page: Page) {
  const feed = await getJson<ReplyOf<typeof feedRoute>>(page, '/api/videos?limit=50');
  let video: ReplyOf<typeof videoRoute>['video'] | null = null;
  for (const card of feed.videos) {
    const detail = await getJson<ReplyOf<typeof videoRoute>>(page, `/api/videos/${card.id}`);
    if (detail.video.video_url) {
      video = detail.video;
      break;
    }
  }
  if (!video) throw new Error('The seed needs a video with a file');
  const slug = feed.videos.findLast((v) => v.channel_slug !== null)?.channel_slug;
  if (!slug) throw new Error('The seed needs a video with a channel');
  const { channel } = await getJson<ReplyOf<typeof channelRoute>>(page, `/api/channels/${slug}`);
  return { video, channel };
}

/** On the video page: pauses at `seconds` and captures that frame into a new slot. */
async function captureAt(page: Page, seconds: number) {
  const video = page.locator('video');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
  await video.evaluate(async (el: HTMLVideoElement, time) => {
    el.pause();
    await new Promise<void>((resolve) => {
      el.addEventListener('seeked', () => resolve(), { once: true });
      el.currentTime = time;
    });
  }, seconds);
  const before = await screenshotImages(page).count();
  await selectScreenshotButton(page).click();
  await expect(screenshotImages(page)).toHaveCount(before + 1, { timeout: 20_000 });
}

const VIEWPORTS = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 375, height: 667 } },
] as const;

for (const { name, viewport } of VIEWPORTS) {
  test.describe(`axe at ${name} size`, () => {
    test.use({ viewport, reducedMotion: 'reduce' });
    test.describe.configure({ timeout: 240_000 });

    test('the feed, search, channel and profile', async ({ page }) => {
      const audit = new Audit(page);
      const { channel } = await seeded(page);

      await page.goto('/');
      await audit.check('home feed', page.getByRole('main').getByRole('link').first());
      await page.goto(`/search?q=${encodeURIComponent(channel.display_name.slice(0, 4))}`);
      await audit.check('search (best match)', mainHeading(page));
      await page.goto(`/search?q=zz${randomUUID().slice(0, 8)}`);
      await audit.check('search (nothing found)', page.getByRole('main').getByText(/No channels found/));
      await page.goto(`/channel/${channel.username}`);
      await audit.check('channel', mainHeading(page));
      await page.goto(`/profile/${channel.username}`);
      await audit.check('profile', mainHeading(page));
      audit.assertClean();
    });

    test('the shop signed out: categories, sign-in modal, browsing a category', async ({ page }) => {
      const audit = new Audit(page);

      await page.goto('/merchandise');
      await audit.check('/merchandise', mainHeading(page));
      await page.getByRole('list', { name: 'Merchandise categories' }).getByRole('button').first().click();
      await audit.check('/merchandise, sign-in modal', page.getByRole('dialog', { name: 'Login' }));
      await page.goto('/product/browse?category=mens&authenticated=false');
      await audit.check('product browse (no screenshot)', mainHeading(page));
      audit.assertClean();
    });

    test('sign-in, legal and information pages, and the updates modal', async ({ page }) => {
      const audit = new Audit(page);

      await page.goto('/login');
      await audit.check('/login', mainHeading(page));
      await page.goto('/signup');
      await audit.check('/signup', mainHeading(page));
      const auth = await page.goto('/auth');
      if (auth?.status() === 404 || (await page.getByRole('heading', { name: 'Page not found' }).count()) > 0) {
        audit.skipped.push('/auth is not built yet (the page is not found)');
      } else {
        await audit.check('/auth', mainHeading(page));
      }

      await page.goto('/privacy-policy');
      await audit.check('/privacy-policy', mainHeading(page));
      await page.getByRole('contentinfo').getByRole('button', { name: 'Get updates' }).click();
      await audit.check('updates (subscribe) modal', page.getByRole('dialog', { name: 'Get updates' }));
      await page.goto('/terms-of-service');
      await audit.check('/terms-of-service', mainHeading(page));
      await page.goto('/coming-soon');
      await audit.check('/coming-soon', mainHeading(page));
      await page.goto(`/no-such-page-${randomUUID().slice(0, 6)}`);
      await audit.check('not found', mainHeading(page));
      audit.assertClean();
    });

    test('error and empty states: success, order, subscription, payment setup, dev mail', async ({ page }) => {
      const audit = new Audit(page);

      await page.goto('/success');
      await audit.check('/success without a session (error)', page.getByRole('alert'));
      await page.goto('/success?session_id=cs_test_doesnotexist0000');
      await audit.check('/success, unknown session (error)', page.getByRole('alert'));
      await page.goto(`/orders/${randomUUID()}?token=not-the-right-token`);
      await audit.check('order page (not found)', page.getByRole('alert'));
      await page.goto('/subscription-success');
      await audit.check('/subscription-success without a session', mainHeading(page));
      await page.goto('/approve-subscription');
      await audit.check('/approve-subscription without a token', mainHeading(page));
      await page.goto('/subscription-tiers');
      await audit.check('/subscription-tiers (signed out)', mainHeading(page));
      await page.goto('/payment-setup');
      await audit.check('/payment-setup (signed out)', mainHeading(page));
      await page.goto('/dev/mail');
      await audit.check('/dev/mail', mainHeading(page));
      audit.assertClean();
    });

    test('the print crop test page and its modal', async ({ page }) => {
      const audit = new Audit(page);

      await openTool(page);
      await audit.check('/test-crop-tool, print crop modal', page.getByRole('dialog', { name: 'Simple Print Crop Tool' }));
      await page.goto('/test-crop-tool');
      await audit.check('/test-crop-tool', mainHeading(page));

      audit.assertClean();
    });

    test('the video page: capture, crop box, print crop modal, sign-in for Make Merch', async ({ page }) => {
      const audit = new Audit(page);
      const { video } = await seeded(page);
      await page.goto(`/video/${video.category_id}/${video.id}`);
      await audit.check('video page', mainHeading(page));

      await captureAt(page, 0.5);
      await audit.check('video page, a captured screenshot', screenshotImages(page).last());
      await page.getByRole('button', { name: 'Crop Mode', exact: true }).click();
      await audit.check('video page, crop box open', page.getByRole('group', { name: 'Crop box' }));
      await page.getByRole('button', { name: 'Cancel', exact: true }).click();

      await page.getByRole('button', { name: /^Crop screenshot \d+$/ }).last().click();
      await audit.check('video page, print crop modal', page.getByRole('dialog', { name: 'Simple Print Crop Tool' }));
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog', { name: 'Simple Print Crop Tool' })).toBeHidden();

      await page.getByRole('button', { name: 'Make Merch', exact: true }).click();
      await audit.check('video page, sign-in modal', page.getByRole('dialog', { name: 'Login' }));
      await page.getByRole('dialog', { name: 'Login' }).getByRole('button', { name: 'Sign Up' }).click();
      await audit.check('video page, sign-up modal', page.getByRole('dialog', { name: 'Sign Up' }));

      audit.assertClean();
    });

    test('a shopper: product page, cart, checkout, payment page and the order', async ({ page }) => {
      const audit = new Audit(page);
      const productId = await makeProductThroughApi(page);
      await page.goto(`/product/${productId}`);
      await audit.check('product page', page.getByRole('article').first());
      await addToCart(page, 'Unisex T-Shirt', { size: 'M' });
      await page.getByRole('button', { name: /^Cart, \d+ items?$/ }).click();
      await audit.check('cart modal', page.getByRole('dialog', { name: 'Your Cart' }));
      await page.keyboard.press('Escape');

      await page.goto('/checkout');
      const checkout = checkoutPage(page);
      await audit.check('checkout', checkout.placeOrder);
      await page.getByRole('button', { name: 'Calculate Shipping' }).click();
      await audit.check('checkout, ZIP missing (error)', page.getByRole('alert'));
      await checkout.zip.fill('10001');
      await expect(termValue(page, 'Shipping')).toHaveText(/^\$\d+\.\d\d \(Standard\)$/);
      await audit.check('checkout, shipping quoted');

      await checkout.placeOrder.click();
      await page.waitForURL((u) => u.pathname.startsWith('/pay/'));
      await audit.check('embedded payment page', page.getByRole('button', { name: /^Pay/ }));

      // The order page from its secret link, for the order the payment page is for.
      const { order_url } = await apiCheckoutSession(page, sessionIdOf(page));
      await page.goto(order_url);
      await audit.check('order page', mainHeading(page));
      audit.assertClean();
    });

    test('an empty cart at checkout', async ({ page }) => {
      const audit = new Audit(page);
      await signUp(page);
      await page.goto('/checkout');
      await audit.check('checkout, empty cart', page.getByText('Your cart is empty', { exact: true }));
      audit.assertClean();
    });

    test('a creator: upload, dashboard, payment setup and portal, subscription tiers', async ({ page }) => {
      const audit = new Audit(page);
      await signInAsCreator(page, '/privacy-policy');
      await audit.check('signed in as a creator (navbar)');
      await page.getByRole('button', { name: 'Account menu' }).click();
      await audit.check('account menu open', page.getByRole('menu'));
      await page.keyboard.press('Escape');

      await page.goto('/upload');
      await audit.check('/upload', mainHeading(page));
      await page.goto('/dashboard');
      await audit.check('/dashboard', mainHeading(page));
      for (const tab of await page.getByRole('main').getByRole('tab').all()) {
        const label = (await tab.textContent())?.trim() ?? 'tab';
        await tab.click();
        await audit.check(`/dashboard, ${label} tab`, page.getByRole('tabpanel'));
      }
      await page.goto('/payment-setup');
      await audit.check('/payment-setup', mainHeading(page));
      await page.goto('/payment-portal');
      await audit.check('/payment-portal', mainHeading(page));
      await page.goto('/subscription-tiers');
      await audit.check('/subscription-tiers', mainHeading(page));

      audit.assertClean();
    });

    test('the admin portal', async ({ page }) => {
      const audit = new Audit(page);
      await logIn(page, ADMIN);
      await page.goto('/admin');
      await audit.check('/admin', mainHeading(page));
      for (const tab of await page.getByRole('main').getByRole('tab').all()) {
        const label = (await tab.textContent())?.trim() ?? 'tab';
        await tab.click();
        await audit.check(`/admin, ${label} tab`, page.getByRole('tabpanel'));
      }
      audit.assertClean();
    });
  });
}
