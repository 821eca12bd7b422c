/**
 * The request log, as the server writes it (serverOptions' logger): an order page's secret link,
 * a mail message's link and an address typed into a form never reach a log line.
 */
import type { InjectOptions } from 'fastify';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, serverOptions } from '../app.ts';
import { readCatalogue } from '../modules/merch/index.ts';
import { orderPagePath } from '../modules/orders/index.ts';
import { openStorage } from '../integrations/s3/index.ts';
import { freshDatabase, NO_BACKGROUND, testConfig, type TestDatabase } from './harness.ts';

const lines: string[] = [];
const captured = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(...chunk.toString().split('\n').filter(Boolean));
    done();
  },
});

/** Lets the logger finish the lines of requests that have just answered. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

const PUBLIC_URL = 'http://localhost:3000';
/** Requests as a browser sends them, to PUBLIC_URL's host (any other host is redirected there). */
const request = (opts: InjectOptions) => app.inject({ ...opts, headers: { host: new URL(PUBLIC_URL).host, ...opts.headers } });

let tdb: TestDatabase;
let app: Awaited<ReturnType<typeof buildApp>>;
beforeAll(async () => {
  const config = await testConfig({ PUBLIC_URL });
  tdb = await freshDatabase();
  const base = serverOptions('info');
  app = await buildApp(
    { config, database: tdb.database, storage: await openStorage(config), catalogue: await readCatalogue(), ownsDatabase: false },
    NO_BACKGROUND,
    { ...base, logger: { ...(base.logger as object), stream: captured } },
  );
});
afterAll(async () => {
  await app?.close();
  await tdb?.drop();
});

describe('the request log', () => {
  it("writes an order page's request without its token", async () => {
    const orderId = '6f1c2d3e-4b5a-4c6d-8e7f-8091a2b3c4d5';
    const path = await orderPagePath(tdb.database.db, orderId);
    const token = new URL(path, 'http://localhost').searchParams.get('token')!;
    expect(token.length).toBeGreaterThan(20);
    lines.length = 0;
    await request({ url: path });
    await request({ url: `/api/orders/${orderId}?token=${token}` });
    await settled();
    const requests = lines.filter((l) => l.includes('"req"'));
    expect(requests.length).toBeGreaterThanOrEqual(2);
    expect(requests.some((l) => l.includes(`/api/orders/${orderId}?token=[redacted]`))).toBe(true);
    expect(lines.join('\n')).not.toContain(token);
  });

  it('writes a mail request and a message link without the address or the token', async () => {
    lines.length = 0;
    const sent = await request({ method: 'POST', url: '/api/send-subscription-email', payload: { email: 'logged.nowhere@example.com' } });
    const link = sent.json().mail_link as string;
    const token = new URL(link, 'http://localhost').searchParams.get('token')!;
    const id = new URL(link, 'http://localhost').searchParams.get('message')!;
    expect((await request({ url: `/api/dev/mail/${id}?token=${token}` })).statusCode).toBe(200);
    await request({ url: `/approve-subscription?email=${encodeURIComponent('logged.nowhere@example.com')}&token=${token}` });
    await settled();
    const log = lines.join('\n');
    expect(log).toContain('[redacted]');
    expect(log).not.toContain(token);
    expect(log).not.toContain('logged.nowhere');
  });

  it("writes an approval's request without the address or the token in its body, used or refused", async () => {
    const sent = await request({ method: 'POST', url: '/api/send-subscription-email', payload: { email: 'approved.quietly@example.com' }, remoteAddress: '10.0.0.7' });
    expect(sent.statusCode).toBe(202);
    const row = await tdb.database.db.selectFrom('email_outbox').select('payload').where('to_address', '=', 'approved.quietly@example.com').executeTakeFirstOrThrow();
    const token = new URL(/http\S+/.exec(String((row.payload as { text: string }).text))![0]).searchParams.get('token')!;
    lines.length = 0;
    const body = { email: 'approved.quietly@example.com', token };
    expect((await request({ method: 'POST', url: '/api/subscriptions/approve', payload: body })).statusCode).toBe(200);
    expect((await request({ method: 'POST', url: '/api/subscriptions/approve', payload: body })).statusCode).toBe(400);
    expect((await request({ method: 'POST', url: '/api/subscriptions/approve', payload: { email: body.email, token: 7 } })).statusCode).toBe(400);
    await request({ url: `/approve-subscription?email=${encodeURIComponent(body.email)}&token=${token}` });
    await settled();
    const log = lines.join('\n');
    expect(lines.filter((l) => l.includes('/api/subscriptions/approve')).length).toBeGreaterThanOrEqual(3);
    expect(log).not.toContain(token.split('.')[2]!);
    expect(log).not.toContain(token.split('.')[0]!);
    expect(log).not.toContain('approved.quietly');
  });
});
