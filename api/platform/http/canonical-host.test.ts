import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN } from '../../test/browser.ts';
import { testApp, testConfig, type TestApp } from '../../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp({ config: await testConfig({ PUBLIC_URL: ORIGIN }) });
});
afterAll(async () => t?.close());

const get = (url: string, host: string, method: 'GET' | 'HEAD' = 'GET') => t.app.inject({ method, url, headers: { host } });

/** One request written by hand (no Host header, an absolute target); answers the status line and Location. */
async function raw(port: number, head: string): Promise<{ status: string; location: string | null }> {
  const text = await new Promise<string>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(`${head}\r\nConnection: close\r\n\r\n`));
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString('latin1')));
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
  });
  return { status: text.split('\r\n')[0] ?? '', location: /\r\nlocation: ([^\r]*)/i.exec(text)?.[1] ?? null };
}

describe('one host for the site', () => {
  it('sends a GET or HEAD by another host to the same path and query on PUBLIC_URL (308)', async () => {
    for (const host of ['127.0.0.1:3000', 'localhost', 'localhost:3001', '[::1]:3000', 'old.example']) {
      for (const method of ['GET', 'HEAD'] as const) {
        const res = await get('/video/0/abc?t=5&x=%2F', host, method);
        expect(res.statusCode, `${method} ${host}`).toBe(308);
        expect(res.headers.location, `${method} ${host}`).toBe(`${ORIGIN}/video/0/abc?t=5&x=%2F`);
      }
    }
    const api = await get('/api/videos?limit=2', '127.0.0.1:3000');
    expect(api.statusCode).toBe(308);
    expect(api.headers.location).toBe(`${ORIGIN}/api/videos?limit=2`);
  });

  it("answers PUBLIC_URL's host, in any case", async () => {
    for (const host of ['localhost:3000', 'LOCALHOST:3000']) expect((await get('/api/videos?limit=2', host)).statusCode, host).toBe(200);
  });

  it('a sign-in begun on another host starts over on PUBLIC_URL, where its cookie will be found', async () => {
    const res = await get('/api/auth/google/login?return_url=%2Fprivacy-policy', '127.0.0.1:3000');
    expect(res.statusCode).toBe(308);
    expect(res.headers.location).toBe(`${ORIGIN}/api/auth/google/login?return_url=%2Fprivacy-policy`);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('leaves other methods and the health probe alone', async () => {
    const post = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000' },
      payload: { email: 'nobody@example.com', password: 'wrong password' },
    });
    expect(post.statusCode).toBe(401);
    expect((await get('/api/health', '10.0.0.7:3000')).statusCode).toBe(200);
  });

  it('leaves a request with no Host alone, and never takes a host from an absolute target', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    expect((await raw(port, 'GET /api/videos?limit=1 HTTP/1.0')).status).toMatch(/ 200 /);
    const absolute = await raw(port, `GET http://evil.example/steal HTTP/1.1\r\nHost: 127.0.0.1:${port}`);
    expect(absolute.status).toMatch(/ 308 /);
    expect(absolute.location).toBe(`${ORIGIN}/`);
    const slashes = await raw(port, `GET //evil.example/steal HTTP/1.1\r\nHost: 127.0.0.1:${port}`);
    expect(slashes.location).toBe(`${ORIGIN}//evil.example/steal`);
    expect(new URL(slashes.location!).origin).toBe(ORIGIN);
  });
});
