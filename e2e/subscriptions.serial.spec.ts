/**
 * A creator's subscription, end to end with the embedded payment provider and the app's test
 * clock: the tiers page and its calculator, subscribing to Pro with a card on the hosted page,
 * the success page, the profile's Pro badge; the trial's end renewed by invoice.paid; and a
 * card whose renewals fail, which ends in Free once the retries run out.
 * Serial, and after every other spec: it moves the app's clock days ahead, which would expire
 * other specs' open checkouts and unfinished uploads.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { formatCents } from '../shared/money.ts';
import { SUBSCRIPTION_TIERS } from '../shared/subscriptions.ts';
import { ADMIN, logIn, sameSite } from './support/accounts.ts';
import { signInAsCreator, type Creator } from './support/creators.ts';
import { mySubscription, RENEWAL_FAILS_CARD, subscribePro } from './support/subscriptions.ts';

test.describe.configure({ mode: 'serial' });

const HOUR_MS = 3600 * 1000;
const DAY_MS = 24 * HOUR_MS;

let admin: Page;

test.beforeAll(async ({ browser }) => {
  admin = await browser.newPage();
  await logIn(admin, ADMIN);
});

test.afterAll(async () => {
  await admin.close();
});

/** Moves the app's clock to `to` (forward only) as the admin. */
async function moveClockTo(to: Date): Promise<void> {
  const moved = await admin.request.post('/api/admin/clock', { headers: sameSite(), data: { to: to.toISOString() } });
  expect(moved.status(), await moved.text()).toBe(200);
  expect(Date.parse(((await moved.json()) as { now: string }).now)).toBeGreaterThanOrEqual(to.getTime());
}

async function newCreator(browser: Browser): Promise<{ page: Page; creator: Creator }> {
  const page = await browser.newPage();
  const creator = await signInAsCreator(page, '/');
  return { page, creator };
}

/** The profile's Pro badge, as a visitor sees it. */
async function expectProBadge(page: Page, creator: Creator, shown: boolean): Promise<void> {
  await page.goto(`/profile/${creator.username}`);
  await expect(page.getByRole('heading', { level: 1, name: new RegExp(creator.name) })).toBeVisible();
  if (shown) await expect(page.getByTitle('Pro subscriber')).toHaveText('Pro');
  else await expect(page.getByTitle('Pro subscriber')).toHaveCount(0);
}

test('a creator compares the tiers, works out earnings, subscribes to Pro and stays Pro once the trial is paid for', async ({ browser }) => {
  test.setTimeout(180_000);
  const { page, creator } = await newCreator(browser);

  // The tiers side by side, with what each allows and Pro's price.
  await page.goto('/subscription-tiers');
  const tiers = page.getByRole('list', { name: 'Subscription tiers' });
  const free = tiers.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Free', exact: true }) });
  const pro = tiers.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Pro', exact: true }) });
  await expect(free).toContainText('$0/month');
  await expect(free).toContainText('100 MB');
  await expect(free).toContainText('10 minutes');
  await expect(free).toContainText('Current plan');
  await expect(pro).toContainText('$9.99/month');
  await expect(pro).toContainText('2 GB');
  await expect(pro).toContainText('60 minutes');
  await expect(pro.getByRole('button', { name: 'Start 7-day free trial' })).toBeVisible();
  expect(SUBSCRIPTION_TIERS.pro.monthlyPriceCents).toBe(999);

  // The calculator: the spec's example, then a month of 250 items.
  const results = page.getByRole('status', { name: 'Your earnings' });
  await page.getByLabel('Price per item ($)').fill('21.69');
  await page.getByLabel('Overhead per item ($)').fill('11.69');
  await page.getByLabel('Commission per item ($)').fill('3');
  await page.getByLabel('Units per month').fill('250');
  const figure = (term: string) => results.locator('div', { has: page.getByText(term, { exact: true }) }).locator('dd');
  await expect(figure('Profit per item')).toHaveText('$7.00');
  await expect(figure('Profit per month')).toHaveText(formatCents(700 * 250));
  await expect(figure('Your share (70%) per item')).toHaveText('$4.90');
  await expect(figure('Your share per month')).toHaveText(formatCents(490 * 250));
  await page.getByLabel('Units per month').fill('ten');
  await expect(page.getByText('Enter a whole number of units.')).toBeVisible();

  // Subscribing: the hosted page with 4242 4242 4242 4242, then the success page.
  await subscribePro(page);
  await expect(page.getByRole('heading', { name: 'Next steps' })).toBeVisible();
  const trialing = (await mySubscription(page)).subscription;
  expect(trialing).toMatchObject({ tier: 'pro', status: 'trialing', stripe_status: 'trialing', cancel_at_period_end: false });
  const trialEnd = Date.parse(trialing.trial_end!);
  const trialDays = Math.round((trialEnd - Date.parse(trialing.current_period_start!)) / DAY_MS);
  expect(trialDays).toBe(7);

  // The channel link, and the profile's badge.
  await page.getByRole('link', { name: 'Go to your channel' }).click();
  await page.waitForURL((url) => url.pathname === `/channel/${creator.username}`);
  const visitor = await browser.newPage();
  await expectProBadge(visitor, creator, true);
  const tier = await visitor.request.get(`/api/users/${creator.username}/subscription`);
  expect(await tier.json()).toEqual({ success: true, tier: 'pro', status: 'trialing', isThirdTier: false });

  // The tiers page now names Pro the current plan, and a second checkout is refused.
  await page.goto('/subscription-tiers');
  await expect(pro).toContainText('Current plan');
  await expect(pro.getByRole('button', { name: 'Manage subscription' })).toBeVisible();
  const again = await page.request.post('/api/subscriptions/checkout', { headers: sameSite(), data: { tier: 'pro' } });
  expect(again.status()).toBe(409);

  // The clock passes the trial's end: the provider charges the card, invoice.paid arrives, and the subscription is active for a month.
  await moveClockTo(new Date(trialEnd + HOUR_MS));
  await expect
    .poll(async () => (await mySubscription(page)).subscription.status, { timeout: 30_000, message: 'active after the first renewal' })
    .toBe('active');
  const renewed = (await mySubscription(page)).subscription;
  expect(renewed.tier).toBe('pro');
  expect(Date.parse(renewed.current_period_start!)).toBe(trialEnd);
  expect(Date.parse(renewed.current_period_end!) - trialEnd).toBeGreaterThanOrEqual(28 * DAY_MS);
  await expectProBadge(visitor, creator, true);
  await visitor.close();
  await page.close();
});

test('a card whose renewals fail: past due through the retries, then back to Free', async ({ browser }) => {
  test.setTimeout(180_000);
  const { page, creator } = await newCreator(browser);
  await subscribePro(page, RENEWAL_FAILS_CARD);
  const trialing = (await mySubscription(page)).subscription;
  expect(trialing).toMatchObject({ tier: 'pro', status: 'trialing' });
  const trialEnd = Date.parse(trialing.trial_end!);

  // The first charge fails: past due, still Pro while the provider retries.
  await moveClockTo(new Date(trialEnd + HOUR_MS));
  await expect.poll(async () => (await mySubscription(page)).subscription.status, { timeout: 30_000 }).toBe('past_due');
  expect((await mySubscription(page)).subscription.tier).toBe('pro');

  // Two retries later it is still past due.
  await moveClockTo(new Date(trialEnd + 3 * DAY_MS + 2 * HOUR_MS));
  await expect.poll(async () => (await mySubscription(page)).subscription.status, { timeout: 30_000 }).toBe('past_due');
  expect((await mySubscription(page)).subscription.tier).toBe('pro');

  // The last retry (5 days after the first attempt) fails too: the subscription is deleted and the creator is on Free.
  await moveClockTo(new Date(trialEnd + 5 * DAY_MS + 2 * HOUR_MS));
  await expect.poll(async () => (await mySubscription(page)).subscription.tier, { timeout: 30_000, message: 'Free once the retries run out' }).toBe('free');
  expect((await mySubscription(page)).subscription.stripe_status).toBe('canceled');
  await expectProBadge(page, creator, false);

  // The tiers page offers Pro again.
  await page.goto('/subscription-tiers');
  const pro = page.getByRole('list', { name: 'Subscription tiers' }).getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Pro', exact: true }) });
  await expect(pro.getByRole('button', { name: 'Start 7-day free trial' })).toBeVisible();
  await page.close();
});
