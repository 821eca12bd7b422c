import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPEN_REDIRECT_VARIANTS } from '../../../shared/safe-return.cases.ts';
import { localSubject } from '../../integrations/google-oidc/embedded-idp.ts';
import { SESSION_COOKIE } from '../../platform/sessions/sessions.ts';
import { Browser, ORIGIN, signInWithProvider } from '../../test/browser.ts';
import { testApp, testConfig, type TestApp } from '../../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp({ config: await testConfig({ PUBLIC_URL: ORIGIN }) });
});
afterAll(async () => t?.close());

const sessions = async () => Number((await t.db.selectFrom('sessions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

describe('sign-in with the embedded OpenID provider', () => {
  it('creates a creator with a channel slug and a session, and returns to the page it began on', async () => {
    const browser = new Browser(t.app);
    const { callbackUrl } = await signInWithProvider(browser, { name: 'Ada Lovelace', email: 'Ada.Lovelace@example.com', returnUrl: '/video/0/abc?t=5' });
    const done = await browser.get(callbackUrl);
    expect(done.statusCode).toBe(302);
    expect(done.headers.location).toBe('/video/0/abc?t=5&login=success');
    const cookie = (done.cookies as Array<{ name: string; httpOnly?: boolean; sameSite?: string }>).find((c) => c.name === SESSION_COOKIE)!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    const me = await browser.get('/api/auth/me');
    expect(me.statusCode).toBe(200);
    expect(me.json().user).toMatchObject({ display_name: 'Ada Lovelace', username: 'adalovelace', role: 'creator', is_admin: false });
    const row = await t.db.selectFrom('users').select(['oidc_issuer', 'oidc_subject']).where('username', '=', 'adalovelace').executeTakeFirstOrThrow();
    expect(row).toEqual({ oidc_issuer: `${ORIGIN}/oidc`, oidc_subject: localSubject('ada.lovelace@example.com') });
  });

  it('signs the same person in to the same account the next time, and suffixes a taken slug for another', async () => {
    const again = new Browser(t.app);
    await again.get((await signInWithProvider(again, { name: 'Ada L.', email: 'ada.lovelace@example.com' })).callbackUrl);
    expect((await again.get('/api/auth/me')).json().user.username).toBe('adalovelace');
    const other = new Browser(t.app);
    await other.get((await signInWithProvider(other, { name: 'Ada Other', email: 'ada.lovelace@elsewhere.org' })).callbackUrl);
    expect((await other.get('/api/auth/me')).json().user.username).toBe('adalovelace2');
  });

  it('does not take over a password account with the same email (the provider does not vouch for it)', async () => {
    const owner = new Browser(t.app);
    await owner.post('/api/auth/signup', { email: 'owner@example.com', password: 'a fine long passphrase' });
    const intruder = new Browser(t.app);
    const done = await intruder.get((await signInWithProvider(intruder, { name: 'Intruder', email: 'OWNER@example.com' })).callbackUrl);
    expect(done.headers.location).toBe('/?login=error&reason=password_account');
    expect(intruder.cookies.has(SESSION_COOKIE)).toBe(false);
  });

  it('refuses a forged state, a replayed state, a flow from another browser, a reused code and a wrong nonce', async () => {
    const before = await sessions();

    const forged = new Browser(t.app);
    const a = await signInWithProvider(forged, { name: 'F', email: 'forged@example.com' });
    const forgedUrl = a.callbackUrl.replace(/state=[^&]+/, 'state=' + 'x'.repeat(43));
    expect((await forged.get(forgedUrl)).headers.location).toMatch(/login=error/);

    const replay = new Browser(t.app);
    const b = await signInWithProvider(replay, { name: 'R', email: 'replay@example.com' });
    expect((await replay.get(b.callbackUrl)).headers.location).toMatch(/login=success/);
    const afterFirst = await sessions();
    replay.cookies.delete(SESSION_COOKIE);
    replay.cookies.set('fm_auth_flow', 'stolen-or-old');
    expect((await replay.get(b.callbackUrl)).headers.location).toMatch(/login=error/);
    expect(await sessions()).toBe(afterFirst);

    const owner = new Browser(t.app);
    const c = await signInWithProvider(owner, { name: 'O', email: 'owner2@example.com' });
    const stranger = new Browser(t.app);
    expect((await stranger.get(c.callbackUrl)).headers.location).toMatch(/login=error/);
    expect(stranger.cookies.has(SESSION_COOKIE)).toBe(false);

    // A code already exchanged, presented with a fresh, valid state of the same browser.
    const reuse = new Browser(t.app);
    const d = await signInWithProvider(reuse, { name: 'C', email: 'code@example.com' });
    const oldCode = new URL(d.callbackUrl, ORIGIN).searchParams.get('code')!;
    expect((await reuse.get(d.callbackUrl)).headers.location).toMatch(/login=success/);
    const countAfterFirst = await sessions();
    reuse.cookies.delete(SESSION_COOKIE);
    const e = await signInWithProvider(reuse, { name: 'C', email: 'code@example.com' });
    const withOldCode = e.callbackUrl.replace(/code=[^&]+/, `code=${encodeURIComponent(oldCode)}`);
    expect((await reuse.get(withOldCode)).headers.location).toMatch(/login=error/);
    expect(await sessions()).toBe(countAfterFirst);

    const nonce = new Browser(t.app);
    const f = await signInWithProvider(nonce, { name: 'N', email: 'nonce@example.com' });
    const state = new URL(f.callbackUrl, ORIGIN).searchParams.get('state')!;
    await t.db.updateTable('auth_flows').set({ nonce: 'not-the-nonce-that-was-sent' }).where('state', '=', state).execute();
    expect((await nonce.get(f.callbackUrl)).headers.location).toMatch(/login=error/);
    expect(nonce.cookies.has(SESSION_COOKIE)).toBe(false);

    expect(await sessions()).toBe(countAfterFirst);
    expect(before).toBeLessThan(countAfterFirst);
  });

  it('does not report a failure to a browser that is signed in when its return arrives again', async () => {
    // The same return twice (a page load repeated by the browser): the second finds its state taken.
    const twice = new Browser(t.app);
    const a = await signInWithProvider(twice, { name: 'Twice', email: 'twice@example.com', returnUrl: '/video/0/abc?t=5' });
    expect((await twice.get(a.callbackUrl)).headers.location).toBe('/video/0/abc?t=5&login=success');
    const signedIn = await sessions();
    const again = await twice.get(a.callbackUrl);
    expect(again.statusCode).toBe(302);
    expect(again.headers.location).toBe('/?login=success');
    expect(await sessions()).toBe(signedIn);
    expect((await twice.get('/api/auth/me')).json().user.email).toBe('twice@example.com');

    // A fresh state with a code already spent: back to where that sign-in began, still signed in.
    const oldCode = new URL(a.callbackUrl, ORIGIN).searchParams.get('code')!;
    const b = await signInWithProvider(twice, { name: 'Twice', email: 'twice@example.com', returnUrl: '/privacy-policy' });
    const withOldCode = b.callbackUrl.replace(/code=[^&]+/, `code=${encodeURIComponent(oldCode)}`);
    const spent = await twice.get(withOldCode);
    expect(spent.headers.location).toBe('/privacy-policy?login=success');
    expect(await sessions()).toBe(signedIn);
    expect((await twice.get('/api/auth/me')).json().user.email).toBe('twice@example.com');

    // Signed out, the same replays are refused as before.
    const stranger = new Browser(t.app);
    expect((await stranger.get(a.callbackUrl)).headers.location).toBe('/?login=error&reason=expired');
    // A refusal by the provider is reported even to a signed-in browser.
    const refused = await twice.get('/api/auth/google/callback?error=access_denied&error_description=No');
    expect(refused.headers.location).toBe('/?login=error&reason=cancelled');
  });

  it("asks the provider for its form at every sign-in, and signing out ends the provider's session in that browser", async () => {
    const shared = new Browser(t.app);
    const first = await signInWithProvider(shared, { name: 'First', email: 'first@example.com' });
    expect((await shared.get(first.callbackUrl)).headers.location).toBe('/?login=success');
    const idpSession = shared.cookies.get('_session');
    expect(idpSession).toBeTruthy();
    const stored = () => t.db.selectFrom('idp_records').select('id').where('model', '=', 'Session').where('id', '=', idpSession!).execute();
    expect(await stored()).toHaveLength(1);

    // Signed in at the provider, a new sign-in still shows its form (prompt=login), not the callback.
    const start = await shared.get('/api/auth/google/login?return_url=%2F');
    const authorize = new URL(String(start.headers.location));
    expect(authorize.searchParams.get('prompt')).toBe('login');
    const next = await shared.get(`${authorize.pathname}${authorize.search}`);
    expect(new URL(String(next.headers.location), ORIGIN).pathname).toMatch(/^\/oidc-login\//);

    // Signing out of the app ends the provider's session: its record and its cookies.
    expect((await shared.post('/api/auth/logout')).statusCode).toBe(200);
    expect(await stored()).toHaveLength(0);
    expect(shared.cookies.has('_session')).toBe(false);
    expect(shared.cookies.has('_session.legacy')).toBe(false);
    expect(shared.cookies.has(SESSION_COOKIE)).toBe(false);
    // The next person at the computer signs in as themselves.
    const second = await signInWithProvider(shared, { name: 'Second', email: 'second@example.com' });
    await shared.get(second.callbackUrl);
    expect((await shared.get('/api/auth/me')).json().user.email).toBe('second@example.com');
  });

  it(`never redirects off the site, for ${OPEN_REDIRECT_VARIANTS.length} hostile return URLs`, async () => {
    const browser = new Browser(t.app);
    for (const attempt of OPEN_REDIRECT_VARIANTS) {
      const res = await browser.get(`/api/auth/google/login?return_url=${encodeURIComponent(attempt)}`);
      if (res.statusCode === 400) continue; // refused outright (too long)
      expect(res.statusCode, attempt).toBe(302);
      const state = new URL(String(res.headers.location)).searchParams.get('state')!;
      const flow = await t.db.selectFrom('auth_flows').select('return_path').where('state', '=', state).executeTakeFirstOrThrow();
      const landing = new URL(flow.return_path, ORIGIN);
      expect(landing.origin, attempt).toBe(ORIGIN);
      expect(flow.return_path.startsWith('//'), attempt).toBe(false);
    }
    // And one whole flow: the final Location stays on the site.
    const full = new Browser(t.app);
    const { callbackUrl } = await signInWithProvider(full, { name: 'Z', email: 'z@example.com', returnUrl: '//evil.com/steal' });
    const done = await full.get(callbackUrl);
    expect(done.headers.location).toBe('/?login=success');
  });

  it("reports a provider error back to the home page by its code, never the link's own words", async () => {
    const browser = new Browser(t.app);
    const denied = await browser.get('/api/auth/google/callback?error=access_denied&error_description=Call%20support%20on%20555-0100');
    expect(denied.statusCode).toBe(302);
    expect(denied.headers.location).toBe('/?login=error&reason=cancelled');
    const other = await browser.get('/api/auth/google/callback?error=server_error&error_description=Call%20support%20on%20555-0100');
    expect(other.headers.location).toBe('/?login=error&reason=provider');
  });
});
