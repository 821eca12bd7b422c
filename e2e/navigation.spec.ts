/**
 * The shell around every page: navbar search, logo, sidebar, footer, legal pages and the
 * mobile layout. Expectations come from the API and the shared constants.
 */
import { expect, test, type Page } from '@playwright/test';
import { VIDEO_CATEGORIES } from '../shared/categories.ts';
import { CONTACT_EMAIL, FEED_PAGE_SIZE, FOOTER_YEAR, SIDEBAR_CREATOR_COUNT } from '../shared/constants.ts';
import type { signupRoute } from '../shared/schemas/auth.ts';
import type { newestCreatorsRoute } from '../shared/schemas/creators.ts';
import type { ReplyOf } from '../shared/schemas/route.ts';
import type { feedRoute } from '../shared/schemas/videos.ts';

type FeedReply = ReplyOf<typeof feedRoute>;
type CreatorsReply = ReplyOf<typeof newestCreatorsRoute>;
type SignupReply = ReplyOf<typeof signupRoute, 201>;

async function apiFeed(page: Page): Promise<FeedReply> {
  const response = await page.request.get(`/api/videos?limit=${FEED_PAGE_SIZE}`);
  expect(response.status()).toBe(200);
  return (await response.json()) as FeedReply;
}

/** Path and query of the current page, e.g. "/search?q=cats". */
const here = (page: Page) => {
  const url = new URL(page.url());
  return url.pathname + url.search;
};

const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search videos' });
const searchButton = (page: Page) => page.getByRole('button', { name: 'Search', exact: true });

test('the navbar search opens /search?q= only for text that is not blank', async ({ page }) => {
  await page.goto('/');
  const box = searchBox(page);

  await box.fill('   ');
  await box.press('Enter');
  await searchButton(page).click();
  expect(here(page)).toBe('/');

  await box.fill('  cats  ');
  await box.press('Enter');
  await expect.poll(() => here(page)).toBe('/search?q=cats');

  // The blank attempts left no history entry behind: one step back is the home page.
  await page.goBack();
  await expect.poll(() => here(page)).toBe('/');

  await box.fill('  cats  ');
  await searchButton(page).click();
  await expect.poll(() => here(page)).toBe('/search?q=cats');

  await box.fill(' cats & dogs ');
  await box.press('Enter');
  await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('cats & dogs');
});

test('the logo goes home and resets the category and the search text', async ({ page }) => {
  const all = await apiFeed(page);
  const chosen = VIDEO_CATEGORIES.find((c) => all.videos.some((v) => v.category_id === c.id));
  if (!chosen) throw new Error('The seeded feed has no categorised video');
  const chip = page.getByRole('button', { name: chosen.name, exact: true });
  const allChip = page.getByRole('button', { name: 'All', exact: true });
  const logo = page.getByRole('link', { name: 'FrameMerch home' });
  const cards = page.getByTestId('video-card');

  await page.goto('/');
  await chip.click();
  await expect(chip).toHaveAttribute('aria-pressed', 'true');
  await searchBox(page).fill('hello');

  // From another page...
  await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' }).click();
  await expect.poll(() => here(page)).toBe('/privacy-policy');
  await logo.click();
  await expect.poll(() => here(page)).toBe('/');
  await expect(allChip).toHaveAttribute('aria-pressed', 'true');
  await expect(searchBox(page)).toHaveValue('');
  await expect(cards).toHaveCount(all.videos.length);

  // ...and on the home page itself.
  await chip.click();
  await expect(chip).toHaveAttribute('aria-pressed', 'true');
  await searchBox(page).fill('again');
  await logo.click();
  await expect(allChip).toHaveAttribute('aria-pressed', 'true');
  await expect(searchBox(page)).toHaveValue('');
  await expect(cards).toHaveCount(all.videos.length);
});

test('the sidebar lists the newest creators in order and the menu toggles it', async ({ page }) => {
  const response = await page.request.get('/api/creators/newest');
  expect(response.status()).toBe(200);
  const { creators } = (await response.json()) as CreatorsReply;
  expect(creators).toHaveLength(SIDEBAR_CREATOR_COUNT);

  await page.goto('/');
  const sidebar = page.getByTestId('sidebar');
  await expect(sidebar).toBeVisible();
  const links = sidebar.getByTestId('sidebar-creator');
  await expect(links).toHaveText(creators.map((c) => c.display_name));
  for (const [i, creator] of creators.entries()) {
    await expect(links.nth(i)).toHaveAttribute('href', `/profile/${encodeURIComponent(creator.username)}`);
  }

  const menu = page.getByRole('button', { name: 'Toggle sidebar' });
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await menu.click();
  await expect(sidebar).toBeHidden();
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await menu.click();
  await expect(sidebar).toBeVisible();
  await expect(links).toHaveCount(creators.length);
});

test('signed out, the navbar offers Sign In, Start Free and Upload', async ({ page }) => {
  await page.goto('/privacy-policy');
  await expect(page.getByRole('link', { name: 'Start Free' })).toHaveAttribute('href', '/subscription-tiers');
  await expect(page.getByRole('link', { name: 'Upload' })).toHaveAttribute('href', '/upload');

  const signIn = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/auth/google/login');
  await page.getByRole('button', { name: 'Sign In' }).click();
  expect(new URL((await signIn).url()).searchParams.get('return_url')).toBe('/privacy-policy');
});

test('signed in, the avatar menu lists the account entries and closes on Escape or an outside click', async ({ page }) => {
  // A real session: a customer account made through the API (its cookie is the page's).
  const email = `navigation-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const signup = await page.request.post('/api/auth/signup', { data: { email, password: 'navigation e2e password' } });
  expect(signup.status()).toBe(201);
  const { user } = (await signup.json()) as SignupReply;

  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign In' })).toHaveCount(0);
  const avatar = page.getByRole('button', { name: 'Account menu' });
  const menu = page.getByRole('menu', { name: 'Account' });

  await avatar.click();
  await expect(menu).toContainText(`Signed in as ${user.display_name}`);
  // Admin Portal is for admins only (a deliberate change from the spec).
  await expect(menu.getByRole('menuitem')).toHaveText(['Dashboard', 'Delete Account', 'Logout']);
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();

  await avatar.click();
  await expect(menu).toBeVisible();
  await page.getByTestId('feed-grid').click({ position: { x: 5, y: 5 } });
  await expect(menu).toBeHidden();
});

test('the footer has the year and a Contact Us mail link', async ({ page }) => {
  await page.goto('/');
  const footer = page.getByRole('contentinfo');
  await expect(footer).toContainText(`© ${FOOTER_YEAR} FrameMerch`);
  await expect(footer.getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', `mailto:${CONTACT_EMAIL}`);
  await expect(footer.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms-of-service');
});

for (const [path, title, extra] of [
  ['/privacy-policy', 'Privacy Policy', ['STOP', 'HELP']],
  ['/terms-of-service', 'Terms of Service', ['3-5 business days', '30 days of delivery', '70% of the margin']],
] as const) {
  test(`${title} states the data retention figures`, async ({ page }) => {
    await page.goto(path);
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(main.getByRole('heading', { name: /Data retention/ })).toBeVisible();
    for (const text of ['7 years', '30 days', '90 days', ...extra]) await expect(main).toContainText(text);
  });
}

test('unknown addresses show Page not found, and /coming-soon has its page', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await page.getByRole('main').getByRole('link', { name: /home/i }).click();
  await expect.poll(() => here(page)).toBe('/');

  await page.goto('/coming-soon');
  await expect(page.getByRole('heading', { name: 'Coming soon' })).toBeVisible();
});

test('on a 360 px phone the signed-out navbar, cart included, fits without scrolling sideways', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Cart/ })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});

test.describe('on a 375 px wide phone', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('the feed is one column, the sidebar an overlay closed by default, the search collapsed', async ({ page }) => {
    const feed = await apiFeed(page);
    await page.goto('/');
    const cards = page.getByTestId('video-card');
    await expect(cards).toHaveCount(feed.videos.length);

    const boxes = await cards.evaluateAll((elements) =>
      elements.map((e) => {
        const r = e.getBoundingClientRect();
        return { left: Math.round(r.left), top: r.top, width: r.width };
      }),
    );
    const grid = await page.getByTestId('feed-grid').evaluate((e) => e.getBoundingClientRect().width);
    expect(new Set(boxes.map((b) => b.left)).size).toBe(1);
    for (const [i, box] of boxes.entries()) {
      expect(box.width).toBeGreaterThan(grid - 2);
      if (i > 0) expect(box.top).toBeGreaterThan(boxes[i - 1]!.top);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    const sidebar = page.getByTestId('sidebar');
    await expect(sidebar).toBeHidden();
    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    await expect(sidebar).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(sidebar).toBeHidden();

    await expect(searchBox(page)).toBeHidden();
    await page.getByRole('button', { name: 'Open search' }).click();
    await expect(searchBox(page)).toBeVisible();
    await searchBox(page).fill('cats');
    await searchBox(page).press('Enter');
    await expect.poll(() => here(page)).toBe('/search?q=cats');
  });
});
