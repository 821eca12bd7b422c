/**
 * /payment-setup's bank transfer form: each of the spec's validation messages, on the field it is
 * about; once saved, the account and routing numbers never come back from the server, in any
 * reply the browser gets, on the setup page, the dashboard or the payment portal: only their
 * last 4 digits.
 */
import { randomInt } from 'node:crypto';
import { expect, test, type Response } from '@playwright/test';
import { PAYOUT_MESSAGES } from '../shared/schemas/payouts.ts';
import { signInAsCreator } from './support/creators.ts';
import { methodCard, portalCard } from './support/payouts.ts';

/** A routing number whose check digit is right (weights 3, 7, 1), other than any in the fixtures. */
function routingNumber(): string {
  for (;;) {
    const first8 = String(randomInt(10_000_000, 100_000_000)).padStart(8, '0');
    const w = [3, 7, 1, 3, 7, 1, 3, 7];
    const sum = [...first8].reduce((s, d, i) => s + Number(d) * w[i]!, 0);
    const candidate = `${first8}${(10 - (sum % 10)) % 10}`;
    if (candidate !== '021000021') return candidate;
  }
}

test('the ACH form shows each validation message; once saved, only the last 4 digits of the bank numbers leave the server', async ({ page }) => {
  test.setTimeout(90_000);
  const replies: Promise<string>[] = [];
  const keep = (res: Response) => {
    const type = res.headers()['content-type'] ?? '';
    if (/json|html|text|javascript/.test(type)) replies.push(res.text().catch(() => ''));
  };
  page.on('response', keep);

  await signInAsCreator(page, '/');
  await page.goto('/payment-setup');
  await expect(page.getByLabel('Country')).toHaveValue('US');
  await methodCard(page, 'Direct Bank Transfer').check();

  const routing = page.getByLabel('Routing number');
  const account = page.getByLabel('Account number');
  const holder = page.getByLabel('Account holder name');
  const submit = page.getByRole('button', { name: 'Continue', exact: true });
  const problem = page.getByRole('alert');

  const expectProblem = async (message: string, field: typeof routing) => {
    await submit.click();
    await expect(problem).toHaveText(message);
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(field).toBeFocused();
  };

  await expectProblem(PAYOUT_MESSAGES.routingNumber, routing);
  await routing.fill('12345678');
  await expectProblem(PAYOUT_MESSAGES.routingNumber, routing);
  // Nine digits whose check digit is wrong.
  await routing.fill('123456789');
  await expectProblem(PAYOUT_MESSAGES.routingNumber, routing);

  const routingDigits = routingNumber();
  await routing.fill(routingDigits);
  await expectProblem(PAYOUT_MESSAGES.accountNumber, account);
  await account.fill('123');
  await expectProblem(PAYOUT_MESSAGES.accountNumber, account);

  const accountDigits = `9${String(randomInt(0, 1e10)).padStart(10, '0')}${randomInt(1, 10)}`;
  const last4 = accountDigits.slice(-4);
  await account.fill(accountDigits);
  await expectProblem(PAYOUT_MESSAGES.holderName, holder);
  await holder.fill('   ');
  await expectProblem(PAYOUT_MESSAGES.holderName, holder);

  await holder.fill('Pat Creator');
  await page.getByLabel('Account type').selectOption('savings');
  await submit.click();
  await expect(page.getByText(`Bank account ending in ${last4} (savings)`)).toBeVisible();
  await page.getByRole('button', { name: 'Skip for Now', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/dashboard');

  // The portal shows the method by its last 4 digits.
  await page.goto('/payment-portal');
  await expect(portalCard(page, 'Payment Method')).toContainText('Complete');
  await expect(portalCard(page, 'Payment Method')).toContainText(`Bank account ••••${last4}`);
  expect(await page.content()).not.toContain(accountDigits);

  // The API: the last 4 digits, never the whole numbers.
  for (const url of ['/api/payouts/setup', '/api/payouts/portal']) {
    const reply = await page.request.get(url);
    expect(reply.status()).toBe(200);
    const body = await reply.text();
    expect(body, url).toContain(last4);
    expect(body, url).not.toContain(accountDigits);
    expect(body, url).not.toContain(routingDigits);
  }

  // Every reply the browser got on the way.
  page.off('response', keep);
  const texts = await Promise.all(replies);
  expect(texts.length).toBeGreaterThan(5);
  expect(texts.some((t) => t.includes(`"account_last4":"${last4}"`))).toBe(true);
  expect(texts.filter((t) => t.includes(accountDigits))).toEqual([]);
  expect(texts.filter((t) => t.includes(routingDigits))).toEqual([]);
});
