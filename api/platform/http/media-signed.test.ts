/**
 * Media on S3 is served by signed URLs: /media/... answers 302 to a GET signed for the public
 * origin (S3_PUBLIC_URL), and the bucket serves the bytes, Range requests and CORS. The bucket
 * is s3rver (a real S3 API on loopback) with the CORS rule the README gives. s3rver checks a
 * presigned URL's key and expiry but not its SigV4 signature, so the public origin here (what a
 * CDN or reverse proxy would be) checks signatures as S3 does, written from AWS's description
 * and proven on AWS's own example, before passing each request on to s3rver.
 */
import { createHash, createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUser } from '../../modules/accounts/index.ts';
import { createSession, SESSION_COOKIE } from '../sessions/sessions.ts';
import { newKey } from '../storage/object-storage.ts';
import { testApp, testConfig, type TestApp } from '../../test/harness.ts';

const APP_ORIGIN = 'http://localhost:3000';
const SECRET = 'S3RVER';
const CORS_RULE = `<CORSConfiguration><CORSRule>
  <AllowedOrigin>${APP_ORIGIN}</AllowedOrigin><AllowedMethod>GET</AllowedMethod><AllowedMethod>HEAD</AllowedMethod>
  <AllowedHeader>Range</AllowedHeader>
  <ExposeHeader>Content-Range</ExposeHeader><ExposeHeader>Accept-Ranges</ExposeHeader><ExposeHeader>Content-Length</ExposeHeader><ExposeHeader>ETag</ExposeHeader>
</CORSRule></CORSConfiguration>`;
const bytes = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7) % 251));
const HOUR_MS = 3_600_000;

/** RFC 3986 percent-encoding, as SigV4's canonical request wants it. */
const rfc3986 = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** Whether a presigned request carries the signature S3 computes for it (SigV4, query-string authentication, host signed). */
function signedRight(method: string, url: URL, host: string, secret: string): boolean {
  const q = url.searchParams;
  const [, date = '', region = '', service = ''] = (q.get('X-Amz-Credential') ?? '').split('/');
  if (q.get('X-Amz-SignedHeaders') !== 'host') return false;
  const query = [...q]
    .filter(([k]) => k !== 'X-Amz-Signature')
    .map(([k, v]) => `${rfc3986(k)}=${rfc3986(v)}`)
    .sort()
    .join('&');
  const uri = url.pathname
    .split('/')
    .map((s) => rfc3986(decodeURIComponent(s)))
    .join('/');
  const canonical = [method, uri, query, `host:${host}\n`, 'host', 'UNSIGNED-PAYLOAD'].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', q.get('X-Amz-Date'), scope, createHash('sha256').update(canonical).digest('hex')].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
  return createHmac('sha256', key).update(toSign).digest('hex') === q.get('X-Amz-Signature');
}

/** The public origin: refuses a badly signed request as S3 does (403), passes the rest on to the bucket (preflights unsigned, as S3 takes them). */
function publicOrigin(endpoint: string): Server {
  return createServer((req, res) => {
    const host = req.headers.host ?? '';
    const url = new URL(req.url ?? '/', `http://${host}`);
    if (req.method !== 'OPTIONS' && !signedRight(req.method ?? 'GET', url, host, SECRET)) {
      res.writeHead(403, { 'content-type': 'application/xml' }).end('<Error><Code>SignatureDoesNotMatch</Code></Error>');
      return;
    }
    const passed = ['range', 'origin', 'access-control-request-method', 'access-control-request-headers'];
    const headers = Object.fromEntries(passed.flatMap((h) => (typeof req.headers[h] === 'string' ? [[h, req.headers[h]]] : [])));
    void fetch(`${endpoint}${url.pathname}${url.search}`, { method: req.method, headers }).then(
      async (upstream) => {
        const body = Buffer.from(await upstream.arrayBuffer());
        const kept = [...upstream.headers].filter(([h]) => !['transfer-encoding', 'connection', 'keep-alive', 'content-length'].includes(h));
        res.writeHead(upstream.status, Object.fromEntries(kept)).end(body);
      },
      () => res.writeHead(502).end(),
    );
  });
}

it('checks signatures as AWS documents them (its presigned GET example)', () => {
  const example = new URL(
    'https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404',
  );
  const secret = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
  expect(signedRight('GET', example, example.host, secret)).toBe(true);
  expect(signedRight('GET', example, 'other.example', secret)).toBe(false);
  expect(signedRight('HEAD', example, example.host, secret)).toBe(false);
});

describe('media on S3', () => {
  let t: TestApp;
  let s3server: S3rver;
  let origin: Server;
  let publicUrl: string;
  const dirs: string[] = [];
  const keys = { public: newKey('mp4'), unlisted: newKey('mp4') };
  let ownerCookies: Record<string, string>;

  beforeAll(async () => {
    const s3dir = await mkdtemp(path.join(os.tmpdir(), 'fm-s3-signed-'));
    dirs.push(s3dir);
    s3server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3dir, configureBuckets: [{ name: 'framemerch', configs: [CORS_RULE] }] });
    const { port } = await s3server.run();
    const endpoint = `http://127.0.0.1:${port}`;
    origin = publicOrigin(endpoint);
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    publicUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
    const config = await testConfig({
      PUBLIC_URL: APP_ORIGIN,
      S3_BUCKET: 'framemerch',
      S3_ENDPOINT: endpoint,
      S3_PUBLIC_URL: publicUrl,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: SECRET,
    });
    t = await testApp({ config });

    await t.storage.put('videos', keys.public, bytes);
    await t.storage.put('videos', keys.unlisted, bytes);
    // An unlisted video (awaiting review): its file is its owner's only.
    const owner = await createUser(t.db, { email: 'maker@signed.example', displayName: 'Maker', role: 'creator', emailVerified: true });
    await t.db
      .insertInto('videos')
      .values({ user_id: owner.id, title: 'Unlisted', video_key: keys.unlisted, content_type: 'video/mp4', size_bytes: bytes.length, duration_ms: 5000, verification_status: 'pending' })
      .execute();
    ownerCookies = { [SESSION_COOKIE]: (await createSession(t.db, owner.id, 1, {})).token };
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => origin?.close(resolve));
    await s3server?.close();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  const media = (key: string, opts: { cookies?: Record<string, string>; headers?: Record<string, string>; method?: 'GET' | 'HEAD' } = {}) =>
    t.app.inject({ method: opts.method ?? 'GET', url: `/media/videos/${key}`, headers: opts.headers ?? {}, ...(opts.cookies ? { cookies: opts.cookies } : {}) });
  const signedFor = async (key: string, opts: Parameters<typeof media>[1] = {}) => {
    const res = await media(key, opts);
    expect(res.statusCode, res.body).toBe(302);
    return new URL(String(res.headers.location));
  };

  it('redirects a public object to a URL on the public origin that is the same all hour, cached for the rest of it', async () => {
    const hour = Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
    const stamp = new Date(hour).toISOString().replace(/[:-]|\.\d{3}/g, '');
    const at = async (ms: number) => {
      vi.setSystemTime(hour + ms);
      const res = await media(keys.public, { headers: { range: 'bytes=0-99' } });
      expect(res.statusCode, res.body).toBe(302);
      expect(res.rawPayload.length).toBe(0);
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      return { location: String(res.headers.location), cacheControl: res.headers['cache-control'] };
    };

    const first = await at(1000);
    const last = await at(HOUR_MS - 1);
    const next = await at(HOUR_MS);
    const url = new URL(first.location);
    expect(url.origin).toBe(publicUrl);
    expect(url.pathname).toBe(`/framemerch/videos/${keys.public}`);
    expect(url.searchParams.get('X-Amz-Date')).toBe(stamp);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('7200');
    expect(first.cacheControl).toBe('public, max-age=3599');
    expect(last).toEqual({ location: first.location, cacheControl: 'public, max-age=1' });
    expect(next.location).not.toBe(first.location);
    expect(next.cacheControl).toBe('public, max-age=3600');
  });

  it('lets the bucket answer the signed URL, whole and by range', async () => {
    const url = await signedFor(keys.public);
    const whole = await fetch(url);
    expect(whole.status).toBe(200);
    expect(Buffer.compare(Buffer.from(await whole.arrayBuffer()), bytes)).toBe(0);

    const part = await fetch(url, { headers: { range: 'bytes=0-99' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-99/${bytes.length}`);
    const body = Buffer.from(await part.arrayBuffer());
    expect(body.length).toBe(100);
    expect(Buffer.compare(body, bytes.subarray(0, 100))).toBe(0);
  });

  it('answers the app origin with CORS headers a canvas and the service worker can use', async () => {
    const url = await signedFor(keys.public);
    const res = await fetch(url, { headers: { origin: APP_ORIGIN, range: 'bytes=100-199' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect(res.headers.get('access-control-expose-headers')).toMatch(/Content-Range.*Accept-Ranges.*Content-Length.*ETag/);

    const preflight = await fetch(url, { method: 'OPTIONS', headers: { origin: APP_ORIGIN, 'access-control-request-method': 'GET', 'access-control-request-headers': 'range' } });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-headers')).toBe('range');

    const elsewhere = await fetch(url, { headers: { origin: 'https://elsewhere.example' } });
    expect(elsewhere.headers.get('access-control-allow-origin')).toBeNull();
  });

  it("gives an unlisted video's owner a URL for an hour, never cached, and answers anyone else as missing", async () => {
    const now = Date.now();
    vi.setSystemTime(now);
    const res = await media(keys.unlisted, { cookies: ownerCookies });
    expect(res.statusCode, res.body).toBe(302);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const url = new URL(String(res.headers.location));
    expect(url.searchParams.get('X-Amz-Date')).toBe(new Date(now).toISOString().replace(/[:-]|\.\d{3}/g, ''));
    expect(url.searchParams.get('X-Amz-Expires')).toBe('3600');
    vi.useRealTimers();
    expect((await fetch(url)).status).toBe(200);

    const hidden = await media(keys.unlisted);
    const missing = await media(newKey('mp4'));
    for (const res of [hidden, missing]) {
      expect(res.statusCode).toBe(404);
      expect(res.headers.location).toBeUndefined();
    }
    expect(hidden.body).toBe(missing.body);
  });

  it('is refused by the bucket when the signature is tampered with or the URL has expired', async () => {
    const url = await signedFor(keys.public);
    const signature = url.searchParams.get('X-Amz-Signature')!;
    const tampered = new URL(url);
    tampered.searchParams.set('X-Amz-Signature', `${signature[0] === '0' ? '1' : '0'}${signature.slice(1)}`);
    expect((await fetch(tampered)).status).toBe(403);
    const otherObject = new URL(url);
    otherObject.pathname = `/framemerch/videos/${keys.unlisted}`;
    expect((await fetch(otherObject)).status).toBe(403);
    const longer = new URL(url);
    longer.searchParams.set('X-Amz-Expires', '604800');
    expect((await fetch(longer)).status).toBe(403);

    // Past its expiry by the bucket's clock (s3rver runs in this process, so it reads the same one).
    const signedAt = Date.parse(url.searchParams.get('X-Amz-Date')!.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));
    vi.setSystemTime(signedAt + 2 * HOUR_MS + 1000);
    const expired = await fetch(url);
    expect(expired.status).toBe(403);
    expect(await expired.text()).toContain('Request has expired');

    vi.useRealTimers();
    const own = await signedFor(keys.unlisted, { cookies: ownerCookies });
    expect((await fetch(own)).status).toBe(200);
    vi.setSystemTime(Date.now() + HOUR_MS - 60_000);
    expect((await fetch(own)).status).toBe(200);
    vi.setSystemTime(Date.now() + 61_000 + 1000);
    expect((await fetch(own)).status).toBe(403);
  });

  it('answers a HEAD itself, since the URL is signed for GET', async () => {
    const res = await media(keys.public, { method: 'HEAD' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe(String(bytes.length));
    expect(res.headers.location).toBeUndefined();
  });

  it('lets pages load images, media and connections from the public origin, and nothing else from it', async () => {
    const csp = String((await t.app.inject({ url: '/api/health' })).headers['content-security-policy']);
    const directive = (name: string) => csp.split(';').map((d) => d.trim()).find((d) => d.startsWith(`${name} `)) ?? '';
    for (const name of ['img-src', 'media-src', 'connect-src']) expect(directive(name).split(' '), name).toContain(publicUrl);
    for (const name of ['default-src', 'script-src', 'worker-src', 'style-src', 'font-src', 'child-src']) expect(directive(name), name).not.toContain(publicUrl);
  });
});

describe('media on the local store', () => {
  let t: TestApp;
  const key = newKey('mp4');

  beforeAll(async () => {
    t = await testApp();
    await t.storage.put('videos', key, bytes);
  });
  afterAll(async () => t?.close());

  it('is still streamed by the API, whole and by range, under a CSP naming no other origin', async () => {
    const whole = await t.app.inject({ url: `/media/videos/${key}` });
    expect(whole.statusCode).toBe(200);
    expect(Buffer.compare(whole.rawPayload, bytes)).toBe(0);
    const part = await t.app.inject({ url: `/media/videos/${key}`, headers: { range: 'bytes=0-99' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-99/${bytes.length}`);
    expect(Buffer.compare(part.rawPayload, bytes.subarray(0, 100))).toBe(0);
    const csp = String((await t.app.inject({ url: '/api/health' })).headers['content-security-policy']);
    expect(csp).not.toMatch(/https?:\/\//);
  });
});
