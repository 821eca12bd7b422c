/**
 * Sign-in and sign-up limits: past each one the answer is 429 RATE_LIMITED with Retry-After, and
 * another address or account carries on. Requests name their address (inject's remoteAddress):
 * the harness exempts loopback from the per-address limits, as the browser tests' server does.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../../shared/schemas/auth.ts';
import { loadConfig } from '../../platform/config/config.ts';
import { testApp, testConfig, type TestApp } from '../../test/harness.ts';

const PASSWORD = 'velvet osprey parsnip quarry';
const FIFTEEN_MINUTES = 15 * 60;
const HOUR = 60 * 60;

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => t?.close());

const post = (app: TestApp['app'], url: string, payload: object, ip: string) => app.inject({ method: 'POST', url, payload, remoteAddress: ip });
const signup = (email: string, ip: string, password = PASSWORD) => post(t.app, '/api/auth/signup', { email, password }, ip);
const login = (email: string, ip: string, password = PASSWORD) => post(t.app, '/api/auth/login', { email, password }, ip);

/** A 429 with the spec's body and a Retry-After of whole seconds, at most `window` and close to it. */
function expectLimited(res: LightMyRequestResponse, window: number) {
  expect(res.statusCode).toBe(429);
  expect(res.json()).toEqual({ success: false, error: AUTH_MESSAGES.tooManyAttempts, code: 'RATE_LIMITED' });
  const header = String(res.headers['retry-after']);
  expect(header).toMatch(/^\d+$/);
  // The oldest counted attempt was made during this test: the wait is the window less at most the test's time so far.
  const elapsed = Math.ceil((Date.now() - testStarted) / 1000);
  expect(Number(header)).toBeLessThanOrEqual(window);
  expect(Number(header)).toBeGreaterThanOrEqual(window - elapsed);
}

let testStarted = Date.now();
beforeEach(() => {
  testStarted = Date.now();
});

describe('login limits', () => {
  it('per account: the 11th failure in 15 minutes is refused with 429, even with the right password, from any address', async () => {
    expect((await signup('locked@example.com', '203.0.113.1')).statusCode).toBe(201);
    for (let i = 1; i <= 10; i++) {
      // From a new address each time: the account's own count is what trips.
      const res = await login('Locked@Example.com', `198.51.100.${i}`, `wrong password ${i}`);
      expect(res.statusCode, `attempt ${i}`).toBe(401);
      expect(res.headers['retry-after']).toBeUndefined();
    }
    expectLimited(await login('locked@example.com', '198.51.100.11', 'wrong password 11'), FIFTEEN_MINUTES);
    expectLimited(await login('LOCKED@example.com', '198.51.100.12'), FIFTEEN_MINUTES);

    // Another account from one of the same addresses is not held back.
    expect((await signup('unlocked@example.com', '203.0.113.1')).statusCode).toBe(201);
    expect((await login('unlocked@example.com', '198.51.100.1')).statusCode).toBe(200);
  });

  it('per address: the 51st failure in 15 minutes from one address is refused; another address carries on', async () => {
    const ip = '198.51.100.50';
    for (let i = 1; i <= 50; i++) {
      // A different unknown email each time: no account reaches its own limit.
      const res = await login(`nobody-${i}@example.com`, ip, 'not the password');
      expect(res.statusCode, `attempt ${i}`).toBe(401);
    }
    expectLimited(await login('nobody-51@example.com', ip, 'not the password'), FIFTEEN_MINUTES);
    expect((await signup('from-elsewhere@example.com', '203.0.113.2')).statusCode).toBe(201);
    expectLimited(await login('from-elsewhere@example.com', ip), FIFTEEN_MINUTES);
    expect((await login('from-elsewhere@example.com', '198.51.100.51')).statusCode).toBe(200);
  });
});

describe('sign-up limits', () => {
  it('per address: 20 attempts an hour, successful or not; the 21st is refused and creates nothing', async () => {
    const ip = '203.0.113.20';
    for (let i = 1; i <= 20; i++) {
      // Every other attempt is refused (a guessable password); they count all the same.
      const res = await signup(`neighbour-${i}@example.com`, ip, i % 2 === 0 ? PASSWORD : 'password123');
      expect(res.statusCode, `attempt ${i}`).toBe(i % 2 === 0 ? 201 : 400);
    }
    expectLimited(await signup('neighbour-21@example.com', ip), HOUR);
    const users = await t.db.selectFrom('users').select('email').where('email', 'like', 'neighbour-%').execute();
    expect(users).toHaveLength(10);
    expect(users.map((u) => u.email)).not.toContain('neighbour-21@example.com');
    expect((await signup('neighbour-21@example.com', '203.0.113.21')).statusCode).toBe(201);
  });

  it('per email (in any case): 5 attempts an hour from any addresses; the 6th is refused; another email carries on', async () => {
    const attempts: Array<[string, string, number]> = [
      ['wanted@example.com', 'short', 400],
      ['Wanted@Example.com', 'password123', 400],
      ['wanted@example.com', PASSWORD, 201],
      ['WANTED@EXAMPLE.COM', PASSWORD, 409],
      ['wanted@example.com', 'short', 400],
    ];
    for (const [i, [email, password, status]] of attempts.entries()) {
      expect((await signup(email, `203.0.113.${101 + i}`, password)).statusCode, `attempt ${i + 1}`).toBe(status);
    }
    expectLimited(await signup('WANTED@example.com', '203.0.113.106', 'another fine long passphrase'), HOUR);
    expect((await signup('also-wanted@example.com', '203.0.113.106')).statusCode).toBe(201);
  });
});

describe('loopback', () => {
  it('is exempt from the per-address limits when AUTH_LIMIT_LOOPBACK is off (as in these tests)', async () => {
    for (let i = 1; i <= 22; i++) {
      const res = await signup(`local-${i}@example.com`, '127.0.0.1', 'short');
      expect(res.statusCode, `attempt ${i}`).toBe(400);
    }
    expect((await signup('local-23@example.com', '127.0.0.1')).statusCode).toBe(201);
  });

  it('is held to them when AUTH_LIMIT_LOOPBACK is on, as it is by default', async () => {
    expect(loadConfig({}).authLimitLoopback).toBe(true);
    const strict = await testApp({ config: await testConfig({ AUTH_LIMIT_LOOPBACK: 'true' }) });
    try {
      for (let i = 1; i <= 20; i++) {
        const res = await post(strict.app, '/api/auth/signup', { email: `local-${i}@example.com`, password: 'short' }, '127.0.0.1');
        expect(res.statusCode, `attempt ${i}`).toBe(400);
      }
      expectLimited(await post(strict.app, '/api/auth/signup', { email: 'local-21@example.com', password: PASSWORD }, '127.0.0.1'), HOUR);
      expect((await post(strict.app, '/api/auth/signup', { email: 'local-22@example.com', password: PASSWORD }, '203.0.113.200')).statusCode).toBe(201);
    } finally {
      await strict.close();
    }
  });
});
