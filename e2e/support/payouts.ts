/** Payout setup and the payment portal for the browser tests. */
import { expect, type Locator, type Page } from '@playwright/test';
import type { ReplyOf } from '../../shared/schemas/route.ts';
import type { paymentPortalRoute, payoutSetupRoute } from '../../shared/schemas/payouts.ts';

export type PortalReply = ReplyOf<typeof paymentPortalRoute>;
export type SetupReply = ReplyOf<typeof payoutSetupRoute>;

/** A card of /payment-setup's step 1, by the start of its display name. */
export const methodCard = (page: Page, displayName: string) => page.getByRole('radio', { name: new RegExp(`^${displayName}`) });

/** On /payment-setup: PayPal with `email`, then step 2 skipped; lands on /dashboard. */
export async function setUpPayPal(page: Page, email: string): Promise<void> {
  await page.goto('/payment-setup');
  await methodCard(page, 'PayPal Business').check();
  await page.getByLabel('PayPal email').fill(email);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(page.getByText(`PayPal: ${email}`)).toBeVisible();
  await page.getByRole('button', { name: 'Skip for Now', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/dashboard');
}

/** One card of the payment portal's summary, by its title. */
export const portalCard = (page: Page, title: string): Locator =>
  page.getByRole('list', { name: 'Payout summary' }).getByRole('listitem').filter({ has: page.getByRole('heading', { name: title, exact: true }) });

/** The list of the portal's recent payouts (absent while there are none). */
export const recentPayouts = (page: Page): Locator => page.getByRole('region', { name: 'Recent payouts', exact: true });

export async function portalOf(page: Page): Promise<PortalReply> {
  const reply = await page.request.get('/api/payouts/portal');
  expect(reply.status()).toBe(200);
  return (await reply.json()) as PortalReply;
}
