/**
 * Large bodies are read only with a slot: past the limit they wait unread, in order, and a wait
 * past its bound is answered 503 with Retry-After. A slot comes back when the reply has gone,
 * after success, failure or a dropped connection, over a real socket and in-process alike.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Slots } from '../concurrency/slots.ts';
import { BUSY_MESSAGE, inLargeBodySlot } from './body-slots.ts';
import errors from './error-handler.ts';

const slots = new Slots(1);
let app: FastifyInstance;
let release: (() => void) | null = null;
let url: string;

beforeAll(async () => {
  app = Fastify({ forceCloseConnections: true });
  await app.register(errors);
  app.post('/held', { ...inLargeBodySlot(slots, 300) }, async () => {
    await new Promise<void>((resolve) => (release = resolve));
    return { ok: true };
  });
  app.post('/quick', { ...inLargeBodySlot(slots, 300) }, async (request) => ({ size: JSON.stringify(request.body).length }));
  app.post('/fails', { ...inLargeBodySlot(slots, 300) }, async () => {
    throw new Error('boom');
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
});
afterAll(async () => app?.close());

const post = (path: string, body: object = { a: 1 }) => app.inject({ method: 'POST', url: path, payload: body });

describe('large-body slots', () => {
  it('queues past the limit and answers 503 with Retry-After after the wait bound, without reading the body', async () => {
    const held = post('/held');
    await sleep(20);
    expect(slots.running).toBe(1);
    const refused = await post('/quick');
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE', error: BUSY_MESSAGE });

    // A waiter within the bound is served once the slot comes back.
    const waiting = post('/quick');
    await sleep(50);
    release!();
    expect((await held).statusCode).toBe(200);
    expect((await waiting).statusCode).toBe(200);
    expect(slots.running).toBe(0);
  });

  it('gives the slot back after an error, in-process and over a socket', async () => {
    for (let i = 0; i < 3; i++) expect((await post('/fails')).statusCode).toBe(500);
    expect(slots.running).toBe(0);
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${url}/quick`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"b":2}' });
      expect(res.status).toBe(200);
    }
    expect(slots.running).toBe(0);
  });

  it('gives the slot back when the client leaves before its reply', async () => {
    const controller = new AbortController();
    const leaving = fetch(`${url}/held`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}', signal: controller.signal }).catch(() => null);
    await sleep(50);
    expect(slots.running).toBe(1);
    controller.abort();
    await leaving;
    release!();
    await sleep(50);
    expect(slots.running).toBe(0);
  });
});
