import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '../../../shared/schemas/auth.ts';
import { createSession, SESSION_COOKIE } from '../../platform/sessions/sessions.ts';
import { MailSender, type MailTransport } from '../../platform/mail/outbox.ts';
import { createUser } from '../accounts/index.ts';
import { testApp, testConfig, type TestApp } from '../../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp({ config: await testConfig({ PUBLIC_URL: 'http://localhost:3000' }) });
});
afterAll(async () => t?.close());

const post = (url: string, email: string, ip = '10.0.0.1') =>
  t.app.inject({ method: 'POST', url, payload: { email }, remoteAddress: ip });

describe('mail through the outbox', () => {
  it('queues the welcome email, delivers it into the outbox, and shows it on the dev mail page', async () => {
    const res = await post('/api/send-welcome-email', 'new.creator@example.com');
    expect(res.statusCode).toBe(202);
    const page = await t.app.inject({ method: 'GET', url: '/api/dev/mail' });
    expect(page.statusCode).toBe(200);
    const message = page.json().messages.find((m: { to: string }) => m.to === 'new.creator@example.com');
    expect(message).toMatchObject({ subject: 'Welcome to FrameMerch', status: 'sent' });
    expect(message.text).toContain('70%');
  });

  it('sends the subscription approval link once a day per address, signed for that address', async () => {
    expect((await post('/api/send-subscription-email', 'Fan@Example.com', '10.0.0.2')).statusCode).toBe(202);
    expect((await post('/api/send-subscription-email', 'fan@example.com', '10.0.0.2')).statusCode).toBe(202);
    const rows = await t.db.selectFrom('email_outbox').selectAll().where('template', '=', 'subscription_approval').execute();
    expect(rows).toHaveLength(1);
    const text = String((rows[0]!.payload as { text: string }).text);
    const link = new URL(/http\S+/.exec(text)![0]);
    expect(link.pathname).toBe('/approve-subscription');
    expect(link.searchParams.get('email')).toBe('Fan@Example.com');
    expect(link.searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{43}$/);
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
