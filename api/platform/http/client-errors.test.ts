import Fastify, { type FastifyInstance } from 'fastify';
import net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { timeoutOptions } from './timeouts.ts';

let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  app = Fastify({ ...timeoutOptions() });
  app.get('/clip', async () => ({ ok: true }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as net.AddressInfo).port;
});
afterAll(async () => app?.close());

/** Everything the server sends back for the raw request, until it closes the connection. */
function exchange(raw: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(raw));
    let received = '';
    socket.on('data', (d) => (received += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(received));
  });
}

it('answers a HEAD request whose headers are too large with 431 and no body, so the client can read it', async () => {
  const received = await exchange(`HEAD /clip HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'7'.repeat(20_000)}\r\n\r\n`);
  expect(received).toBe('HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
});

it('answers bytes that are not HTTP with 400 and closes the connection', async () => {
  const received = await exchange('NOT HTTP AT ALL\r\n\r\n');
  expect(received).toMatch(/^HTTP\/1\.1 400 Bad Request\r\nContent-Length: 0\r\n/);
});
