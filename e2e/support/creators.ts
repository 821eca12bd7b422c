/**
 * Creator accounts for the browser tests. Creators sign in through the identity provider
 * (the embedded one here), so this drives its page once: Sign In, Name and Email, Continue.
 */
import { randomUUID } from 'node:crypto';
import { expect, type Locator, type Page } from '@playwright/test';
import type { SessionUser } from '../../shared/schemas/auth.ts';
import { uniqueEmail } from './accounts.ts';

export interface Creator extends SessionUser {
  /** The name typed on the identity provider's page. */
  name: string;
}

/**
 * Signs a new creator in from `startPath` by pressing `signIn` (by default the navbar's
 * Sign In) and waits until the app is back on that page, signed in.
 */
export async function signInAsCreator(page: Page, startPath: string, signIn?: (page: Page) => Locator): Promise<Creator> {
  const name = `E2E Creator ${randomUUID().slice(0, 6)}`;
  const email = uniqueEmail('creator');
  if (new URL(page.url(), 'http://x').pathname !== startPath) await page.goto(startPath);
  const button = signIn ? signIn(page) : page.getByRole('banner').getByRole('button', { name: 'Sign In', exact: true });
  await button.click();
  await page.waitForURL((url) => url.pathname.startsWith('/oidc-login/'));
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL((url) => url.pathname === startPath);
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();

  const me = await page.request.get('/api/auth/me');
  expect(me.status()).toBe(200);
  const { user } = (await me.json()) as { user: SessionUser };
  expect(user).toMatchObject({ email, role: 'creator' });
  return { ...user, name };
}
