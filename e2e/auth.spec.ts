/**
 * Accounts: sign-in through the identity provider (the embedded one here), email and password
 * sign-up and login, logout, the avatar menu, deleting one's own account, the session-expired
 * notice (an admin deleting a creator is in admin-deletes-creator.serial.spec.ts). State is set up through the API with
 * `page.request`, which shares the page's cookies; every test uses its own accounts.
 */
import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import type { SessionUser } from '../shared/schemas/auth.ts';
import { SUBSCRIPTION_MESSAGES } from '../shared/schemas/subscriptions.ts';
import { ADMIN, here, logIn, PASSWORD, sameSite, signUp, uniqueEmail } from './support/accounts.ts';
import { signInAsCreator } from './support/creators.ts';

const avatar = (page: Page) => page.getByRole('button', { name: 'Account menu' });
const accountMenu = (page: Page) => page.getByRole('menu', { name: 'Account' });
const signInButton = (page: Page) => page.getByRole('banner').getByRole('button', { name: 'Sign In', exact: true });

/** Accepts every dialog and records "type: message". */
function acceptDialogs(page: Page): string[] {
  const seen: string[] = [];
  page.on('dialog', (dialog) => {
    seen.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.accept();
  });
  return seen;
}

test('a creator signs in with the identity provider and comes back to the page they were on', async ({ page }) => {
  const name = `Creator ${randomUUID().slice(0, 6)}`;
  const email = uniqueEmail('creator');
  // Records the event later features listen for.
  await page.addInitScript(() => {
    window.addEventListener('oauthSuccess', () => {
      (window as unknown as { oauthSuccessCount: number }).oauthSuccessCount =
        ((window as unknown as { oauthSuccessCount?: number }).oauthSuccessCount ?? 0) + 1;
    });
  });

  await page.goto('/privacy-policy');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL((url) => url.pathname.startsWith('/oidc-login/'));
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Email').fill(email);

  // Hold the confirmation back a moment to see the pending state.
  let releaseMe: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (releaseMe = resolve));
  await page.route(
    (url) => url.pathname === '/api/auth/me',
    async (route) => {
      await held;
      await route.continue();
    },
  );
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL((url) => url.pathname === '/privacy-policy');
  const processing = page.getByRole('banner').getByRole('button', { name: 'Processing...' });
  await expect(processing).toBeDisabled();
  await expect(page.getByRole('link', { name: 'Upload' })).toHaveCount(0);
  releaseMe();

  await expect(avatar(page)).toBeVisible();
  await expect.poll(() => here(page)).toBe('/privacy-policy');
  await expect(page.getByRole('link', { name: 'Upload' })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { oauthSuccessCount?: number }).oauthSuccessCount)).toBe(1);
  await avatar(page).click();
  await expect(accountMenu(page)).toContainText(`Signed in as ${name}`);

  const me = await page.request.get('/api/auth/me');
  expect(me.status()).toBe(200);
  expect(((await me.json()) as { user: SessionUser }).user).toMatchObject({ email, display_name: name, role: 'creator' });
});

test.describe('sign-in with the service worker in control', () => {
  test.use({ serviceWorkers: 'allow' });
  // The first visit installs the worker, which caches the build.
  test.setTimeout(120_000);

  // PUBLIC_URL is the 127.0.0.1 address; localhost is sent there before anything else happens.
  for (const hostname of ['127.0.0.1', 'localhost']) {
    test(`opened at ${hostname}, signing in with the identity provider ends signed in with no alert, 5 of 5 times`, async ({ page }) => {
      const dialogs = acceptDialogs(page);
      const start = new URL('/privacy-policy', test.info().project.use.baseURL);
      const publicHost = start.host;
      start.hostname = hostname;
      const name = `Worker ${randomUUID().slice(0, 6)}`;
      const email = uniqueEmail('worker');

      await page.goto(start.href);
      expect(new URL(page.url()).host).toBe(publicHost);
      await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 90_000 }).toBe(true);

      for (let attempt = 1; attempt <= 5; attempt++) {
        await page.goto(start.href);
        await signInButton(page).click();
        // The provider asks the first time and remembers the browser after that.
        const form = page.getByLabel('Name');
        await expect(form.or(avatar(page))).toBeVisible();
        if (await form.isVisible()) {
          await form.fill(name);
          await page.getByLabel('Email').fill(email);
          await page.getByRole('button', { name: 'Continue' }).click();
        }
        await expect(avatar(page), `attempt ${attempt}`).toBeVisible();
        await expect.poll(() => here(page), { message: `attempt ${attempt}` }).toBe('/privacy-policy');
        expect(new URL(page.url()).host).toBe(publicHost);
        expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
        expect(dialogs, `attempt ${attempt}`).toEqual([]);
        expect(((await (await page.request.get('/api/auth/me')).json()) as { user: SessionUser | null }).user).toMatchObject({ email });
        await page.request.post('/api/auth/logout', { headers: sameSite() });
      }
    });
  }
});

test('a signed-out visitor is told so without errors: no 401 in the console', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${message.location().url}: ${message.text()}`);
  });
  for (const path of ['/', '/privacy-policy', '/terms-of-service']) {
    const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/auth/me');
    await page.goto(path);
    expect((await answered).status()).toBe(200);
    await expect(signInButton(page)).toBeVisible();
  }
  expect(errors.filter((e) => e.includes('/api/auth/me') || e.includes('401'))).toEqual([]);
});

test("a failed sign-in return alerts the reason and goes home, never a link's own text", async ({ page }) => {
  const dialogs = acceptDialogs(page);
  await page.goto('/privacy-policy?login=error&reason=cancelled');
  await expect.poll(() => dialogs).toEqual(['alert: Login failed: The sign-in was cancelled at the identity provider.']);
  await expect.poll(() => here(page)).toBe('/');
  await page.goto('/privacy-policy?login=error&message=Call%20support%20on%20555-0100');
  await expect.poll(() => dialogs).toEqual([
    'alert: Login failed: The sign-in was cancelled at the identity provider.',
    'alert: Login failed: An unknown error occurred. Please try again.',
  ]);
  await expect.poll(() => here(page)).toBe('/');
  await expect(signInButton(page)).toBeVisible();
});

test('a customer signs up on /signup, logs out, and logs in again on /login', async ({ page }) => {
  const email = uniqueEmail('customer');
  await page.goto('/signup');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Create your account');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign Up', exact: true }).click();

  await expect.poll(() => here(page)).toBe('/');
  await avatar(page).click();
  await expect(accountMenu(page)).toContainText(`Signed in as ${email.split('@')[0]}`);
  await accountMenu(page).getByRole('menuitem', { name: 'Logout' }).click();
  await expect(signInButton(page)).toBeVisible();

  // The same email again is refused with the spec's words.
  await page.goto('/signup');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('This email is already registered. Please sign in instead.');

  // The toggle keeps the return address; empty fields are caught before anything is sent.
  await page.goto('/signup?returnTo=%2Fterms-of-service');
  await page.getByRole('link', { name: 'Login', exact: true }).click();
  await expect.poll(() => here(page)).toBe('/login?returnTo=%2Fterms-of-service');
  const submit = page.getByRole('main').getByRole('button', { name: 'Login', exact: true });
  await submit.click();
  await expect(page.getByRole('alert')).toHaveText('Please enter your email.');
  await page.getByLabel('Email').fill(email);
  await submit.click();
  await expect(page.getByRole('alert')).toHaveText('Please enter your password.');
  await page.getByLabel('Password').fill(PASSWORD);
  await submit.click();

  await expect.poll(() => here(page)).toBe('/terms-of-service');
  await avatar(page).click();
  await expect(accountMenu(page)).toContainText(`Signed in as ${email.split('@')[0]}`);
});

test('logout ends the session on the server and in the navbar', async ({ page }) => {
  await signUp(page);
  await page.goto('/privacy-policy');
  await avatar(page).click();
  await accountMenu(page).getByRole('menuitem', { name: 'Logout' }).click();

  await expect.poll(() => here(page)).toBe('/');
  await expect(signInButton(page)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Start Free' })).toBeVisible();
  expect(await (await page.request.get('/api/auth/me')).json()).toEqual({ success: true, user: null });

  // A reload stays signed out: nothing in the browser claims otherwise.
  await page.reload();
  await expect(signInButton(page)).toBeVisible();
});

test("on a shared computer, signing out ends the provider's sign-in too: pressing Sign In shows the provider's form again", async ({ page }) => {
  await signInAsCreator(page, '/privacy-policy');
  await avatar(page).click();
  await accountMenu(page).getByRole('menuitem', { name: 'Logout' }).click();
  await expect(signInButton(page)).toBeVisible();
  expect((await page.context().cookies()).map((c) => c.name)).not.toContain('_session');

  await signInButton(page).click();
  await page.waitForURL((url) => url.pathname.startsWith('/oidc-login/'));
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in to FrameMerch' })).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveValue('');
});

test('the avatar menu closes on Escape, on an outside click and after choosing an entry', async ({ page }) => {
  await signUp(page);
  await page.goto('/privacy-policy');
  const button = avatar(page);
  const menu = accountMenu(page);

  await button.click();
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  await expect(menu).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  await expect(button).toBeFocused();

  await button.click();
  await expect(menu).toBeVisible();
  await page.getByRole('main').getByRole('heading', { level: 1 }).click();
  await expect(menu).toBeHidden();

  await button.click();
  await menu.getByRole('menuitem', { name: 'Dashboard' }).click();
  await expect.poll(() => new URL(page.url()).pathname).toBe('/dashboard');
  await expect(menu).toBeHidden();
});

test('a customer deletes their account from the menu and cannot log in with it again', async ({ page }) => {
  const email = uniqueEmail('leaving');
  await signUp(page, email);
  const dialogs = acceptDialogs(page);
  await page.goto('/privacy-policy');
  await avatar(page).click();
  await accountMenu(page).getByRole('menuitem', { name: 'Delete Account' }).click();

  await expect
    .poll(() => dialogs)
    .toEqual([
      'confirm: Are you sure you want to delete your account? This action cannot be undone.',
      'alert: Your account has been successfully deleted.',
    ]);
  await expect.poll(() => here(page)).toBe('/');
  await expect(signInButton(page)).toBeVisible();
  expect(await (await page.request.get('/api/auth/me')).json()).toEqual({ success: true, user: null });

  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('main').getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid email or password.');
  await expect(signInButton(page)).toBeVisible();
});

test('/login?status=session_expired says the session expired', async ({ page }) => {
  await page.goto('/login?status=session_expired&returnTo=%2Fprivacy-policy');
  await expect(page.getByRole('main')).toContainText('Your session expired. Please sign in again.');
  await expect(page.getByRole('button', { name: 'Continue with Google' })).toBeVisible();

  // Signing in there goes back to the page the session ran out on.
  const email = uniqueEmail('returning');
  await signUp(page, email);
  await page.request.post('/api/auth/logout', { headers: sameSite() });
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('main').getByRole('button', { name: 'Login', exact: true }).click();
  await expect.poll(() => here(page)).toBe('/privacy-policy');
});

test('a session the server reports as expired sends the visitor to sign in again, then back', async ({ page }) => {
  // A session cannot be aged through the API, so the server's answer for one is stood in for once.
  let answered = false;
  await page.route(
    (url) => url.pathname === '/api/auth/me',
    async (route) => {
      if (answered) return route.continue();
      answered = true;
      await route.fulfill({
        status: 401,
        json: { success: false, error: 'Your session expired. Please sign in again.', code: 'SESSION_EXPIRED' },
      });
    },
  );
  await page.goto('/terms-of-service?section=refunds');
  await expect.poll(() => here(page)).toBe('/login?status=session_expired&returnTo=%2Fterms-of-service%3Fsection%3Drefunds');
  await expect(page.getByRole('main')).toContainText('Your session expired. Please sign in again.');
  await expect(page.getByRole('button', { name: 'Continue with Google' })).toBeVisible();
});

test('Admin Portal is in the menu for the admin only', async ({ page }) => {
  await signUp(page);
  await page.goto('/');
  await avatar(page).click();
  await expect(accountMenu(page).getByRole('menuitem')).toHaveText(['Dashboard', 'Delete Account', 'Logout']);

  await page.request.post('/api/auth/logout', { headers: sameSite() });
  await logIn(page, ADMIN);
  await page.reload();
  await avatar(page).click();
  const menu = accountMenu(page);
  await expect(menu.getByRole('menuitem')).toHaveText(['Dashboard', 'Admin Portal', 'Delete Account', 'Logout']);
  await expect(menu.getByRole('menuitem', { name: 'Admin Portal' })).toHaveAttribute('href', '/admin');
});

test('the footer sends an approval link that shows up in the dev mailbox', async ({ page }) => {
  const email = uniqueEmail('fan');
  await page.goto('/privacy-policy');
  await page.getByRole('contentinfo').getByRole('button', { name: 'Get updates' }).click();
  const dialog = page.getByRole('dialog', { name: 'Get updates' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Email')).toBeFocused();

  await dialog.getByRole('button', { name: 'Send Approval Link' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Please enter a valid email address');
  await dialog.getByLabel('Email').fill(email);
  const sent = page.waitForResponse((r) => r.url().endsWith('/api/send-subscription-email'));
  await dialog.getByRole('button', { name: 'Send Approval Link' }).click();
  await expect(dialog.getByRole('status')).toBeVisible();
  // Closes on its own after 3 s.
  await expect(dialog).toBeHidden({ timeout: 6_000 });

  // The embedded mailer hands the browser that asked the message's own secret link.
  const { mail_link } = (await (await sent).json()) as { mail_link: string };
  await page.goto(mail_link);
  await expect(page.getByRole('main').getByRole('article')).toHaveCount(1);
  await expect(page.getByRole('main').getByRole('article')).toContainText(email);

  // The whole outbox is the admin's.
  await logIn(page, ADMIN);
  await page.goto('/dev/mail');
  await expect(page.getByRole('main').getByRole('article').filter({ hasText: email })).toHaveCount(1);
});

test("the approval link works once: 'Verifying...', then approved; again, the invalid-link state; without a token, invalid at once", async ({ page }) => {
  const email = uniqueEmail('approver');
  const main = page.getByRole('main');
  await page.goto('/privacy-policy');
  await page.getByRole('contentinfo').getByRole('button', { name: 'Get updates' }).click();
  const dialog = page.getByRole('dialog', { name: 'Get updates' });
  await dialog.getByLabel('Email').fill(email);
  const sent = page.waitForResponse((r) => r.url().endsWith('/api/send-subscription-email'));
  await dialog.getByRole('button', { name: 'Send Approval Link' }).click();
  const { mail_link } = (await (await sent).json()) as { mail_link: string };

  // The approval link, read from the message on its own page.
  await page.goto(mail_link);
  const message = main.getByRole('article');
  await expect(message).toContainText(email);
  const approval = new URL(/http\S+/.exec((await message.locator('pre').textContent()) ?? '')![0]);
  expect(approval.pathname).toBe('/approve-subscription');
  expect(approval.searchParams.get('email')).toBe(email);

  const approveRequests: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/subscriptions/approve')) approveRequests.push(r.method());
  });

  // First use: 'Verifying...' for at least 2 s, then approved, with the address and the way home.
  const opened = Date.now();
  await page.goto(approval.href);
  await expect(main.getByRole('heading', { level: 1 })).toHaveText(SUBSCRIPTION_MESSAGES.approvalTitle);
  await expect(main.getByRole('status').filter({ hasText: SUBSCRIPTION_MESSAGES.approvalVerifying })).toBeVisible();
  const approved = main.getByRole('status').filter({ has: page.getByRole('heading', { name: SUBSCRIPTION_MESSAGES.approved }) });
  await expect(approved).toBeVisible();
  expect(Date.now() - opened).toBeGreaterThanOrEqual(2_000);
  await expect(approved).toContainText(email);
  await expect(approved.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
  // The link was presented once.
  expect(approveRequests).toEqual(['POST']);

  // The same link again: 'Verifying...', then the invalid-link state, from which a new link is asked for.
  await page.goto(approval.href);
  await expect(main.getByRole('status').filter({ hasText: SUBSCRIPTION_MESSAGES.approvalVerifying })).toBeVisible();
  await expect(main.getByRole('alert')).toContainText(SUBSCRIPTION_MESSAGES.approvalInvalid);
  await expect(main.getByRole('heading', { name: SUBSCRIPTION_MESSAGES.approved })).toHaveCount(0);
  await main.getByRole('button', { name: SUBSCRIPTION_MESSAGES.approvalNewLink }).click();
  const again = page.getByRole('dialog', { name: 'Get updates' });
  await expect(again).toBeVisible();
  await again.getByRole('button', { name: 'Cancel' }).click();
  await expect(again).toBeHidden();
  expect(approveRequests).toEqual(['POST', 'POST']);

  // No token (or no address): the invalid-link state at once, and nothing asked.
  for (const search of [`?email=${encodeURIComponent(email)}`, `?token=${approval.searchParams.get('token')}`]) {
    await page.goto(`/approve-subscription${search}`);
    await expect(main.getByRole('alert')).toContainText(SUBSCRIPTION_MESSAGES.approvalInvalid);
    await expect(main.getByText(SUBSCRIPTION_MESSAGES.approvalVerifying)).toHaveCount(0);
  }
  expect(approveRequests).toEqual(['POST', 'POST']);
});
