/**
 * The subscription approval link (POST /api/subscriptions/approve): signed for its address,
 * good for 24 hours on the app's clock, and once. Every refusal answers the same 400, malformed
 * bodies included (never a 500); refusals are counted per address (429 past the limit).
 * The app runs with TEST_CLOCK, so the expiry test moves the app's clock; it runs last.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBSCRIPTION_APPROVAL_TTL_MS, SUBSCRIPTION_MESSAGES } from '../../../shared/schemas/subscriptions.ts';
import { testApp, testConfig, type TestApp } from '../../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp({ config: await testConfig({ PUBLIC_URL: 'http://localhost:3000', TEST_CLOCK: 'true' }) });
});
afterAll(async () => t?.close());

const INVALID = { success: false, code: 'VALIDATION_FAILED', error: SUBSCRIPTION_MESSAGES.approvalInvalid };
const MINUTE = 60_000;

let addresses = 0;
let ips = 0;
/** A new address to send from: one test's refusals (and requests for mail) do not count against another's. */
const nextIp = () => `10.7.${Math.floor(++ips / 250)}.${(ips % 250) + 1}`;

/** Asks for an approval link for the address (from an IP of its own) and reads it from the outbox. */
async function approvalLink(email = `fan${++addresses}@example.com`): Promise<{ email: string; token: string }> {
  const sent = await t.app.inject({ method: 'POST', url: '/api/send-subscription-email', payload: { email }, remoteAddress: nextIp() });
  expect(sent.statusCode, sent.body).toBe(202);
  const messageId = new URL(sent.json().mail_link as string, 'http://localhost:3000').searchParams.get('message')!;
  const row = await t.db.selectFrom('email_outbox').select('payload').where('id', '=', messageId).executeTakeFirstOrThrow();
  const link = new URL(/http\S+/.exec(String((row.payload as { text: string }).text))![0]);
  expect(link.pathname).toBe('/approve-subscription');
  return { email: link.searchParams.get('email')!, token: link.searchParams.get('token')! };
}

function approve(payload: unknown, ip: string, raw = false): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: '/api/subscriptions/approve',
    remoteAddress: ip,
    ...(raw ? { payload: payload as string, headers: { 'content-type': 'application/json' } } : payload === undefined ? {} : { payload: payload as object }),
  });
}

function expectInvalid(res: LightMyRequestResponse, what: string) {
  expect(res.statusCode, `${what}: ${res.body}`).toBe(400);
  expect(res.json(), what).toEqual(INVALID);
}

const approvedAddresses = () => t.db.selectFrom('subscription_approved_addresses').selectAll().orderBy('email').execute();
const approvalRow = (token: string) => t.db.selectFrom('subscription_approvals').selectAll().where('id', '=', token.split('.')[0]!).executeTakeFirstOrThrow();

/** The token with one part replaced. */
function withPart(token: string, index: 0 | 1 | 2, value: string): string {
  const parts = token.split('.');
  parts[index] = value;
  return parts.join('.');
}
/** The same text with its last character changed (still well-formed). */
const nudged = (text: string) => `${text.slice(0, -1)}${text.endsWith('A') ? 'B' : 'A'}`;

describe('an approval link', () => {
  it('approves its address once; the second time it is invalid', async () => {
    const ip = nextIp();
    const link = await approvalLink('Once.Only@Example.com');
    expect(link.email).toBe('Once.Only@Example.com');

    const first = await approve(link, ip);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ success: true, message: SUBSCRIPTION_MESSAGES.approvedMessage });
    expect(await approvedAddresses()).toEqual([{ email: 'once.only@example.com', approved_at: expect.any(Date) }]);
    expect((await approvalRow(link.token)).used_at).toBeInstanceOf(Date);

    expectInvalid(await approve(link, ip), 'used');
    expectInvalid(await approve({ ...link, email: 'once.only@example.com' }, ip), 'used, the address in lower case');
    expect(await approvedAddresses()).toHaveLength(1);
  });

  it('is checked for its address whatever its case and spaces', async () => {
    const link = await approvalLink('Mixed.Case@Example.com');
    const res = await approve({ email: '  mixed.CASE@example.COM ', token: link.token }, nextIp());
    expect(res.statusCode, res.body).toBe(200);
    expect((await approvedAddresses()).map((r) => r.email)).toContain('mixed.case@example.com');
  });

  it('refuses a wrong token, a forged one and a token made for another address, with one message, and stays usable', async () => {
    const ip = nextIp();
    const mine = await approvalLink();
    const theirs = await approvalLink();
    const before = await approvedAddresses();
    const cases: Array<[string, unknown]> = [
      ['signature one character off', { ...mine, token: withPart(mine.token, 2, nudged(mine.token.split('.')[2]!)) }],
      ['a signature of random bytes', { ...mine, token: withPart(mine.token, 2, 'A'.repeat(43)) }],
      ["another link's token", { ...mine, token: theirs.token }],
      ["this link's token for another address", { ...theirs, token: mine.token }],
      ['the address changed', { email: `x${mine.email}`, token: mine.token }],
      ["another approval's id under this signature", { ...mine, token: withPart(mine.token, 0, theirs.token.split('.')[0]!) }],
      ['an id that names nothing', { ...mine, token: withPart(mine.token, 0, '00000000-0000-4000-8000-000000000000') }],
    ];
    for (const [what, body] of cases) expectInvalid(await approve(body, ip), what);
    expect(await approvedAddresses()).toEqual(before);
    expect((await approvalRow(mine.token)).used_at).toBeNull();
    // Neither link was used up by the refusals.
    expect((await approve(mine, nextIp())).statusCode).toBe(200);
    expect((await approve(theirs, nextIp())).statusCode).toBe(200);
  });

  it('refuses a token whose expiry was moved later (or earlier): the signature covers it', async () => {
    const ip = nextIp();
    const link = await approvalLink();
    const expiry = Number(link.token.split('.')[1]);
    for (const moved of [expiry + 1, expiry + 86_400 * 365, expiry - 1]) {
      expectInvalid(await approve({ ...link, token: withPart(link.token, 1, String(moved)) }, ip), `expiry ${moved}`);
    }
    expect((await approvalRow(link.token)).used_at).toBeNull();
    expect((await approve(link, nextIp())).statusCode).toBe(200);
  });

  it('used twice at once: exactly one use succeeds', async () => {
    for (let round = 0; round < 5; round++) {
      const link = await approvalLink();
      const answers = await Promise.all([approve(link, nextIp()), approve(link, nextIp()), approve(link, nextIp())]);
      const statuses = answers.map((r) => r.statusCode).sort();
      expect(statuses, answers.map((r) => r.body).join('\n')).toEqual([200, 400, 400]);
      for (const res of answers.filter((r) => r.statusCode === 400)) expect(res.json()).toEqual(INVALID);
    }
  });

  it('answers a malformed body with the same 400, never a 500', async () => {
    // Refusals count towards the limit (tested below): each case from an address of its own.
    const link = await approvalLink();
    const bodies: Array<[string, unknown]> = [
      ['no body', undefined],
      ['an empty object', {}],
      ['no token', { email: link.email }],
      ['no email', { token: link.token }],
      ['empty strings', { email: '', token: '' }],
      ['numbers', { email: 1, token: 2 }],
      ['objects and arrays', { email: { $ne: null }, token: [link.token, link.token] }],
      ['null fields', { email: null, token: null }],
      ['an array', [link.email, link.token]],
      ['an address too long', { email: `${'a'.repeat(300)}@example.com`, token: link.token }],
      ['a token too long', { email: link.email, token: `${link.token}${'A'.repeat(5000)}` }],
      ['three dots', { email: link.email, token: 'a.b.c' }],
      ['one part', { email: link.email, token: link.token.replace(/\./g, '') }],
      ['a part more', { email: link.email, token: `${link.token}.x` }],
      ['a huge expiry', { email: link.email, token: withPart(link.token, 1, '9'.repeat(400)) }],
      ['a negative expiry', { email: link.email, token: withPart(link.token, 1, '-1') }],
      ['a fractional expiry', { email: link.email, token: withPart(link.token, 1, '1.5') }],
      ['an id that is not a uuid', { email: link.email, token: withPart(link.token, 0, "x' OR 1=1 --") }],
      ['control characters', { email: 'a\u0007@example.com', token: `${link.token}\u001b` }],
      ['not an address', { email: 'nobody', token: link.token }],
      ['unicode', { email: 'ü@ß.example', token: '🙂.🙂.🙂' }],
    ];
    for (const [what, body] of bodies) expectInvalid(await approve(body, nextIp()), what);
    for (const raw of ['null', '"a string"', '42', 'true', '[]']) expectInvalid(await approve(raw, nextIp(), true), `JSON ${raw}`);
    // Refused before the route, as everywhere: JSON that does not parse, and NUL characters (text-input.ts).
    for (const raw of ['{"email": ', `{"email": "a@example.com", "token": "${link.token}\\u0000"}`]) {
      const res = await approve(raw, nextIp(), true);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().code).toBe('MALFORMED_REQUEST');
    }
    // Still unused: the right body works, from an address not yet limited.
    expect((await approve(link, nextIp())).statusCode).toBe(200);
  });

  it('counts refusals per address: past the limit, 429 with Retry-After, even for a good link; other addresses go on', async () => {
    const ip = nextIp();
    const link = await approvalLink();
    for (let i = 0; i < 20; i++) expectInvalid(await approve({ ...link, token: nudged(link.token) }, ip), `attempt ${i + 1}`);
    const limited = await approve(link, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ success: false, code: 'RATE_LIMITED', error: SUBSCRIPTION_MESSAGES.approvalTooManyAttempts });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await approvalRow(link.token)).used_at).toBeNull();
    expect((await approve(link, nextIp())).statusCode).toBe(200);
  });

  it("expires 24 hours after it was sent, on the app's clock; approving an address again changes nothing", async () => {
    const early = await approvalLink('early@example.com');
    const late = await approvalLink('late@example.com');
    const sentAt = t.app.clock.now().getTime();
    expect(t.app.clock.advanceTo(new Date(sentAt + SUBSCRIPTION_APPROVAL_TTL_MS - MINUTE))).toBe(true);
    expect((await approve(early, nextIp())).statusCode).toBe(200);
    const [approved] = (await approvedAddresses()).filter((r) => r.email === 'early@example.com');

    expect(t.app.clock.advanceTo(new Date(sentAt + SUBSCRIPTION_APPROVAL_TTL_MS + MINUTE))).toBe(true);
    expectInvalid(await approve(late, nextIp()), 'expired');
    expect((await approvalRow(late.token)).used_at).toBeNull();
    expect((await approvedAddresses()).map((r) => r.email)).not.toContain('late@example.com');

    // A day on (by the app's clock), a new link can be asked for, and it works.
    const again = await approvalLink('late@example.com');
    expect(again.token).not.toBe(late.token);
    expect((await approve(again, nextIp())).statusCode).toBe(200);
    // An address approved already: a new link is accepted, and the first approval stands.
    const repeat = await approvalLink('early@example.com');
    expect((await approve(repeat, nextIp())).statusCode).toBe(200);
    expect((await approvedAddresses()).filter((r) => r.email === 'early@example.com')).toEqual([approved]);
  });
});
