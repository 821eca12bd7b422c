import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../../shared/schemas/auth.ts';
import { hashToken, SECURE_SESSION_COOKIE, SESSION_COOKIE } from '../../platform/sessions/sessions.ts';
import { Browser } from '../../test/browser.ts';
import { testApp, testConfig, type TestApp } from '../../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => t?.close());

const PASSWORD = 'correct horse battery staple';

async function signup(email: string, password = PASSWORD) {
  const b = new Browser(t.app);
  const res = await b.post('/api/auth/signup', { email, password });
  return { b, res };
}

describe('sign-up with email and password', () => {
  it('creates a signed-in customer with an HttpOnly, SameSite=Lax session cookie stored only as a hash', async () => {
    const { b, res } = await signup('Carol@Example.com');
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ success: true, user: { email: 'Carol@Example.com', username: 'carol', role: 'customer', is_admin: false } });
    const cookie = (res.cookies as Array<{ name: string; value: string; httpOnly?: boolean; sameSite?: string; secure?: boolean }>).find((c) => c.name === SESSION_COOKIE)!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    expect(cookie.value.length).toBeGreaterThanOrEqual(43); // 256 bits in base64url
    const stored = await t.db.selectFrom('sessions').select('token_hash').execute();
    expect(stored.map((s) => s.token_hash)).toContain(hashToken(cookie.value));
    expect(stored.map((s) => s.token_hash)).not.toContain(cookie.value);
    expect((await b.get('/api/auth/me')).json().user.email).toBe('Carol@Example.com');
    const row = await t.db.selectFrom('users').select('password_hash').where('username', '=', 'carol').executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$/);
  });

  it('refuses a second account for the same email in any case with the spec message', async () => {
    await signup('dave@example.com');
    const { res } = await signup('DAVE@example.com');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ success: false, error: AUTH_MESSAGES.emailTaken, code: 'CONFLICT' });
  });

  it('refuses a password that is easy to guess, saying why, and takes one that is not', async () => {
    const weak = await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email: 'john.smith@example.com', password: 'johnsmith1' } });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toEqual({
      success: false,
      error: 'This password is too easy to guess. There should not be any personal or page related data. Add more words that are less common.',
      code: 'VALIDATION_FAILED',
    });
    const date = await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email: 'john.smith@example.com', password: '19901231' } });
    expect(date.statusCode).toBe(400);
    expect(date.json().error).toBe('This password is too easy to guess. Dates are easy to guess. Add more words that are less common.');
    expect(await t.db.selectFrom('users').select('id').where('email', '=', 'john.smith@example.com').execute()).toEqual([]);

    const strong = await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email: 'john.smith@example.com', password: 'velvet osprey parsnip quarry' } });
    expect(strong.statusCode).toBe(201);
    expect(strong.json().user.email).toBe('john.smith@example.com');
  });

  it('refuses missing, short, overlong and guessable passwords and bad emails', async () => {
    const cases: Array<[object, string]> = [
      [{ email: '', password: PASSWORD }, AUTH_MESSAGES.emailRequired],
      [{ email: 'not-an-email', password: PASSWORD }, AUTH_MESSAGES.invalidEmail],
      [{ email: 'e1@example.com', password: '' }, AUTH_MESSAGES.passwordRequired],
      [{ email: 'e2@example.com', password: 'short' }, AUTH_MESSAGES.passwordTooShort],
      [{ email: 'e3@example.com', password: 'x'.repeat(201) }, AUTH_MESSAGES.passwordTooLong],
      [{ email: 'e4@example.com', password: 'password1' }, `${AUTH_MESSAGES.passwordTooWeak} This is a commonly used password. Add more words that are less common.`],
      [{ email: 'e5@example.com', password: 'Baseball' }, `${AUTH_MESSAGES.passwordTooWeak} This is a frequently used password. Add more words that are less common.`],
    ];
    for (const [body, message] of cases) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: body });
      expect(res.statusCode, message).toBe(400);
      expect(res.json().error).toBe(message);
    }
    const users = await t.db.selectFrom('users').select('email').where('email', 'like', 'e_@example.com').execute();
    expect(users).toEqual([]);
    const malformed = await t.app.inject({ method: 'POST', url: '/api/auth/signup', payload: { email: 'x@example.com' } });
    expect(malformed.statusCode).toBe(400);
  });
});

describe('login', () => {
  it('signs in with the right password and gives a new session token each time', async () => {
    await signup('erin@example.com');
    const one = new Browser(t.app);
    const two = new Browser(t.app);
    expect((await one.post('/api/auth/login', { email: 'ERIN@example.com', password: PASSWORD })).statusCode).toBe(200);
    expect((await two.post('/api/auth/login', { email: 'erin@example.com', password: PASSWORD })).statusCode).toBe(200);
    expect(one.cookies.get(SESSION_COOKIE)).not.toBe(two.cookies.get(SESSION_COOKIE));
    expect((await one.get('/api/auth/me')).json().user.email).toBe('erin@example.com');
  });

  it('answers a wrong password and an unknown email alike', async () => {
    await signup('frank@example.com');
    const wrong = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'frank@example.com', password: 'not the password' } });
    const unknown = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'nobody@example.com', password: 'not the password' } });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().error).toBe(AUTH_MESSAGES.badCredentials);
  });

  it('takes as long for an unknown email as for a wrong password', async () => {
    const time = async (email: string) => {
      const start = performance.now();
      await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'wrong password here' } });
      return performance.now() - start;
    };
    await signup('timing@example.com');
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 4; i++) {
      known.push(await time('timing@example.com'));
      unknown.push(await time(`ghost${i}@example.com`));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    // Both run one scrypt; without the decoy an unknown email answers in well under a millisecond.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.5);
  });

  it('answers 429 on the 11th rapid wrong password for one email, even with the right one', async () => {
    await signup('grace@example.com');
    for (let i = 1; i <= 10; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'grace@example.com', password: `wrong ${i} password` } });
      expect(res.statusCode, `attempt ${i}`).toBe(401);
    }
    const eleventh = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'grace@example.com', password: 'wrong 11 password' } });
    expect(eleventh.statusCode).toBe(429);
    expect(eleventh.json()).toEqual({ success: false, error: AUTH_MESSAGES.tooManyAttempts, code: 'RATE_LIMITED' });
    const right = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'grace@example.com', password: PASSWORD } });
    expect(right.statusCode).toBe(429);
  });
});

describe('sessions', () => {
  it('who am I answers 200 with no user when signed out, or with a cookie that is no session', async () => {
    const variants: Array<Record<string, string>> = [{}, { [SESSION_COOKIE]: 'not-a-session-token-at-all-000000000000' }, { [SESSION_COOKIE]: '!' }];
    for (const cookies of variants) {
      const res = await t.app.inject({ method: 'GET', url: '/api/auth/me', cookies });
      expect(res.statusCode, JSON.stringify(cookies)).toBe(200);
      expect(res.json()).toEqual({ success: true, user: null });
    }
  });

  it('logout deletes the session: the old cookie no longer works', async () => {
    const { b } = await signup('heidi@example.com');
    const token = b.cookies.get(SESSION_COOKIE)!;
    expect((await b.post('/api/auth/logout')).statusCode).toBe(200);
    const replay = await t.app.inject({ method: 'GET', url: '/api/auth/me', cookies: { [SESSION_COOKIE]: token } });
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ success: true, user: null });
    // Routes that need a user still refuse it.
    const studio = await t.app.inject({ method: 'GET', url: '/api/studio/videos', cookies: { [SESSION_COOKIE]: token } });
    expect(studio.statusCode).toBe(401);
    expect(studio.json().code).toBe('UNAUTHENTICATED');
  });

  it('a suspended user is signed out at once, and cannot log in', async () => {
    const { b } = await signup('ivan@example.com');
    await t.db.updateTable('users').set({ status: 'suspended' }).where('email', '=', 'ivan@example.com').execute();
    expect((await b.get('/api/auth/me')).json()).toEqual({ success: true, user: null });
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'ivan@example.com', password: PASSWORD } });
    expect(login.statusCode).toBe(403);
  });

  it('an expired session answers SESSION_EXPIRED with the spec message', async () => {
    const { b } = await signup('judy@example.com');
    const hash = hashToken(b.cookies.get(SESSION_COOKIE)!);
    await sql`update sessions set created_at = now() - interval '31 days', expires_at = now() - interval '1 second' where token_hash = ${hash}`.execute(t.db);
    const res = await b.get('/api/auth/me');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ success: false, error: AUTH_MESSAGES.sessionExpired, code: 'SESSION_EXPIRED' });
  });

  it('refuses a cross-site POST that carries a valid session cookie, and changes nothing', async () => {
    const { b } = await signup('mallory-victim@example.com');
    const token = b.cookies.get(SESSION_COOKIE)!;
    for (const headers of [{ origin: 'https://evil.example' }, { origin: 'null' }, {}, { referer: 'https://evil.example/page' }, { 'sec-fetch-site': 'cross-site' }]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/logout', cookies: { [SESSION_COOKIE]: token }, headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.json()).toMatchObject({ code: 'FORBIDDEN', error: AUTH_MESSAGES.crossSite });
    }
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/users/${(await b.get('/api/auth/me')).json().user.id}/delete-account`,
      cookies: { [SESSION_COOKIE]: token },
      headers: { origin: 'https://evil.example' },
    });
    expect(del.statusCode).toBe(403);
    expect((await b.get('/api/auth/me')).statusCode).toBe(200);
    const same = await t.app.inject({ method: 'POST', url: '/api/auth/logout', cookies: { [SESSION_COOKIE]: token }, headers: { origin: 'http://localhost:3000', host: 'localhost:3000' } });
    expect(same.statusCode).toBe(200);
  });

  it('refuses a sign-in posted from another site', async () => {
    await signup('kate@example.com');
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: 'https://evil.example' }, payload: { email: 'kate@example.com', password: PASSWORD } });
    expect(res.statusCode).toBe(403);
    expect(res.cookies).toEqual([]);
  });
});

type SetCookie = { name: string; value: string; secure?: boolean; httpOnly?: boolean; path?: string; domain?: string };

describe('the session cookie', () => {
  it('on plain http is fm_session, Path=/, without Secure (browsers drop Secure cookies there)', async () => {
    const { res } = await signup('plain@example.com');
    const cookies = res.cookies as SetCookie[];
    expect(cookies.map((c) => c.name)).toContain(SESSION_COOKIE);
    expect(cookies.map((c) => c.name)).not.toContain(SECURE_SESSION_COOKIE);
    const cookie = cookies.find((c) => c.name === SESSION_COOKIE)!;
    expect(cookie).toMatchObject({ path: '/', httpOnly: true });
    expect(cookie.secure).toBeFalsy();
    expect(cookie.domain).toBeUndefined();
  });

  it('over https is __Host-fm_session: Secure, Path=/, no Domain; read and cleared under that name only', async () => {
    const secure = await testApp({ config: await testConfig({ PUBLIC_URL: 'https://shop.example' }) });
    try {
      const origin = { origin: 'https://shop.example' };
      const res = await secure.app.inject({ method: 'POST', url: '/api/auth/signup', headers: origin, payload: { email: 'secure@example.com', password: PASSWORD } });
      expect(res.statusCode).toBe(201);
      const cookies = res.cookies as SetCookie[];
      expect(cookies.map((c) => c.name)).not.toContain(SESSION_COOKIE);
      const cookie = cookies.find((c) => c.name === SECURE_SESSION_COOKIE)!;
      expect(cookie).toMatchObject({ secure: true, httpOnly: true, path: '/' });
      expect(cookie.domain).toBeUndefined();
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);

      const me = (name: string) => secure.app.inject({ method: 'GET', url: '/api/auth/me', cookies: { [name]: cookie.value } });
      expect((await me(SECURE_SESSION_COOKIE)).json().user.email).toBe('secure@example.com');
      // The token under the plain name (set by a plain-http page or another host) is not a session here.
      expect((await me(SESSION_COOKIE)).json()).toEqual({ success: true, user: null });

      const out = await secure.app.inject({ method: 'POST', url: '/api/auth/logout', headers: origin, cookies: { [SECURE_SESSION_COOKIE]: cookie.value } });
      const cleared = (out.cookies as SetCookie[]).find((c) => c.name === SECURE_SESSION_COOKIE);
      expect(cleared).toMatchObject({ value: '', secure: true, path: '/' });
      expect((await me(SECURE_SESSION_COOKIE)).json()).toEqual({ success: true, user: null });
    } finally {
      await secure.close();
    }
  });
});
