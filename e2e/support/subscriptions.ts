/**
 * Subscribing for the browser tests: from /subscription-tiers through the embedded provider's
 * hosted page (/pay/cs_..., subscription mode) to /subscription-success.
 */
import { expect, type Page } from '@playwright/test';
import type { mySubscriptionRoute } from '../../shared/schemas/subscriptions.ts';
import type { ReplyOf } from '../../shared/schemas/route.ts';
import { SUBSCRIPTION_TIERS } from '../../shared/subscriptions.ts';
import { TEST_CARD } from './checkout.ts';

/** Accepted at the hosted page; every later charge (each renewal) fails. */
export const RENEWAL_FAILS_CARD = '4000 0000 0000 0341';

export type MySubscription = ReplyOf<typeof mySubscriptionRoute>;

/** On the hosted subscription page: the card's fields, then Start trial. */
export async function startTrialOnHostedPage(page: Page, card: string): Promise<void> {
  await page.waitForURL((url) => url.pathname.startsWith('/pay/cs_'));
  await expect(page.getByRole('heading', { name: `Start your ${SUBSCRIPTION_TIERS.pro.trialDays}-day free trial` })).toBeVisible();
  await page.getByLabel(/card number/i).fill(card);
  await page.getByLabel(/expir/i).fill('12 / 34');
  await page.getByLabel(/cvc/i).fill('123');
  await page.getByRole('button', { name: 'Start trial', exact: true }).click();
}

/**
 * The signed-in creator on `page` subscribes to Pro with `card` from the tiers page and waits
 * for the success page to confirm it.
 */
export async function subscribePro(page: Page, card: string = TEST_CARD): Promise<void> {
  await page.goto('/subscription-tiers');
  const pro = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Pro', exact: true }) });
  await pro.getByRole('button', { name: `Start ${SUBSCRIPTION_TIERS.pro.trialDays}-day free trial` }).click();
  await startTrialOnHostedPage(page, card);
  await page.waitForURL((url) => url.pathname === '/subscription-success', { timeout: 30_000 });
  await expect(page.getByText('Welcome to Pro! Your subscription is active.')).toBeVisible({ timeout: 30_000 });
}

/** The signed-in user's subscription as the server holds it. */
export async function mySubscription(page: Page): Promise<MySubscription> {
  const reply = await page.request.get('/api/subscriptions/me');
  expect(reply.status()).toBe(200);
  return (await reply.json()) as MySubscription;
}
