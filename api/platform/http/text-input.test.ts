/**
 * Text holding a NUL character is refused with 400 wherever it arrives (JSON body, query string,
 * path parameter): PostgreSQL cannot store it, and it used to fail inside a statement with 500.
 * A client that drops its connection mid-body is a refused request, not a server error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classify } from './error-handler.ts';
import { hasNul } from './text-input.ts';
import { testApp, type TestApp } from '../../test/harness.ts';
import { signedInCreator } from '../../test/upload-helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => t?.close());

const NUL_REPLY = { success: false, code: 'MALFORMED_REQUEST', error: 'Text fields may not contain NUL characters.' };

describe('text with a NUL character', () => {
  it('finds NUL in nested values and keys, and nowhere else', () => {
    expect(hasNul({ a: [{ b: 'x\u0000' }] })).toBe(true);
    expect(hasNul({ ['k\u0000']: 1 })).toBe(true);
    expect(hasNul({ a: ['x', 1, null, { b: 'y' }] })).toBe(false);
    expect(hasNul(undefined)).toBe(false);
  });

  it('is refused with 400 in a JSON body, a query string and a path parameter, and nothing is written', async () => {
    const users = async () => Number((await t.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await users();
    const creator = await signedInCreator(t, 'nul-profile');
    const requests = [
      { method: 'POST' as const, url: '/api/auth/signup', payload: { email: 'nul\u0000@example.com', password: 'violet anchor meadow 7391' } },
      { method: 'POST' as const, url: '/api/auth/login', payload: { email: 'someone@example.com', password: 'pass\u0000word' } },
      { method: 'GET' as const, url: '/api/videos?before=%00' },
      { method: 'GET' as const, url: '/api/channels/a%00b' },
      { method: 'GET' as const, url: '/api/search/channels?q=%00' },
    ];
    for (const r of requests) {
      const res = await t.app.inject(r);
      expect(res.statusCode, `${r.method} ${r.url}: ${res.body}`).toBe(400);
      expect(res.json(), r.url).toEqual(NUL_REPLY);
    }
    const profile = await t.app.inject({
      method: 'PATCH',
      url: '/api/studio/profile',
      headers: creator.headers,
      cookies: creator.cookies,
      payload: { display_name: 'Name\u0000', bio: 'x' },
    });
    expect(profile.statusCode, profile.body).toBe(400);
    expect(profile.json()).toEqual(NUL_REPLY);
    expect(await users()).toBe(before + 1);
  });
});

describe('a client that leaves mid-body', () => {
  it('is classed as a refused request (400), not a server fault', () => {
    const err = Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
    expect(classify(err).status).toBe(400);
    expect(classify(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })).status).toBe(500);
  });
});
