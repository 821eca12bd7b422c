/**
 * The admin portal in the browser: the seeded admin opens /admin, reads the dashboard, finds a
 * creator and suspends them (their open session then answers 401), sets the maintenance banner
 * (shown on every page) and clears it; a customer is alerted and sent home. Then, with
 * moderation on, new uploads wait: the admin approves one and rejects another (only the approved
 * one reaches the feed), refunds an order (the creator's earnings drop by its share), and finds
 * each action in the log. Serial and last: the banner, moderation and a suspension change what
 * other specs see.
 */
import { expect, test, type Page } from '@playwright/test';
import { formatCents } from '../shared/money.ts';
import type { dashboardStatsRoute } from '../shared/schemas/admin.ts';
import type { salesAnalyticsRoute } from '../shared/schemas/checkout.ts';
import type { ReplyOf } from '../shared/schemas/route.ts';
import type { feedRoute } from '../shared/schemas/videos.ts';
import { QA_CLIPS } from '../scripts/qa-clips.ts';
import { ADMIN, logIn, sameSite, signUp } from './support/accounts.ts';
import { buyShirts } from './support/checkout.ts';
import { signInAsCreator } from './support/creators.ts';
import { uploadQaClip } from './support/qaUpload.ts';

const statCard = (page: Page, title: string) =>
  page.getByRole('list', { name: 'Statistics' }).getByRole('listitem').filter({ has: page.getByRole('heading', { name: title, exact: true }) });
const dashboardStats = async (page: Page) => ((await (await page.request.get('/api/admin/dashboard-stats')).json()) as ReplyOf<typeof dashboardStatsRoute>).stats;

/**
 * The dashboard's Total users card shows the count as it was when the page read it, and the
 * other test of this file signs people up meanwhile (no spec deletes an account while these run):
 * so the count shown lies between `before`, read before the page loaded, and the count read once
 * it shows (the two are equal, and so must the card be, when nobody signed up meanwhile).
 */
async function expectTotalUsersSince(page: Page, before: number) {
  const figure = statCard(page, 'Total users').getByRole('paragraph');
  // Waits for the figure (the card may still be loading), written as a whole count.
  await expect(figure, 'Total users, written as a whole count').toHaveText(/^\d{1,3}(,\d{3})*$/);
  const text = (await figure.textContent()) ?? '';
  const after = (await dashboardStats(page)).total_users;
  const shown = Number(text.replace(/,/g, ''));
  const range = `Total users (${text}) between the count before the page loaded (${before}) and after (${after})`;
  expect(shown, range).toBeGreaterThanOrEqual(before);
  expect(shown, range).toBeLessThanOrEqual(after);
}

test('the admin reads the dashboard, suspends a creator and sets the banner; a customer is turned away', async ({ browser }) => {
  test.setTimeout(120_000);
  const creatorPage = await browser.newPage();
  const creator = await signInAsCreator(creatorPage, '/');

  const admin = await browser.newPage();
  await logIn(admin, ADMIN);
  const usersBefore = (await dashboardStats(admin)).total_users;
  await admin.goto('/admin');
  await expect(admin.getByRole('heading', { level: 1, name: 'Admin portal' })).toBeVisible();
  await expectTotalUsersSince(admin, usersBefore);

  // User Management: find the creator and suspend them.
  await admin.getByRole('tab', { name: 'User Management' }).click();
  await expect(admin).toHaveURL(/tab=users/);
  await admin.getByLabel('Search users').fill(creator.email);
  const row = admin.getByRole('row').filter({ hasText: creator.email });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: /Suspend/ }).click();
  await expect(row.getByRole('button', { name: /Activate/ })).toBeEnabled();
  await expect(row.getByRole('button', { name: /Suspend/ })).toBeDisabled();
  expect((await creatorPage.request.get('/api/subscriptions/me')).status()).toBe(401);

  // Logs: the suspension is there.
  await admin.getByRole('tab', { name: 'Logs' }).click();
  await expect(admin.getByRole('table', { name: 'Admin log' }).getByRole('row').filter({ hasText: creator.email })).toContainText('User suspended');

  // System Settings: the banner shows on the next page load, and goes when cleared.
  await admin.getByRole('tab', { name: 'System Settings' }).click();
  const banner = admin.getByLabel('Banner text');
  await banner.fill('Planned maintenance tonight at 22:00 UTC.');
  const form = admin.getByRole('form', { name: 'Maintenance banner' });
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('Saved.')).toBeVisible();
  const visitor = await browser.newPage();
  await visitor.goto('/');
  await expect(visitor.getByText('Planned maintenance tonight at 22:00 UTC.')).toBeVisible();
  await banner.fill('');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('Saved.')).toBeVisible();
  await visitor.reload();
  await expect(visitor.getByRole('link', { name: 'FrameMerch home' })).toBeVisible();
  await expect(visitor.getByText('Planned maintenance tonight at 22:00 UTC.')).toHaveCount(0);

  // A customer is alerted and sent home.
  const customer = await browser.newPage();
  await signUp(customer);
  const alerted = customer.waitForEvent('dialog');
  await customer.goto('/admin');
  const dialog = await alerted;
  expect(dialog.message()).toBe('Access denied. Admin privileges required.');
  await dialog.accept();
  await customer.waitForURL((url) => url.pathname === '/');
});

const feedIds = async (page: Page) => ((await (await page.request.get('/api/videos?limit=100')).json()) as ReplyOf<typeof feedRoute>).videos.map((v) => v.id);
const earnings = async (page: Page) => ((await (await page.request.get('/api/studio/analytics')).json()) as ReplyOf<typeof salesAnalyticsRoute>).analytics.earnings_cents;

test('with moderation on, uploads wait for approval; a refund takes back the creator\'s share; every action is in the log', async ({ browser }) => {
  test.setTimeout(240_000);
  const admin = await browser.newPage();
  await logIn(admin, ADMIN);
  const panel = admin.getByRole('tabpanel');

  // System Settings: new uploads need approval.
  await admin.goto('/admin?tab=settings');
  const moderation = admin.getByRole('form', { name: 'Moderation' });
  await moderation.getByLabel('New uploads need approval').check();
  await moderation.getByRole('button', { name: 'Save' }).click();
  await expect(moderation.getByText('Saved.')).toBeVisible();

  // A creator uploads two videos: both wait, and neither is in the feed.
  const creatorPage = await browser.newPage();
  await signInAsCreator(creatorPage, '/');
  const [clipA, clipB] = QA_CLIPS.filter((c) => c.codec === 'h264').slice(0, 2);
  const approved = await uploadQaClip(creatorPage.request, clipA!, sameSite());
  const rejected = await uploadQaClip(creatorPage.request, clipB!, sameSite());
  const visitor = await browser.newPage();
  expect(await feedIds(visitor)).not.toContain(approved.id);
  expect(await feedIds(visitor)).not.toContain(rejected.id);

  // The dashboard's figures are the data's: its pending count is the moderation list's length.
  // (Only the user count moves while the page loads: the other test signs people up.)
  const stats = await dashboardStats(admin);
  await admin.goto('/admin');
  expect(stats.pending_videos).toBeGreaterThanOrEqual(2);
  await expect(statCard(admin, 'Pending videos')).toContainText(stats.pending_videos.toLocaleString('en-US'));
  await expectTotalUsersSince(admin, stats.total_users);
  await expect(statCard(admin, 'Revenue')).toContainText(formatCents(stats.revenue_cents));
  await admin.getByRole('tab', { name: 'Content Moderation' }).click();
  const videos = admin.getByRole('list', { name: 'Videos for moderation' }).getByRole('listitem');
  if (stats.pending_videos <= 20) await expect(videos).toHaveCount(stats.pending_videos);

  // Approve one, reject the other; each button is disabled once it would do nothing.
  // Rows by the video's id: other specs upload the same clips under the same titles.
  const rowOf = (id: string) => videos.filter({ has: admin.locator(`[id="admin-video-${id}"]`) });
  await rowOf(approved.id).getByRole('button', { name: 'Approve' }).click();
  await rowOf(rejected.id).getByRole('button', { name: 'Reject' }).click();
  await panel.getByLabel('Status').selectOption('all');
  await panel.getByLabel('Search videos').fill(approved.clip.name);
  await expect(rowOf(approved.id).getByRole('button', { name: 'Approve' })).toBeDisabled();
  await panel.getByLabel('Search videos').fill(rejected.clip.name);
  await expect(rowOf(rejected.id).getByRole('button', { name: 'Reject' })).toBeDisabled();
  await expect.poll(() => feedIds(visitor), { timeout: 10_000 }).toContain(approved.id);
  expect(await feedIds(visitor)).not.toContain(rejected.id);

  // A buyer buys from the approved video; the admin refunds the order; the creator's share goes.
  const before = await earnings(creatorPage);
  const buyer = await browser.newPage();
  await signUp(buyer);
  const order = await buyShirts(buyer, approved, 1);
  await expect.poll(() => earnings(creatorPage), { timeout: 30_000 }).toBe(before + order.earnings);
  await admin.getByRole('tab', { name: 'Orders' }).click();
  await panel.getByLabel('Search orders').fill(order.email);
  const orderRow = admin.getByRole('table', { name: 'Orders' }).getByRole('row').filter({ hasText: order.email });
  await expect(orderRow).toHaveCount(1);
  await orderRow.getByRole('button', { name: 'View' }).click();
  const detail = admin.getByRole('region', { name: /^Order / });
  await expect(detail).toContainText(order.orderId);
  await detail.getByRole('button', { name: 'Refund' }).click();
  await admin.getByRole('dialog', { name: 'Refund order?' }).getByRole('button', { name: 'Refund in full' }).click();
  await expect(admin.getByRole('dialog', { name: 'Refund order?' })).toHaveCount(0, { timeout: 15_000 });
  await expect(detail.getByRole('heading', { name: /^Order / })).toContainText('Refunded');
  await expect(detail.getByRole('button', { name: 'Refund' })).toBeDisabled();
  await expect.poll(() => earnings(creatorPage), { timeout: 30_000 }).toBe(before);

  // The log holds each action, newest first.
  await admin.getByRole('tab', { name: 'Logs' }).click();
  const log = admin.getByRole('table', { name: 'Admin log' });
  await expect(log.getByRole('row').filter({ hasText: order.orderId })).toContainText('Order refunded');
  await expect(log.getByRole('row').filter({ hasText: approved.id })).toContainText('Video approved');
  await expect(log.getByRole('row').filter({ hasText: rejected.id })).toContainText('Video rejected');
  await expect(log.getByRole('row').filter({ hasText: 'moderation_required' }).first()).toContainText('Setting changed');
  await panel.getByLabel('Action').selectOption({ label: 'Order refunded' });
  await expect(log.getByRole('row').filter({ hasText: 'Order refunded' })).not.toHaveCount(0);
  await expect(log.getByRole('row').filter({ hasText: 'Video approved' })).toHaveCount(0);

  // Moderation off again.
  await admin.goto('/admin?tab=settings');
  await moderation.getByLabel('New uploads need approval').uncheck();
  await moderation.getByRole('button', { name: 'Save' }).click();
  await expect(moderation.getByText('Saved.')).toBeVisible();
});
