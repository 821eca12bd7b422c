import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../../shared/schemas/auth.ts';
import { createSession, SESSION_COOKIE } from '../../platform/sessions/sessions.ts';
import { MailSender, type MailTransport } from '../../platform/mail/outbox.ts';
import { createUser } from '../accounts/index.ts';
import { testApp, testConfig, type TestApp } from '../../test/harness.ts';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await testApp({ config: await testConfig({ PUBLIC_URL: 'http://localhost:3000' }) });
  admin = await sessionOf(t, 'admin@example.com', { admin: true });
});
afterAll(async () => t?.close());

const post = (url: string, email: string, ip = '10.0.0.1') =>
  t.app.inject({ method: 'POST', url, payload: { email }, remoteAddress: ip });

/** A signed-in user's session token. */
async function sessionOf(app: TestApp, email: string, opts: { admin?: boolean; role?: 'creator' | 'customer' } = {}): Promise<string> {
  const user = await createUser(app.db, { email, displayName: email.split('@')[0]!, role: opts.role ?? 'customer', emailVerified: true });
  if (opts.admin) await app.db.updateTable('users').set({ is_admin: true }).where('id', '=', user.id).execute();
  return (await createSession(app.db, user.id, 1, {})).token;
}

const outbox = (session?: string) => t.app.inject({ url: '/api/dev/mail', ...(session ? { cookies: { [SESSION_COOKIE]: session } } : {}) });

describe('mail through the outbox', () => {
  it('queues the welcome email, delivers it into the outbox, and shows it on the dev mail page', async () => {
    const res = await post('/api/send-welcome-email', 'new.creator@example.com');
    expect(res.statusCode).toBe(202);
    const page = await outbox(admin);
    expect(page.statusCode).toBe(200);
    const message = page.json().messages.find((m: { to: string }) => m.to === 'new.creator@example.com');
    expect(message).toMatchObject({ subject: 'Welcome to FrameMerch', status: 'sent' });
    expect(message.text).toContain('70%');
  });

  it('sends the subscription approval link once a day per address: signed, expiring, issued with the email', async () => {
    expect((await post('/api/send-subscription-email', 'Fan@Example.com', '10.0.0.2')).statusCode).toBe(202);
    expect((await post('/api/send-subscription-email', 'fan@example.com', '10.0.0.2')).statusCode).toBe(202);
    const rows = await t.db.selectFrom('email_outbox').selectAll().where('template', '=', 'subscription_approval').execute();
    expect(rows).toHaveLength(1);
    const text = String((rows[0]!.payload as { text: string }).text);
    const link = new URL(/http\S+/.exec(text)![0]);
    expect(link.pathname).toBe('/approve-subscription');
    expect(link.searchParams.get('email')).toBe('Fan@Example.com');
    // {approval id}.{expiry, seconds}.{signature}: 24 hours on; the approval is kept, the token is not.
    const token = link.searchParams.get('token')!;
    expect(token).toMatch(/^[0-9a-f-]{36}\.\d+\.[A-Za-z0-9_-]{43}$/);
    const [id, expiry] = token.split('.');
    expect(Number(expiry) * 1000 - Date.now()).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(Number(expiry) * 1000 - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
    const approvals = await t.db.selectFrom('subscription_approvals').selectAll().where('email', '=', 'fan@example.com').execute();
    expect(approvals).toEqual([expect.objectContaining({ id, used_at: null, expires_at: new Date(Number(expiry) * 1000) })]);
    expect(JSON.stringify(approvals)).not.toContain(token.split('.')[2]);
  });

  it("refuses an address that is not one, with the spec's message", async () => {
    for (const email of ['', 'nope', 'a@b']) {
      const res = await post('/api/send-subscription-email', email, '10.0.0.3');
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(AUTH_MESSAGES.invalidEmail);
    }
  });

  it('limits how much mail one address can make the server send', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await post('/api/send-welcome-email', `bulk${i}@example.com`, '10.0.0.9')).statusCode);
    expect(statuses.slice(0, 10).every((s) => s === 202)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it('retries a failed delivery later and gives up after five attempts', async () => {
    let calls = 0;
    const flaky: MailTransport = { kind: 'smtp', deliver: async () => { calls++; throw new Error('421 try later'); } };
    await t.db.updateTable('email_outbox').set({ status: 'sent' }).execute();
    await post('/api/send-welcome-email', 'retry@example.com', '10.0.0.4');
    const sender = new MailSender(t.db, flaky, 'test@framemerch.local');
    for (let i = 0; i < 5; i++) {
      await sender.runOnce();
      await t.db.updateTable('email_outbox').set({ send_after: new Date(0) }).where('to_address', '=', 'retry@example.com').execute();
    }
    const row = await t.db.selectFrom('email_outbox').selectAll().where('to_address', '=', 'retry@example.com').executeTakeFirstOrThrow();
    expect(calls).toBe(5);
    expect(row).toMatchObject({ status: 'failed', attempts: 5, last_error: '421 try later' });
  });
});

describe('the dev mail page with a real SMTP server configured', () => {
  it('is for admins only', async () => {
    const smtp = await testApp({ config: await testConfig({ SMTP_URL: 'smtp://127.0.0.1:1', PUBLIC_URL: 'http://localhost:3000' }) });
    try {
      expect((await smtp.app.inject({ method: 'GET', url: '/api/dev/mail' })).statusCode).toBe(401);
      const user = await createUser(smtp.db, { email: 'plain@example.com', displayName: 'Plain', role: 'creator', emailVerified: true });
      const { token } = await createSession(smtp.db, user.id, 1, {});
      expect((await smtp.app.inject({ method: 'GET', url: '/api/dev/mail', cookies: { [SESSION_COOKIE]: token } })).statusCode).toBe(403);
      await smtp.db.updateTable('users').set({ is_admin: true }).where('id', '=', user.id).execute();
      expect((await smtp.app.inject({ method: 'GET', url: '/api/dev/mail', cookies: { [SESSION_COOKIE]: token } })).statusCode).toBe(200);
    } finally {
      await smtp.close();
    }
  });
});

describe('the outbox is private', () => {
  const message = (id: string, token?: string, session?: string) =>
    t.app.inject({ url: `/api/dev/mail/${id}${token === undefined ? '' : `?token=${encodeURIComponent(token)}`}`, ...(session ? { cookies: { [SESSION_COOKIE]: session } } : {}) });
  const linkParts = (link: string) => {
    const url = new URL(link, 'http://localhost:3000');
    expect(url.pathname).toBe('/dev/mail');
    return { id: url.searchParams.get('message')!, token: url.searchParams.get('token')! };
  };

  it('shows the whole outbox to admins only: signed out 401, customers and creators 403', async () => {
    await post('/api/send-welcome-email', 'private.buyer@example.com', '10.0.1.1');
    const customer = await sessionOf(t, 'customer.reader@example.com');
    const creator = await sessionOf(t, 'creator.reader@example.com', { role: 'creator' });
    expect((await outbox()).statusCode).toBe(401);
    for (const session of [customer, creator]) {
      const res = await outbox(session);
      expect(res.statusCode).toBe(403);
      expect(res.body).not.toContain('private.buyer@example.com');
    }
    const res = await outbox(admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().messages.map((m: { to: string }) => m.to)).toContain('private.buyer@example.com');
  });

  it("hands the browser that asked the new message's secret link, which opens that message only", async () => {
    const first = await post('/api/send-subscription-email', 'first.reader@example.com', '10.0.1.2');
    const second = await post('/api/send-subscription-email', 'second.reader@example.com', '10.0.1.2');
    const a = linkParts(first.json().mail_link);
    const b = linkParts(second.json().mail_link);
    expect(a.token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // Anyone holding the link, signed in or not, reads that message and nothing else.
    const customer = await sessionOf(t, 'link.holder@example.com');
    for (const session of [undefined, customer]) {
      const res = await message(a.id, a.token, session);
      expect(res.statusCode).toBe(200);
      expect(res.json().message).toMatchObject({ id: a.id, to: 'first.reader@example.com', status: 'sent' });
      expect(res.body).not.toContain('second.reader@example.com');
    }
    // A wrong token (its last character changed, whatever it was), another message's token, no token,
    // or no such message: the same 404, nothing shown.
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const [id, token] of [[a.id, b.token], [a.id, `${a.token.slice(0, -1)}${a.token.endsWith('A') ? 'E' : 'A'}`], [a.id, ''], [a.id, undefined], [unknown, a.token]] as const) {
      const res = await message(id, token, customer);
      expect(res.statusCode, `${id} ${token}`).toBe(404);
      expect(res.json()).toEqual({ success: false, code: 'NOT_FOUND', error: 'This message was not found. Check that the link is complete.' });
    }
  });

  it('gives no link to a repeat request, so nobody gets the link of a message someone else asked for', async () => {
    const first = await post('/api/send-welcome-email', 'asked.once@example.com', '10.0.1.3');
    const again = await post('/api/send-welcome-email', 'asked.once@example.com', '10.0.1.4');
    expect(first.json().mail_link).toBeDefined();
    expect(again.statusCode).toBe(202);
    expect(again.json()).not.toHaveProperty('mail_link');
  });

  it("lists each message's link for admins, and it opens the message", async () => {
    const listed = (await outbox(admin)).json().messages as { id: string; link: string }[];
    const { id, token } = linkParts(listed[0]!.link);
    expect(id).toBe(listed[0]!.id);
    expect((await message(id, token)).statusCode).toBe(200);
  });

  it('logs a failed delivery without the address, even where the SMTP server quotes it', async () => {
    const lines: string[] = [];
    const refusing: MailTransport = {
      kind: 'smtp',
      deliver: async ({ to }) => {
        throw new Error(`550 5.1.1 <${to}>: Recipient address rejected`);
      },
    };
    await t.db.updateTable('email_outbox').set({ status: 'sent' }).execute();
    await post('/api/send-welcome-email', 'hidden.address@example.com', '10.0.1.5');
    const sender = new MailSender(t.db, refusing, 'test@framemerch.local', (msg, err) => lines.push(`${msg} ${err ? String(err) : ''}`));
    await sender.runOnce();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('550 5.1.1 <[address]>: Recipient address rejected');
    expect(lines.join('\n')).not.toContain('hidden.address');
  });
});

describe('the per-message link with a real SMTP server configured', () => {
  it('is not handed to the browser: the message goes to the inbox alone', async () => {
    const smtp = await testApp({ config: await testConfig({ SMTP_URL: 'smtp://127.0.0.1:1', PUBLIC_URL: 'http://localhost:3000' }) });
    try {
      const res = await smtp.app.inject({ method: 'POST', url: '/api/send-welcome-email', payload: { email: 'real.inbox@example.com' } });
      expect(res.statusCode).toBe(202);
      expect(res.json()).toEqual({ success: true, message: 'Welcome email sent.' });
    } finally {
      await smtp.close();
    }
  });
});
