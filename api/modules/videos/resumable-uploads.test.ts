/**
 * Resumable uploads (tus 1.0 at /api/uploads) and their finish (POST /api/videos/resumable): the
 * protocol through inject(), interrupted uploads over real sockets against a listening server,
 * ownership, tier limits, the first bytes' check, expiry by the app's clock, and the finish's
 * checks, with nothing left behind (tus folder, storage, announcements, temporary files) after a
 * refusal.
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Upload as TusClientUpload } from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESUMABLE_MESSAGES, RESUMABLE_UPLOAD, UPLOAD_MESSAGES } from '../../../shared/schemas/studio.ts';
import { createUser } from '../accounts/index.ts';
import { findMediaTools } from '../../platform/media/ffmpeg.ts';
import { createSession, SESSION_COOKIE } from '../../platform/sessions/sessions.ts';
import { ORIGIN } from '../../test/browser.ts';
import { testApp, testConfig, type TestApp } from '../../test/harness.ts';
import { multipart, signedInCreator, testMedia, type Part } from '../../test/upload-helpers.ts';
import { seededRandom } from '../../test/seeded-random.ts';

const MB = 1024 * 1024;
const TUS = { 'tus-resumable': '1.0.0' };

let t: TestApp;
let scratch: string;
let ffmpeg: string;
/** A 2 s H.264 MP4 made for this file, index first. */
let clip: Buffer;
let thumb: Buffer;
let port: number;

type Creator = Awaited<ReturnType<typeof signedInCreator>>;

beforeAll(async () => {
  t = await testApp({ config: await testConfig({ TEST_CLOCK: 'true' }) });
  scratch = await mkdtemp(path.join(os.tmpdir(), 'fm-resumable-'));
  ffmpeg = (await findMediaTools({ ffmpegPath: null, ffprobePath: null })).ffmpeg;
  clip = make('clip.mp4', ['-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25', '-t', '2', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart']);
  thumb = await testMedia('thumbnail.jpg');
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await t?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

function make(name: string, args: string[]): Buffer {
  const out = path.join(scratch, name);
  if (!existsSync(out)) execFileSync(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-y', ...args, out]);
  return readFileSync(out);
}

/** The clip followed by a top-level MP4 `free` box up to `bytes`: still a valid MP4 of the same video. */
function paddedClip(bytes: number): Buffer {
  const pad = bytes - clip.length;
  const box = Buffer.alloc(pad);
  box.writeUInt32BE(pad, 0);
  box.write('free', 4, 'latin1');
  randomBytes(Math.min(pad - 8, 4 * MB)).copy(box, 8);
  return Buffer.concat([clip, box]);
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const tusDir = () => path.join(t.config.dataDir, 'resumable-uploads');
const tusFiles = () => readdirSync(tusDir()).sort();
const dataOf = (id: string) => path.join(tusDir(), id);

function storedKeys(bucket: string): string[] {
  const base = path.join(t.config.dataDir, 'storage', bucket);
  return readdirSync(base, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => readdirSync(path.join(base, d.name)).map((f) => `${d.name}/${f}`));
}

async function snapshot() {
  const rows = await t.db.selectFrom('videos').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return { tus: tusFiles(), videos: storedKeys('videos'), thumbnails: storedKeys('thumbnails'), rows: Number(rows.n) };
}

/** Nothing of a refused request remains: tus files, stored files, rows, announcements, temporary files. */
async function expectNothingLeft(before: Awaited<ReturnType<typeof snapshot>>) {
  expect(await snapshot()).toEqual(before);
  expect(await t.db.selectFrom('pending_objects').selectAll().execute()).toEqual([]);
  expect(readdirSync(t.app.pendingObjects.tmpDir)).toEqual([]);
}

// --- the protocol through inject() ---------------------------------------------------------------

function tus(who: Creator | null, method: 'POST' | 'HEAD' | 'PATCH' | 'DELETE', url: string, headers: Record<string, string> = {}, payload?: Buffer) {
  return t.app.inject({
    method,
    url,
    headers: { host: 'localhost:3000', origin: ORIGIN, ...TUS, ...headers },
    ...(who ? { cookies: who.cookies } : {}),
    ...(payload ? { payload } : {}),
  });
}

async function create(who: Creator, length: number, extra: Record<string, string> = {}): Promise<string> {
  const res = await tus(who, 'POST', '/api/uploads', { 'upload-length': String(length), ...extra });
  expect(res.statusCode, res.body).toBe(201);
  const location = res.headers.location as string;
  expect(location).toMatch(/^\/api\/uploads\/[0-9a-f]{32}$/);
  return location.split('/').pop()!;
}

const patch = (who: Creator, id: string, offset: number, bytes: Buffer) =>
  tus(who, 'PATCH', `/api/uploads/${id}`, { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }, bytes);

async function offsetOf(who: Creator, id: string): Promise<number> {
  const res = await tus(who, 'HEAD', `/api/uploads/${id}`);
  expect(res.statusCode).toBe(200);
  return Number(res.headers['upload-offset']);
}

/** A complete upload of `bytes` for `who`, sent in two PATCHes. */
async function uploaded(who: Creator, bytes: Buffer): Promise<string> {
  const id = await create(who, bytes.length);
  const half = Math.floor(bytes.length / 2);
  expect((await patch(who, id, 0, bytes.subarray(0, half))).statusCode).toBe(204);
  expect((await patch(who, id, half, bytes.subarray(half))).statusCode).toBe(204);
  return id;
}

function finish(who: Creator, fields: Record<string, string>, thumbnail: Buffer | null = thumb) {
  const parts: Part[] = [
    { name: 'title', value: 'Resumed upload' },
    { name: 'description', value: 'Sent in pieces' },
    { name: 'category', value: 'music' },
  ]
    .map((p) => (p.name in fields ? { ...p, value: fields[p.name]! } : p))
    .concat(Object.entries(fields).filter(([k]) => !['title', 'description', 'category'].includes(k)).map(([name, value]) => ({ name, value })));
  if (thumbnail) parts.push({ name: 'thumbnail', value: thumbnail, filename: 't.jpg', type: 'image/jpeg' });
  return multipart(parts).then(({ payload, headers }) =>
    t.app.inject({ method: 'POST', url: '/api/videos/resumable', payload, headers: { ...headers, ...who.headers }, cookies: who.cookies }),
  );
}

async function proCreator(name: string): Promise<Creator> {
  const who = await signedInCreator(t, name);
  await t.db.insertInto('user_subscriptions').values({ user_id: who.user.id, tier: 'pro', status: 'active' }).execute();
  return who;
}

// --- the protocol over real sockets ----------------------------------------------------------------

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function cookieOf(who: Creator): string {
  return `${SESSION_COOKIE}=${who.cookies[SESSION_COOKIE]}`;
}

/** One request over a socket of its own; the body is sent in 256 KB writes, and cut after `cutAt` bytes when given. */
function raw(who: Creator, method: string, url: string, headers: Record<string, string>, body?: Buffer, cutAt?: number): Promise<RawAnswer | 'cut'> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method, path: url, agent: false, headers: { host: 'localhost:3000', origin: ORIGIN, cookie: cookieOf(who), ...TUS, ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      },
    );
    req.on('error', (err) => (cutAt !== undefined ? resolve('cut') : reject(err)));
    if (!body) return void req.end();
    let sent = 0;
    const pump = () => {
      while (sent < body.length) {
        const end = Math.min(body.length, sent + 256 * 1024, cutAt ?? Infinity);
        if (cutAt !== undefined && sent >= cutAt) {
          // The connection drops mid-body, as a network would.
          req.destroy();
          return resolve('cut');
        }
        const ok = req.write(body.subarray(sent, end));
        sent = end;
        if (!ok) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

describe('tus at /api/uploads', () => {
  it('creates an upload, reports its offset, and resumes from it', async () => {
    const who = await signedInCreator(t, 'resumer');
    const bytes = paddedClip(3 * MB);
    const id = await create(who, bytes.length, { 'upload-metadata': `filename ${Buffer.from('clip.mp4').toString('base64')}` });
    const head = await tus(who, 'HEAD', `/api/uploads/${id}`);
    expect(head.statusCode).toBe(200);
    expect(head.headers).toMatchObject({ 'upload-offset': '0', 'upload-length': String(bytes.length), 'tus-resumable': '1.0.0', 'cache-control': 'no-store' });
    const first = await patch(who, id, 0, bytes.subarray(0, MB));
    expect(first.statusCode, first.body).toBe(204);
    expect(first.headers['upload-offset']).toBe(String(MB));
    // The security headers every answer carries, though tus writes this one.
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    expect(await offsetOf(who, id)).toBe(MB);
    expect((await patch(who, id, MB, bytes.subarray(MB))).headers['upload-offset']).toBe(String(bytes.length));
    expect(sha256(await readFile(dataOf(id)))).toBe(sha256(bytes));
    expect((await tus(who, 'DELETE', `/api/uploads/${id}`)).statusCode).toBe(204);
    expect(existsSync(dataOf(id))).toBe(false);
    expect(existsSync(`${dataOf(id)}.json`)).toBe(false);
  });

  it('a 64 MB upload cut 20 times at random points over real sockets ends with the same SHA-256, and finishes into the same video', async () => {
    const who = await signedInCreator(t, 'interrupted');
    const bytes = paddedClip(64 * MB);
    const seed = Number(process.env.RESUMABLE_SEED ?? Date.now() % 1_000_000);
    const next = seededRandom(seed);
    const created = await raw(who, 'POST', '/api/uploads', { 'upload-length': String(bytes.length) });
    expect(created === 'cut' ? 'cut' : created.status, `seed ${seed}`).toBe(201);
    const url = (created as RawAnswer).headers.location!;
    const id = url.split('/').pop()!;
    const head = async () => {
      const res = await raw(who, 'HEAD', url, {});
      if (res === 'cut') throw new Error('HEAD was cut');
      expect(res.status).toBe(200);
      return Number(res.headers['upload-offset']);
    };
    let cuts = 0;
    let conflicts = 0;
    let offset = 0;
    const resumedFrom: number[] = [];
    while (offset < bytes.length) {
      const rest = bytes.subarray(offset);
      // Cut somewhere in what is left, at least 64 KB in, leaving room for the cuts still to come.
      const cutAt = cuts < 20 ? 64 * 1024 + Math.floor(next() * Math.max(1, rest.length / (21 - cuts) - 64 * 1024)) : undefined;
      const res = await raw(who, 'PATCH', url, { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }, rest, cutAt);
      if (res === 'cut') cuts++;
      else if (res.status === 409) conflicts++;
      else expect(res.status, `seed ${seed}: ${res.body}`).toBe(204);
      const now = await head();
      expect(now, `seed ${seed}`).toBeGreaterThanOrEqual(offset);
      if (res === 'cut' && now > offset) resumedFrom.push(now);
      offset = now;
    }
    expect(cuts).toBe(20);
    // Each request went on from what the server had kept. Bytes still in the sockets' buffers at a
    // cut are lost (the server may not have read them yet), so not every cut keeps something; but
    // the uploads resumed part-way rather than starting again.
    expect(resumedFrom.length, `seed ${seed}: ${resumedFrom.join(', ')}`).toBeGreaterThan(0);
    expect(conflicts, 'a PATCH after a fresh HEAD is never stale').toBe(0);
    expect(sha256(await readFile(dataOf(id))), `seed ${seed}`).toBe(sha256(bytes));

    const res = await finish(who, { upload_id: id });
    expect(res.statusCode, res.body).toBe(201);
    const row = await t.db.selectFrom('videos').select(['video_key', 'size_bytes', 'duration_ms', 'user_id']).where('id', '=', res.json().video.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ size_bytes: bytes.length, user_id: who.user.id });
    expect(row.duration_ms).toBeGreaterThan(1500);
    expect(sha256(await readFile(path.join(t.config.dataDir, 'storage', 'videos', row.video_key)))).toBe(sha256(bytes));
    // The finished upload is gone with its bytes.
    expect(existsSync(dataOf(id))).toBe(false);
    expect(existsSync(`${dataOf(id)}.json`)).toBe(false);
  }, 120_000);

  it('answers a stale Upload-Offset with 409 and leaves the stored bytes as they were', async () => {
    const who = await signedInCreator(t, 'stale');
    const bytes = paddedClip(2 * MB);
    const id = await create(who, bytes.length);
    await patch(who, id, 0, bytes.subarray(0, MB));
    const before = sha256(await readFile(dataOf(id)));
    for (const offset of [0, MB - 1, MB + 1, bytes.length]) {
      const res = await patch(who, id, offset, bytes.subarray(offset, offset + 1000));
      expect(res.statusCode, String(offset)).toBe(409);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ success: false, code: 'CONFLICT', error: RESUMABLE_MESSAGES.offsetConflict });
      expect(sha256(await readFile(dataOf(id)))).toBe(before);
    }
    expect(await offsetOf(who, id)).toBe(MB);
    await tus(who, 'DELETE', `/api/uploads/${id}`);
  });

  it("answers someone else's upload exactly as a missing one, and never lets metadata set the owner", async () => {
    const owner = await signedInCreator(t, 'upowner');
    const other = await signedInCreator(t, 'upother');
    // The client claims the other creator as the owner: the server writes its own.
    const id = await create(owner, 4 * MB, { 'upload-metadata': `fm_owner ${Buffer.from(other.user.id).toString('base64')},filename ${Buffer.from('a.mp4').toString('base64')}` });
    const info = JSON.parse(await readFile(`${dataOf(id)}.json`, 'utf8'));
    expect(info.metadata).toEqual({ fm_owner: owner.user.id, filename: 'a.mp4' });
    await patch(owner, id, 0, clip.subarray(0, 1000));
    const missing = '0123456789abcdef0123456789abcdef';
    const requests = [
      (u: string) => tus(other, 'HEAD', `/api/uploads/${u}`),
      (u: string) => patch(other, u, 1000, Buffer.alloc(100)),
      (u: string) => tus(other, 'DELETE', `/api/uploads/${u}`),
    ];
    for (const send of requests) {
      const theirs = await send(id);
      const none = await send(missing);
      expect(theirs.statusCode).toBe(404);
      expect({ status: theirs.statusCode, type: theirs.headers['content-type'], body: theirs.body }).toEqual({ status: none.statusCode, type: none.headers['content-type'], body: none.body });
    }
    const finished = await finish(other, { upload_id: id });
    expect(finished.statusCode).toBe(404);
    expect(finished.json()).toEqual({ success: false, code: 'NOT_FOUND', error: RESUMABLE_MESSAGES.notFound });
    expect(await offsetOf(owner, id)).toBe(1000);
    await tus(owner, 'DELETE', `/api/uploads/${id}`);
  });

  it("holds a Free creator's Upload-Length to 100 MB, naming the limit and how to raise it; a Pro creator may send 150 MB", async () => {
    const free = await signedInCreator(t, 'freetus');
    const before = await snapshot();
    const res = await tus(free, 'POST', '/api/uploads', { 'upload-length': String(150 * MB) });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      success: false,
      code: 'PAYLOAD_TOO_LARGE',
      error: 'Video upload failed: Video file size must be less than 100MB. Upgrade to Pro on /subscription-tiers for videos up to 2GB and 60 minutes.',
    });
    expect(await snapshot()).toEqual(before);
    const pro = await proCreator('protus');
    const id = await create(pro, 150 * MB);
    expect(await offsetOf(pro, id)).toBe(0);
    const over = await tus(pro, 'POST', '/api/uploads', { 'upload-length': String(2 * 1024 * MB + 1) });
    expect(over.statusCode).toBe(413);
    expect(over.json().error).toBe('Video upload failed: Video file size must be less than 2GB');
    await tus(pro, 'DELETE', `/api/uploads/${id}`);
  });

  it('refuses first bytes that are not an MP4 or WebM with 415, and removes the upload', async () => {
    const who = await signedInCreator(t, 'notvideo');
    const before = await snapshot();
    for (const [label, first] of Object.entries({
      html: Buffer.from('<!doctype html><html><script>alert(1)</script>'),
      zip: Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(60, 1)]),
    })) {
      const id = await create(who, 10 * MB);
      // The first bytes may come in pieces: 5 now, the rest later.
      expect((await patch(who, id, 0, first.subarray(0, 5))).statusCode, label).toBe(204);
      const res = await patch(who, id, 5, Buffer.concat([first.subarray(5), Buffer.alloc(MB)]));
      expect(res.statusCode, label).toBe(415);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ success: false, code: 'UNSUPPORTED_MEDIA_TYPE', error: 'Video upload failed: the file is not an MP4 or WebM video' });
      expect((await tus(who, 'HEAD', `/api/uploads/${id}`)).statusCode).toBe(404);
      await expectNothingLeft(before);
    }
  });

  it('holds a creator to 5 open uploads at once', async () => {
    const who = await signedInCreator(t, 'hoarder');
    const ids = [];
    for (let i = 0; i < RESUMABLE_UPLOAD.maxOpenPerCreator; i++) ids.push(await create(who, MB));
    const res = await tus(who, 'POST', '/api/uploads', { 'upload-length': String(MB) });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({ success: false, code: 'RATE_LIMITED', error: RESUMABLE_MESSAGES.tooMany });
    // Another creator is not held by this one's uploads.
    const other = await signedInCreator(t, 'nothoarder');
    await tus(other, 'DELETE', `/api/uploads/${await create(other, MB)}`);
    expect((await tus(who, 'DELETE', `/api/uploads/${ids.pop()}`)).statusCode).toBe(204);
    ids.push(await create(who, MB));
    for (const id of ids) await tus(who, 'DELETE', `/api/uploads/${id}`);
  });

  it('answers malformed tus requests as JSON 4xx, never 500', async () => {
    const who = await signedInCreator(t, 'malformed');
    const id = await create(who, 2 * MB);
    const cases: Array<[string, () => ReturnType<typeof tus>, number]> = [
      ['no Tus-Resumable', () => t.app.inject({ method: 'POST', url: '/api/uploads', headers: { host: 'localhost:3000', origin: ORIGIN, 'upload-length': '100' }, cookies: who.cookies }), 412],
      ['wrong Tus-Resumable', () => tus(who, 'POST', '/api/uploads', { 'tus-resumable': '0.2.2', 'upload-length': '100' }), 412],
      ['no Upload-Length', () => tus(who, 'POST', '/api/uploads'), 400],
      ['Upload-Length abc', () => tus(who, 'POST', '/api/uploads', { 'upload-length': 'abc' }), 400],
      ['Upload-Length -1', () => tus(who, 'POST', '/api/uploads', { 'upload-length': '-1' }), 400],
      ['Upload-Length 1e6', () => tus(who, 'POST', '/api/uploads', { 'upload-length': '1e6' }), 400],
      ['Upload-Length huge', () => tus(who, 'POST', '/api/uploads', { 'upload-length': '99999999999999999999999' }), 400],
      ['Upload-Length 0', () => tus(who, 'POST', '/api/uploads', { 'upload-length': '0' }), 415],
      ['deferred length', () => tus(who, 'POST', '/api/uploads', { 'upload-defer-length': '1' }), 400],
      ['concatenation', () => tus(who, 'POST', '/api/uploads', { 'upload-length': '100', 'upload-concat': 'partial' }), 400],
      ['bad Upload-Metadata', () => tus(who, 'POST', '/api/uploads', { 'upload-length': '100', 'upload-metadata': 'filename not*base64!' }), 400],
      ['duplicate metadata keys', () => tus(who, 'POST', '/api/uploads', { 'upload-length': '100', 'upload-metadata': 'a YQ==,a YQ==' }), 400],
      ['bad X-Forwarded-Proto', () => tus(who, 'POST', '/api/uploads', { 'upload-length': '100', 'x-forwarded-proto': 'gopher' }), 400],
      ['JSON body', () => tus(who, 'POST', '/api/uploads', { 'upload-length': '100', 'content-type': 'application/json' }, Buffer.from('{"a":1}')), 415],
      ['PATCH without offset', () => tus(who, 'PATCH', `/api/uploads/${id}`, { 'content-type': 'application/offset+octet-stream' }, Buffer.alloc(10)), 400],
      ['PATCH offset abc', () => tus(who, 'PATCH', `/api/uploads/${id}`, { 'upload-offset': 'abc', 'content-type': 'application/offset+octet-stream' }, Buffer.alloc(10)), 400],
      ['PATCH as text/plain', () => tus(who, 'PATCH', `/api/uploads/${id}`, { 'upload-offset': '0', 'content-type': 'text/plain' }, Buffer.alloc(10)), 415],
      ['PATCH without a type', () => tus(who, 'PATCH', `/api/uploads/${id}`, { 'upload-offset': '0' }, Buffer.alloc(10)), 415],
      ['PATCH with a length', () => tus(who, 'PATCH', `/api/uploads/${id}`, { 'upload-offset': '0', 'upload-length': '5', 'content-type': 'application/offset+octet-stream' }, Buffer.alloc(10)), 400],
      ['PATCH past the length', () => patch(who, id, 0, Buffer.concat([clip.subarray(0, 100), Buffer.alloc(2 * MB)])), 413],
      ['PATCH unknown id', () => patch(who, 'ffffffffffffffffffffffffffffffff', 0, Buffer.alloc(10)), 404],
      ['PATCH odd id', () => patch(who, '..%2F..%2Fetc%2Fpasswd', 0, Buffer.alloc(10)), 404],
      ['HEAD unknown id', () => tus(who, 'HEAD', '/api/uploads/nothing-here'), 404],
      ['DELETE unknown id', () => tus(who, 'DELETE', '/api/uploads/ffffffffffffffffffffffffffffffff'), 404],
      ['gzip body', () => tus(who, 'PATCH', `/api/uploads/${id}`, { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream', 'content-encoding': 'gzip' }, Buffer.alloc(10)), 415],
    ];
    for (const [label, send, status] of cases) {
      const res = await send();
      expect(res.statusCode, `${label}: ${res.body}`).toBe(status);
      if (res.body) {
        expect(res.headers['content-type'], label).toMatch(/^application\/json/);
        expect(res.json(), label).toMatchObject({ success: false, code: expect.any(String), error: expect.any(String) });
      }
    }
    expect(await offsetOf(who, id)).toBe(0);
    await tus(who, 'DELETE', `/api/uploads/${id}`);
  });

  it('is for signed-in creators from this site: anonymous 401, customers 403, other sites 403, suspended creators 401', async () => {
    const customer = await createUser(t.db, { email: 'tus-customer@example.com', displayName: 'c', role: 'customer', emailVerified: true });
    const customerSession = { cookies: { [SESSION_COOKIE]: (await createSession(t.db, customer.id, 1, {})).token } } as Creator;
    const creator = await signedInCreator(t, 'crosssite');
    const id = await create(creator, MB);
    expect((await tus(null, 'POST', '/api/uploads', { 'upload-length': '100' })).statusCode).toBe(401);
    expect((await tus(null, 'HEAD', `/api/uploads/${id}`)).statusCode).toBe(401);
    expect((await tus(customerSession, 'POST', '/api/uploads', { 'upload-length': '100' })).statusCode).toBe(403);
    const cross = await tus(creator, 'PATCH', `/api/uploads/${id}`, { origin: 'https://evil.example', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, clip.subarray(0, 100));
    expect(cross.statusCode).toBe(403);
    expect(cross.json().code).toBe('FORBIDDEN');
    expect((await tus(creator, 'DELETE', `/api/uploads/${id}`, { origin: 'https://evil.example' })).statusCode).toBe(403);
    expect(await offsetOf(creator, id)).toBe(0);
    await t.db.updateTable('users').set({ status: 'suspended' }).where('id', '=', creator.user.id).execute();
    expect((await tus(creator, 'HEAD', `/api/uploads/${id}`)).statusCode).toBe(401);
    expect((await patch(creator, id, 0, clip.subarray(0, 100))).statusCode).toBe(401);
    await t.db.updateTable('users').set({ status: 'active' }).where('id', '=', creator.user.id).execute();
    await tus(creator, 'DELETE', `/api/uploads/${id}`);
  });

  it('works with tus-js-client (the web client): upload, then finish', async () => {
    const who = await signedInCreator(t, 'tusclient');
    const bytes = paddedClip(5 * MB);
    const url = await new Promise<string>((resolve, reject) => {
      const upload = new TusClientUpload(bytes, {
        endpoint: `http://127.0.0.1:${port}${RESUMABLE_UPLOAD.endpoint}`,
        headers: { cookie: cookieOf(who), origin: ORIGIN, host: 'localhost:3000' },
        chunkSize: 2 * MB,
        metadata: { filename: 'clip.mp4', filetype: 'video/mp4' },
        retryDelays: [],
        onError: reject,
        onSuccess: () => resolve(upload.url!),
      });
      upload.start();
    });
    const id = url.split('/').pop()!;
    expect(sha256(await readFile(dataOf(id)))).toBe(sha256(bytes));
    const res = await finish(who, { upload_id: id });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ success: true, video: { title: 'Resumed upload', channel_slug: 'tusclient' } });
  });
});

describe('POST /api/videos/resumable', () => {
  it('keeps the upload when the form is wrong, so a corrected finish succeeds without sending the video again', async () => {
    const who = await signedInCreator(t, 'fixer');
    const id = await uploaded(who, clip);
    const before = await snapshot();
    const cases: Array<[Record<string, string>, Buffer | null, number, string]> = [
      [{ upload_id: id, title: ' ' }, thumb, 400, UPLOAD_MESSAGES.titleRequired],
      [{ upload_id: id, description: '' }, thumb, 400, UPLOAD_MESSAGES.descriptionRequired],
      [{ upload_id: id }, null, 400, UPLOAD_MESSAGES.thumbnailRequired],
      [{ upload_id: id }, Buffer.from('<svg onload="alert(1)"></svg>'.padEnd(400)), 415, UPLOAD_MESSAGES.thumbnailFailed],
      [{}, thumb, 400, 'Please give the upload_id of a completed upload.'],
    ];
    for (const [fields, thumbnail, status, message] of cases) {
      const res = await finish(who, fields, thumbnail);
      expect(res.statusCode, message).toBe(status);
      expect(res.json().error).toBe(message);
      await expectNothingLeft(before);
    }
    const res = await finish(who, { upload_id: id });
    expect(res.statusCode, res.body).toBe(201);
    expect(existsSync(dataOf(id))).toBe(false);
    // Finished once: the upload is gone, and a second finish finds nothing.
    expect((await finish(who, { upload_id: id })).statusCode).toBe(404);
  });

  it('answers a finish or a DELETE of an upload that is being finished with 409, and a non-multipart finish with 415', async () => {
    const who = await signedInCreator(t, 'busy');
    const id = await uploaded(who, clip);
    const release = (await t.app.resumableUploads.claim(id))!;
    try {
      for (const res of [await finish(who, { upload_id: id }), await tus(who, 'DELETE', `/api/uploads/${id}`)]) {
        expect(res.statusCode).toBe(409);
        expect(res.json()).toEqual({ success: false, code: 'CONFLICT', error: RESUMABLE_MESSAGES.busy });
      }
    } finally {
      await release();
    }
    const json = await t.app.inject({ method: 'POST', url: '/api/videos/resumable', payload: { upload_id: id }, headers: who.headers, cookies: who.cookies });
    expect(json.statusCode).toBe(415);
    expect((await finish(who, { upload_id: id })).statusCode).toBe(201);
  });

  it('answers an incomplete upload with 409 and keeps it', async () => {
    const who = await signedInCreator(t, 'halfway');
    const id = await create(who, clip.length);
    await patch(who, id, 0, clip.subarray(0, 1000));
    const res = await finish(who, { upload_id: id });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ success: false, code: 'CONFLICT', error: 'Video upload failed: the upload is not complete' });
    expect(await offsetOf(who, id)).toBe(1000);
    await tus(who, 'DELETE', `/api/uploads/${id}`);
  });

  it("refuses a video too long for the creator's tier with 422, storing nothing and removing the upload", async () => {
    const long = make('eleven-minutes.mp4', ['-f', 'lavfi', '-i', 'color=c=black:s=64x64:r=1', '-t', '660', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p']);
    const free = await signedInCreator(t, 'toolong');
    const before = await snapshot();
    const id = await uploaded(free, long);
    const res = await finish(free, { upload_id: id });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      success: false,
      code: 'VALIDATION_FAILED',
      error: 'Video upload failed: Video must be at most 10 minutes long. Upgrade to Pro on /subscription-tiers for videos up to 2GB and 60 minutes.',
    });
    await expectNothingLeft(before);
    // Pro's hour holds it.
    const pro = await proCreator('longpro');
    expect((await finish(pro, { upload_id: await uploaded(pro, long) })).statusCode).toBe(201);
  });

  it('removes the upload when its bytes are a video of a codec browsers do not play, storing nothing', async () => {
    const mpeg4 = make('mpeg4.mp4', ['-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25', '-t', '1', '-c:v', 'mpeg4']);
    const who = await signedInCreator(t, 'mpeg4er');
    const before = await snapshot();
    const res = await finish(who, { upload_id: await uploaded(who, mpeg4) });
    expect(res.statusCode).toBe(415);
    expect(res.json().error).toMatch(/^Video upload failed: the video codec mpeg4/);
    await expectNothingLeft(before);
  });

  it('holds a complete upload to the tier in force at the finish (a Pro plan that has ended)', async () => {
    const who = await proCreator('lapsed');
    const before = await snapshot();
    const id = await create(who, 101 * MB);
    const bytes = paddedClip(101 * MB);
    expect((await patch(who, id, 0, bytes)).statusCode).toBe(204);
    await t.db.deleteFrom('user_subscriptions').where('user_id', '=', who.user.id).execute();
    const res = await finish(who, { upload_id: id });
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toBe('Video upload failed: Video file size must be less than 100MB. Upgrade to Pro on /subscription-tiers for videos up to 2GB and 60 minutes.');
    await expectNothingLeft(before);
  }, 60_000);

  it('answers a database failure with 500 and keeps the upload for a retry, storing nothing', async () => {
    const who = await signedInCreator(t, 'dbfail');
    const id = await uploaded(who, clip);
    const before = await snapshot();
    const { sql } = await import('kysely');
    await sql`create function refuse_video_r() returns trigger language plpgsql as $$ begin raise exception 'disk quota exceeded'; end $$`.execute(t.db);
    await sql`create trigger refuse_video_r before insert on videos for each row execute function refuse_video_r()`.execute(t.db);
    try {
      const res = await finish(who, { upload_id: id });
      expect(res.statusCode).toBe(500);
      expect(res.json().error).toBe('Database error: the video could not be saved. Please try again.');
      await expectNothingLeft(before);
      expect(sha256(await readFile(dataOf(id)))).toBe(sha256(clip));
    } finally {
      await sql`drop trigger refuse_video_r on videos`.execute(t.db);
      await sql`drop function refuse_video_r()`.execute(t.db);
    }
    expect((await finish(who, { upload_id: id })).statusCode).toBe(201);
  });
});

describe('what a crash left', () => {
  it('removes broken uploads (a file without its pair, an empty or torn .json) once a minute old, and keeps whole ones however young', async () => {
    const who = await signedInCreator(t, 'crashed');
    const whole = await create(who, 2 * MB);
    const broken = {
      emptyInfo: 'a'.repeat(32),
      tornInfo: 'b'.repeat(32),
      infoOnly: 'c'.repeat(32),
      bytesOnly: 'd'.repeat(32),
    };
    await writeFile(path.join(tusDir(), broken.emptyInfo), 'x');
    await writeFile(path.join(tusDir(), `${broken.emptyInfo}.json`), '');
    await writeFile(path.join(tusDir(), broken.tornInfo), 'x');
    await writeFile(path.join(tusDir(), `${broken.tornInfo}.json`), '{"id":"bbbb');
    await writeFile(path.join(tusDir(), `${broken.infoOnly}.json`), '{}');
    await writeFile(path.join(tusDir(), broken.bytesOnly), 'x');
    // Younger than a minute: a creation may be writing its second file this moment.
    expect(await t.app.resumableUploads.sweepNow()).toBe(0);
    const files = Object.values(broken).flatMap((id) => [id, `${id}.json`]).map((name) => path.join(tusDir(), name));
    const minuteAgo = new Date(Date.now() - 2 * 60_000);
    for (const file of [...files.filter((f) => existsSync(f)), dataOf(whole), `${dataOf(whole)}.json`]) await utimes(file, minuteAgo, minuteAgo);
    expect(await t.app.resumableUploads.sweepNow()).toBe(4);
    for (const file of files) expect(existsSync(file)).toBe(false);
    expect(existsSync(dataOf(whole))).toBe(true);
    expect((await tus(who, 'HEAD', `/api/uploads/${whole}`)).statusCode).toBe(200);
    expect((await tus(who, 'DELETE', `/api/uploads/${whole}`)).statusCode).toBe(204);
  });
});

// Last: it moves the app's clock forward for good.
describe('expiry', () => {
  it('removes uploads nobody wrote to for 24 hours once the app clock has moved past that, keeping the others', async () => {
    const who = await signedInCreator(t, 'abandoner');
    const stale = await create(who, 4 * MB);
    await patch(who, stale, 0, clip.subarray(0, 5000));
    const done = await uploaded(who, paddedClip(MB));
    const before = tusFiles();
    expect(before).toEqual(expect.arrayContaining([stale, `${stale}.json`, done, `${done}.json`]));
    expect(await t.app.resumableUploads.sweepNow()).toBe(0);
    expect(tusFiles()).toEqual(before);
    t.app.clock.advanceTo(new Date(t.app.clock.now().getTime() + (RESUMABLE_UPLOAD.expiryHours - 1) * 3600_000));
    expect(await t.app.resumableUploads.sweepNow()).toBe(0);
    // `done` was written to an hour ago by the app's clock (its bytes touched): kept; `stale` was not: removed.
    const touched = new Date(t.app.clock.now().getTime() - 3600_000);
    await utimes(dataOf(done), touched, touched);
    t.app.clock.advanceTo(new Date(t.app.clock.now().getTime() + 2 * 3600_000));
    expect(await t.app.resumableUploads.sweepNow()).toBe(1);
    expect(existsSync(dataOf(stale))).toBe(false);
    expect(existsSync(`${dataOf(stale)}.json`)).toBe(false);
    expect(existsSync(dataOf(done))).toBe(true);
    expect((await tus(who, 'HEAD', `/api/uploads/${stale}`)).statusCode).toBe(404);
    // Half an upload a crash left (bytes without their info) goes too once as old.
    const orphan = path.join(tusDir(), 'ffffffffffffffffffffffffffffffff');
    await writeFile(orphan, 'x');
    const old = new Date(Date.now() - 48 * 3600_000);
    await utimes(orphan, old, old);
    await utimes(dataOf(done), old, old);
    await utimes(`${dataOf(done)}.json`, old, old);
    expect(await t.app.resumableUploads.sweepNow()).toBe(2);
    expect(existsSync(orphan)).toBe(false);
    expect(existsSync(dataOf(done))).toBe(false);
    // Uploads made and written after the clock moved count from the app's clock, not their files' (system) times.
    const later = await create(who, 2 * MB);
    expect((await patch(who, later, 0, clip.subarray(0, 5000))).statusCode).toBe(204);
    expect(await t.app.resumableUploads.sweepNow()).toBe(0);
    expect((await tus(who, 'HEAD', `/api/uploads/${later}`)).headers['upload-offset']).toBe('5000');
    t.app.clock.advanceTo(new Date(t.app.clock.now().getTime() + (RESUMABLE_UPLOAD.expiryHours + 1) * 3600_000));
    expect(await t.app.resumableUploads.sweepNow()).toBe(1);
    expect((await tus(who, 'HEAD', `/api/uploads/${later}`)).statusCode).toBe(404);
  });
});
