/**
 * The admin portal in the browser (first part): the seeded admin opens /admin, reads the
 * dashboard, finds a creator and suspends them (their open session then answers 401), sets the
 * maintenance banner (shown on every page) and clears it; a customer is alerted and sent home.
 * Serial and last: the banner and a suspension change what other specs see.
 */
import { expect, test } from '@playwright/test';
import { ADMIN, logIn, signUp } from './support/accounts.ts';
import { signInAsCreator } from './support/creators.ts';

test('the admin reads the dashboard, suspends a creator and sets the banner; a customer is turned away', async ({ browser }) => {
  test.setTimeout(120_000);
  const creatorPage = await browser.newPage();
  const creator = await signInAsCreator(creatorPage, '/');

  const admin = await browser.newPage();
  await logIn(admin, ADMIN);
  await admin.goto('/admin');
  await expect(admin.getByRole('heading', { level: 1, name: 'Admin portal' })).toBeVisible();
  const { stats } = (await (await admin.request.get('/api/admin/dashboard-stats')).json()) as { stats: { total_users: number } };
  const totalUsers = admin.getByRole('list', { name: 'Statistics' }).getByRole('listitem').filter({ has: admin.getByRole('heading', { name: 'Total users' }) });
  await expect(totalUsers).toContainText(stats.total_users.toLocaleString('en-US'));

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
  await expect(admin.getByRole('table', { name: 'Admin log' }).getByRole('row').filter({ hasText: creator.email })).toContainText('Suspend user');

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
