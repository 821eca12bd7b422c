/** Accounts for the browser tests, set up through the API (page.request shares the page's cookies). */
import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import type { loginRoute, SessionUser, signupRoute } from '../../shared/schemas/auth.ts';
import type { ReplyOf } from '../../shared/schemas/route.ts';

type SignupReply = ReplyOf<typeof signupRoute, 201>;
type LoginReply = ReplyOf<typeof loginRoute>;

export const PASSWORD = 'correct horse e2e staple';
export const ADMIN = { email: 'admin@framemerch.local', password: 'e2e admin password' };

export const uniqueEmail = (label: string) => `${label}-${Date.now()}-${randomUUID().slice(0, 8)}@example.com`;

/** Path and query of the current page. */
export const here = (page: Page) => {
  const url = new URL(page.url());
  return url.pathname + url.search;
};

/**
 * State-changing calls made with a session cookie must say they come from this site, as a
 * browser's fetch does; Playwright's request context sends no Origin of its own.
 */
export function sameSite(): Record<string, string> {
  const base = test.info().project.use.baseURL;
  if (!base) throw new Error('baseURL is not configured');
  return { origin: new URL(base).origin };
}

export async function signUp(page: Page, email = uniqueEmail('customer')): Promise<SessionUser> {
  const response = await page.request.post('/api/auth/signup', { data: { email, password: PASSWORD }, headers: sameSite() });
  expect(response.status()).toBe(201);
  return ((await response.json()) as SignupReply).user;
}

export async function logIn(page: Page, credentials: { email: string; password: string }): Promise<SessionUser> {
  const response = await page.request.post('/api/auth/login', { data: credentials, headers: sameSite() });
  expect(response.status()).toBe(200);
  return ((await response.json()) as LoginReply).user;
}

