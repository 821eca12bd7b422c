/**
 * Connection timeouts over a real socket, with the production settings scaled down to seconds:
 * headers that trickle in are cut at the header deadline, a body that stops arriving is cut at
 * the idle timeout, while an upload that keeps sending for longer than both, and a reply that
 * takes the server longer than the idle timeout to prepare, still finish.
 */
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECTION_TIMEOUTS, pauseIdleClockWhileServing, timeoutOptions } from '../platform/http/timeouts.ts';

const SCALED = { headersMs: 1000, idleMs: 1500, keepAliveMs: 1000, checkIntervalMs: 250 };
const SERVER_WORK_MS = 2500;

let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  app = Fastify({ ...timeoutOptions(SCALED), forceCloseConnections: true });
  pauseIdleClockWhileServing(app);
  app.addContentTypeParser('application/octet-stream', (_request, payload, done) => {
    let bytes = 0;
    payload.on('data', (chunk: Buffer) => (bytes += chunk.length));
    payload.on('end', () => done(null, bytes));
    payload.on('error', done);
  });
  app.post('/upload', async (request) => {
    // Work on the server after the body has arrived, longer than the idle timeout.
    await sleep(SERVER_WORK_MS);
    return { bytes: request.body };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as net.AddressInfo).port;
});
afterAll(async () => app?.close());

/** Opens a connection and reports when the server ends it and what it answered. */
function connect() {
  const socket = net.connect(port, '127.0.0.1');
  const opened = Date.now();
  let received = '';
  socket.on('data', (d) => (received += d.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<{ afterMs: number; received: string }>((resolve) => socket.on('close', () => resolve({ afterMs: Date.now() - opened, received })));
  return { socket, closed };
}

describe('connection timeouts', () => {
  it('the production values: no whole-request deadline, bounded header and idle time', () => {
    const opts = timeoutOptions();
    expect(opts.requestTimeout).toBe(0);
    expect(opts.connectionTimeout).toBe(CONNECTION_TIMEOUTS.idleMs);
    expect(CONNECTION_TIMEOUTS.idleMs).toBeLessThanOrEqual(60_000);
    expect(opts.http?.headersTimeout).toBeLessThanOrEqual(30_000);
    expect(opts.keepAliveTimeout).toBeLessThanOrEqual(75_000);
  });

  it('serves in-process requests, which have no socket (the embedded identity provider calls the app so)', async () => {
    const errors: unknown[] = [];
    const onError = (err: unknown) => errors.push(err);
    process.on('uncaughtException', onError);
    try {
      const res = await app.inject({ method: 'POST', url: '/upload', headers: { 'content-type': 'application/octet-stream' }, payload: Buffer.alloc(10) });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ bytes: 10 });
      await sleep(50);
    } finally {
      process.off('uncaughtException', onError);
    }
    expect(errors).toEqual([]);
  });

  it('closes a connection whose headers trickle in past the header deadline', async () => {
    const { socket, closed } = connect();
    socket.write('POST /upload HTTP/1.1\r\nHost: localhost\r\n');
    const trickle = setInterval(() => socket.writable && socket.write('X-Slow: 1\r\n'), 200);
    const result = await Promise.race([closed, sleep(5000).then(() => null)]);
    clearInterval(trickle);
    socket.destroy();
    expect(result, 'still open after 5 s').not.toBeNull();
    expect(result!.afterMs).toBeLessThan(SCALED.headersMs + SCALED.checkIntervalMs + 1000);
  });

  it('closes a connection whose body stops arriving, after the idle timeout', async () => {
    const { socket, closed } = connect();
    socket.write('POST /upload HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/octet-stream\r\nContent-Length: 100000\r\n\r\n');
    socket.write(Buffer.alloc(10));
    const result = await Promise.race([closed, sleep(5000).then(() => null)]);
    socket.destroy();
    expect(result, 'still open after 5 s').not.toBeNull();
    expect(result!.afterMs).toBeGreaterThanOrEqual(SCALED.idleMs - 100);
    expect(result!.afterMs).toBeLessThan(SCALED.idleMs + 1500);
  });

  it('lets an upload that keeps sending run longer than both bounds, and waits for the server to reply', async () => {
    const chunks = 40;
    const { socket, closed } = connect();
    socket.write(`POST /upload HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/octet-stream\r\nContent-Length: ${chunks * 1024}\r\nConnection: close\r\n\r\n`);
    for (let i = 0; i < chunks; i++) {
      socket.write(Buffer.alloc(1024, i));
      await sleep(100);
    }
    const result = await closed;
    expect(result.received).toMatch(/^HTTP\/1\.1 200 /);
    expect(result.received).toContain(`{"bytes":${chunks * 1024}}`);
    expect(result.afterMs).toBeGreaterThan(chunks * 100 + SERVER_WORK_MS - 500);
  }, 20_000);
});
