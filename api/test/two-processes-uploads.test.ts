/**
 * Resumable uploads served by two API processes on one PostgreSQL database and one data folder,
 * as behind a load balancer that sends a client's requests to either: a finish in progress on one
 * process holds the upload against a PATCH, a DELETE and another finish on the other; one
 * creator's creations on both at once stay within the open-upload limit; and two PATCHes of one
 * upload at once on both never write together (one waits for the other, then is refused), so
 * the stored bytes are exactly the client's.
 *
 * Two processes need a PostgreSQL server (the embedded database serves one): the one
 * TEST_DATABASE_URL names, else this machine's on 127.0.0.1:5432; a scratch database is made
 * on it and dropped. One pair of processes serves every case.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESUMABLE_MESSAGES, RESUMABLE_UPLOAD } from '../../shared/schemas/studio.ts';
import { prepare } from '../bootstrap.ts';
import { createUser } from '../modules/accounts/index.ts';
import { loadConfig } from '../platform/config/config.ts';
import { createScratchDatabase, openDatabase, type Database } from '../platform/db/database.ts';
import { createSession, SESSION_COOKIE } from '../platform/sessions/sessions.ts';
import { TEST_PAYOUT_KEYS } from './harness.ts';
import { freePort } from './ports.ts';
import { serverGroup, startServers } from './server-process.ts';
import { multipart, testMedia } from './upload-helpers.ts';

const SERVER = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const MB = 1024 * 1024;
const OFFSET_STREAM = 'application/offset+octet-stream';

let scratch: { url: string; drop(): Promise<void> } | null = null;
let dataDir = '';
let check: Database | null = null;
const servers = serverGroup();
/** Process A's port, then process B's. */
const ports: number[] = [];
let site = '';
let clip: Buffer;
let thumb: Buffer;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const db = () => check!.db;
const tusDir = () => path.join(dataDir, 'resumable-uploads');

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const got = await probe();
    if (got) return got;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** Whether a lease of that key is held now (the processes' shared table). */
const leaseHeld = async (key: string) => (await db().selectFrom('leases').select('key').where('key', '=', key).where('expires_at', '>', new Date()).executeTakeFirst()) !== undefined;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

type Creator = { id: string; cookie: string };

async function creator(name: string): Promise<Creator> {
  const user = await createUser(db(), { email: `${name}@example.com`, displayName: name, role: 'creator', emailVerified: true });
  const { token } = await createSession(db(), user.id, 1, {});
  return { id: user.id, cookie: `${SESSION_COOKIE}=${token}` };
}

/**
 * One request over a socket of its own, for the site's address (as a load balancer forwards it)
 * whichever process serves it; with `hold`, the body stops after `hold.at` bytes until
 * `hold.until` settles, as a slow network would leave it.
 */
function send(port: number, who: Creator, method: string, url: string, headers: Record<string, string>, body?: Buffer, hold?: { at: number; until: Promise<void> }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method, path: url, agent: false, headers: { host: new URL(site).host, origin: site, cookie: who.cookie, 'tus-resumable': '1.0.0', ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (!body) return void req.end();
    if (!hold) return void req.end(body);
    req.write(body.subarray(0, hold.at));
    void hold.until.then(() => req.end(body.subarray(hold.at)));
  });
}

const patchHeaders = (offset: number) => ({ 'upload-offset': String(offset), 'content-type': OFFSET_STREAM });

async function createUpload(port: number, who: Creator, length: number): Promise<string> {
  const res = await send(port, who, 'POST', '/api/uploads', { 'upload-length': String(length) });
  expect(res.status, res.body).toBe(201);
  return String(res.headers.location).split('/').pop()!;
}

async function finish(port: number, who: Creator, id: string): Promise<Answer> {
  const { payload, headers } = await multipart([
    { name: 'upload_id', value: id },
    { name: 'title', value: 'Resumed upload' },
    { name: 'description', value: 'Sent in pieces' },
    { name: 'category', value: 'music' },
    { name: 'thumbnail', value: thumb, filename: 't.jpg', type: 'image/jpeg' },
  ]);
  return send(port, who, 'POST', '/api/videos/resumable', headers, payload);
}

/** The uploads stored for the creator (their .json files name the owner). */
function uploadsOf(who: Creator): string[] {
  return readdirSync(tusDir())
    .filter((n) => n.endsWith('.json'))
    .filter((n) => (JSON.parse(readFileSync(path.join(tusDir(), n), 'utf8')) as { metadata?: Record<string, string> }).metadata?.fm_owner === who.id);
}

beforeAll(async () => {
  clip = await testMedia('h264-small.mp4');
  thumb = await testMedia('thumbnail.jpg');
  scratch = await createScratchDatabase(SERVER, 'framemerch_two_uploads');
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'framemerch-two-uploads-'));
  ports.push(await freePort(), await freePort());
  site = `http://127.0.0.1:${ports[0]}`;
  const env = {
    DATABASE_URL: scratch.url,
    DATA_DIR: dataDir,
    PUBLIC_URL: site,
    SEED_DEMO: 'false',
    PAYOUT_ENCRYPTION_KEYS: TEST_PAYOUT_KEYS,
    STRIPE_SECRET_KEY: '',
    STRIPE_WEBHOOK_SECRET: '',
    PRINTFUL_API_KEY: '',
  };
  // Migrated and the catalogue loaded once, before either process starts.
  const prepared = await prepare(loadConfig({ ...process.env, ...env, PORT: String(ports[0]), WEB_DIST: 'none', LOG_LEVEL: 'silent' }));
  await prepared.database.close();
  await startServers(env, ports, servers);
  check = await openDatabase({ url: scratch.url });
}, 240_000);

afterAll(async () => {
  await servers.stop();
  await check?.close();
  await scratch?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}, 60_000);

describe('resumable uploads on two API processes', () => {
  it('a finish in progress on one process makes a PATCH, a DELETE and a finish of the upload on the other answer 409 busy', async () => {
    const who = await creator('finishing');
    const id = await createUpload(ports[0]!, who, clip.length);
    expect((await send(ports[0]!, who, 'PATCH', `/api/uploads/${id}`, patchHeaders(0), clip)).status).toBe(204);

    // The finish on A is held at its last step (recording the video) while the test holds the table.
    let letGo!: () => void;
    const gate = new Promise<void>((r) => (letGo = r));
    let tableHeld!: () => void;
    const held = new Promise<void>((r) => (tableHeld = r));
    const blocker = db()
      .transaction()
      .execute(async (trx) => {
        await sql`lock table videos in share mode`.execute(trx);
        tableHeld();
        await gate;
      });
    try {
      await held;
      const finishing = finish(ports[0]!, who, id);
      await until('the finish on A to hold the upload', () => leaseHeld(`upload:${id}:finish`));
      const busy = [
        await send(ports[1]!, who, 'PATCH', `/api/uploads/${id}`, patchHeaders(clip.length), Buffer.alloc(0)),
        await send(ports[1]!, who, 'DELETE', `/api/uploads/${id}`, {}),
        await finish(ports[1]!, who, id),
      ];
      for (const res of busy) {
        expect(res.status, res.body).toBe(409);
        expect(JSON.parse(res.body)).toEqual({ success: false, code: 'CONFLICT', error: RESUMABLE_MESSAGES.busy });
      }
      letGo();
      await blocker;
      const done = await finishing;
      expect(done.status, done.body).toBe(201);
    } finally {
      letGo();
      await blocker.catch(() => undefined);
    }
    // Finished once, on A: the upload is gone for both, and the claim with it.
    expect((await send(ports[1]!, who, 'HEAD', `/api/uploads/${id}`, {})).status).toBe(404);
    expect(await leaseHeld(`upload:${id}:finish`)).toBe(false);
    expect(await db().selectFrom('videos').select('id').where('user_id', '=', who.id).execute()).toHaveLength(1);
  }, 60_000);

  it("one creator's creations on both processes at once stay within the open-upload limit", async () => {
    const who = await creator('many');
    const max = RESUMABLE_UPLOAD.maxOpenPerCreator;
    const answers = await Promise.all(
      Array.from({ length: max + 3 }, (_, i) => send(ports[i % 2]!, who, 'POST', '/api/uploads', { 'upload-length': String(clip.length) })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(max);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(3);
    for (const res of refused) expect(JSON.parse(res.body)).toEqual({ success: false, code: 'RATE_LIMITED', error: RESUMABLE_MESSAGES.tooMany });
    expect(uploadsOf(who)).toHaveLength(max);
  }, 60_000);

  it('two PATCHes of one upload at once on both processes never write together: one waits, then is refused, and the bytes are the client’s', async () => {
    const who = await creator('twice');
    const bytes = Buffer.concat([clip, randomBytes(4 * MB)]);
    const id = await createUpload(ports[0]!, who, bytes.length);
    const url = `/api/uploads/${id}`;

    // The client's PATCH to A stalls after its first megabyte, holding the upload...
    let resume!: () => void;
    const stalled = new Promise<void>((r) => (resume = r));
    const first = send(ports[0]!, who, 'PATCH', url, patchHeaders(0), bytes, { at: MB, until: stalled });
    await until('the PATCH on A to hold the upload', () => leaseHeld(`upload:${id}:lock`));
    // ...and it sends the same PATCH to B, which waits for A's to end.
    let secondDone = false;
    const second = send(ports[1]!, who, 'PATCH', url, patchHeaders(0), bytes).finally(() => (secondDone = true));
    await sleep(1000);
    expect(secondDone).toBe(false);
    resume();
    const [a, b] = await Promise.all([first, second]);
    expect(a.status, a.body).toBe(204);
    expect(a.headers['upload-offset']).toBe(String(bytes.length));
    // B's turn came after A's write: the offset it was sent no longer matches.
    expect(b.status, b.body).toBe(409);
    expect(JSON.parse(b.body)).toEqual({ success: false, code: 'CONFLICT', error: RESUMABLE_MESSAGES.offsetConflict });

    for (const port of ports) {
      const head = await send(port, who, 'HEAD', url, {});
      expect(head.status).toBe(200);
      expect(head.headers['upload-offset']).toBe(String(bytes.length));
    }
    expect(sha256(readFileSync(path.join(tusDir(), id)))).toBe(sha256(bytes));
  }, 60_000);
});
