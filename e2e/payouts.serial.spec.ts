/**
 * A creator's payout, end to end with the embedded defaults: two creators set up PayPal on
 * /payment-setup and upload a video each; a buyer buys shirts made from each video through the
 * hosted payment page; the admin moves the app's test clock to the 1st of next month and runs
 * that period's payouts. The creator whose share reached $50 is paid it, to the cent, and sees
 * it paid on /payment-portal; the one below $50 sees 'Min $50 required' and is paid nothing.
 * Serial: the creators upload videos, which enter the feed other specs read.
 */
import { expect, test, type Browser } from '@playwright/test';
import { formatCents } from '../shared/money.ts';
import { PAYOUT_MESSAGES } from '../shared/schemas/payouts.ts';
import { QA_CLIPS } from '../scripts/qa-clips.ts';
import { ADMIN, logIn, sameSite, signUp, uniqueEmail } from './support/accounts.ts';
import { buyShirts } from './support/checkout.ts';
import { signInAsCreator } from './support/creators.ts';
import { portalCard, portalOf, recentPayouts, setUpPayPal } from './support/payouts.ts';
import { uploadQaClip } from './support/qaUpload.ts';

/** A new creator, signed in on their own page, paid by PayPal, with a video of their own. */
async function creatorWithVideo(browser: Browser) {
  const page = await browser.newPage();
  const creator = await signInAsCreator(page, '/');
  const paypalEmail = uniqueEmail('paypal');
  await setUpPayPal(page, paypalEmail);
  const clip = QA_CLIPS.find((c) => c.codec === 'h264' && c.fps === 30 && c.height === 720)!;
  const video = await uploadQaClip(page.request, clip, sameSite());
  return { page, creator, paypalEmail, video };
}

/** The period after the one the app's clock is in (YYYY-MM), and its 1st, just after midnight UTC. */
function followingPeriod(now: Date): { period: string; first: string } {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const period = first.toISOString().slice(0, 7);
  return { period, first: `${period}-01T00:00:30Z` };
}

test('a PayPal creator is paid the period’s earnings to the cent; one below $50 sees the minimum and is not paid', async ({ browser }) => {
  test.setTimeout(240_000);
  const paid = await creatorWithVideo(browser);
  const below = await creatorWithVideo(browser);

  const admin = await browser.newPage();
  await logIn(admin, ADMIN);
  const clock = await admin.request.get('/api/admin/clock');
  expect(clock.status()).toBe(200);
  const { period, first } = followingPeriod(new Date(((await clock.json()) as { now: string }).now));
  const firstShown = new Date(first).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

  const buyer = await browser.newPage();
  await signUp(buyer);
  const paidShare = (await buyShirts(buyer, paid.video, 8)).earnings;
  const belowShare = (await buyShirts(buyer, below.video, 1)).earnings;
  expect(paidShare).toBeGreaterThanOrEqual(5000);
  expect(belowShare).toBeLessThan(5000);

  // The payment webhook credits each creator's share.
  await expect.poll(async () => (await portalOf(paid.page)).pending_payout_cents, { timeout: 30_000 }).toBe(paidShare);
  await expect.poll(async () => (await portalOf(below.page)).pending_payout_cents, { timeout: 30_000 }).toBe(belowShare);

  await paid.page.goto('/payment-portal');
  await expect(portalCard(paid.page, 'Payment Method')).toContainText('Complete');
  await expect(portalCard(paid.page, 'Payment Method')).toContainText(paid.paypalEmail);
  await expect(portalCard(paid.page, 'Pending Payout')).toContainText(formatCents(paidShare));
  await expect(portalCard(paid.page, 'Pending Payout')).toContainText(PAYOUT_MESSAGES.readyForPayout);
  await expect(portalCard(paid.page, 'Next Payout')).toContainText(firstShown);

  // The admin moves the app's test clock to next month's 1st and runs that period.
  const early = await admin.request.post('/api/admin/payouts/run', { headers: sameSite(), data: { period } });
  expect(early.status()).toBe(400);
  const moved = await admin.request.post('/api/admin/clock', { headers: sameSite(), data: { to: first } });
  expect(moved.status(), await moved.text()).toBe(200);
  const run = await admin.request.post('/api/admin/payouts/run', { headers: sameSite(), data: { period } });
  expect(run.status(), await run.text()).toBe(200);
  expect(((await run.json()) as { run: { created: number } }).run.created).toBeGreaterThanOrEqual(1);

  // The embedded PayPal settles it a moment later and reports through the webhook: paid, to the cent.
  await expect.poll(async () => (await portalOf(paid.page)).recent_payouts.map((p) => [p.period, p.amount_cents, p.method, p.status]), { timeout: 30_000 }).toEqual([
    [period, paidShare, 'paypal', 'paid'],
  ]);
  const after = await portalOf(paid.page);
  expect(after).toMatchObject({ pending_payout_cents: 0, total_earnings_cents: paidShare, last_payout_date: `${period}-01` });

  await paid.page.reload();
  const payouts = recentPayouts(paid.page);
  await expect(payouts.getByRole('listitem')).toHaveCount(1);
  await expect(payouts.getByRole('listitem').first()).toContainText(formatCents(paidShare));
  await expect(payouts.getByRole('listitem').first()).toContainText('Paid');
  await expect(payouts.getByRole('listitem').first()).toContainText('PayPal');
  await expect(portalCard(paid.page, 'Total Earnings')).toContainText(formatCents(paidShare));
  await expect(portalCard(paid.page, 'Pending Payout')).toContainText('$0.00');
  await expect(portalCard(paid.page, 'Pending Payout')).toContainText(PAYOUT_MESSAGES.minimumRequired);
  await expect(portalCard(paid.page, 'Next Payout')).toContainText(`Last payout: ${firstShown}`);

  // Below the minimum: nothing paid, and the portal says why.
  const belowPortal = await portalOf(below.page);
  expect(belowPortal).toMatchObject({ pending_payout_cents: belowShare, ready_for_payout: false, recent_payouts: [] });
  await below.page.goto('/payment-portal');
  await expect(portalCard(below.page, 'Pending Payout')).toContainText(formatCents(belowShare));
  await expect(portalCard(below.page, 'Pending Payout')).toContainText(PAYOUT_MESSAGES.minimumRequired);
  await expect(portalCard(below.page, 'Next Payout')).toContainText(PAYOUT_MESSAGES.notScheduled);
  await expect(recentPayouts(below.page)).toContainText('No payouts yet.');

  // Run again: the period pays no one twice.
  const again = await admin.request.post('/api/admin/payouts/run', { headers: sameSite(), data: { period } });
  expect(again.status()).toBe(200);
  expect((await portalOf(paid.page)).recent_payouts).toHaveLength(1);
});
