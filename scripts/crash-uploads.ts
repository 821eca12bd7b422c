/**
 * Crash safety of video uploads, at scale: the real server (api/server.ts in its own process) is
 * killed with SIGKILL while N uploads are in flight, restarted, and what it left is checked.
 * R rounds, one data folder and one database throughout, so each round also re-checks the rounds
 * before it.
 *
 *   npm run crash:uploads -- [--rounds 20] [--uploads 50] [--database-url postgres://...]
 *                            [--storage local|s3] [--seed n] [--keep] [--kill-ms n] [--log-level info]
 *
 * --seed replays the same bodies, kinds, pacing and kill moments (the server's timing still varies);
 * --kill-ms fixes the kill's moment; --keep keeps the data folder and the servers' logs (kept
 * anyway when a round fails).
 *
 * Each round:
 *  1. creators and sessions for the round are made in the database (the server is not running);
 *  2. server A starts and becomes healthy;
 *  3. N uploads start, staggered, each sending its body slowly at its own pace: MP4s of mixed sizes
 *     (test clips padded with an MP4 `free` box holding random bytes, so every body is unique and
 *     stays a valid, index-first MP4 the server stores byte for byte) and WebM clips; about 60 %
 *     direct (POST /api/videos, multipart) and 40 % resumable (tus: POST /api/uploads, one to
 *     three PATCHes, then POST /api/videos/resumable);
 *  4. A is killed with SIGKILL at a random moment of the upload window; an upload counts as
 *     acknowledged when its answer (201 with the video's id) had fully arrived before that;
 *  5. server B starts on the same data and database and becomes healthy (its start-up sweep runs:
 *     at once on the embedded database; on PostgreSQL A's announced files and temporary folder go
 *     once A's heartbeat is stale, and resumable uploads a crash broke once a minute old, which is
 *     waited for, up to 3 minutes). While B is up and idle: DATA_DIR/tmp holds B's own folder only, and it
 *     is empty; the local storage's .tmp is empty. Then B is stopped (SIGTERM, exit 0 expected);
 *  6. the database and storage are checked:
 *     - acknowledged lost: an acknowledged upload (of any round) whose row is missing, whose video
 *       or thumbnail is missing from storage, whose stored size differs from the bytes sent, or
 *       (this round's, and all of them again at the end) whose stored bytes' SHA-256 differs;
 *     - bad rows: a videos row whose video is missing or not of its size_bytes, whose thumbnail or
 *       poster is missing, or (rows new this round) whose bytes are not exactly one of the bodies
 *       sent, or which ffprobe cannot read;
 *     - orphan files: a stored object no videos row names (videos and thumbnails buckets), any
 *       object in the other buckets (uploads never write there, nor does anything else here);
 *     - stale announcements: pending_objects or server_instances rows left once B has stopped;
 *     - orphan temp files: anything under DATA_DIR/tmp but B's empty folder while B is up, or
 *       anything at all once B has stopped; anything in storage/.tmp; and in the resumable uploads'
 *       folder, any file that is not half of a usable upload (data without its .json or the
 *       reverse, an unreadable .json, an owner that is not one of this run's creators) and any
 *       upload whose finish was acknowledged (it must have been removed).
 *     What tus legitimately keeps is not counted as orphaned but printed ("tus kept"): an upload
 *     with its data and its .json, owned by one of the creators, whose finish was not acknowledged
 *     (interrupted mid-PATCH, complete but not finished, finished but its answer cut by the kill,
 *     or created but its Location never reached the client). Its creator can resume or finish it;
 *     otherwise the server removes it RESUMABLE_UPLOAD.expiryHours after its last write.
 *
 * A round passes when its lost, bad rows, orphan files, stale announcements and orphan temp
 * counts are all 0 and both servers started (and B stopped cleanly). The last line is
 * "N passed, N failed"; the exit code is 1 when any round failed.
 */
import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import S3rver from 's3rver';
import { STORAGE_BUCKETS, type StorageBucket } from '../shared/constants.ts';
import { createUser } from '../api/modules/accounts/index.ts';
import { createScratchDatabase, openDatabase, type Database, type DatabaseTarget } from '../api/platform/db/database.ts';
import { migrate } from '../api/platform/db/migrate.ts';
import { findMediaTools, probe } from '../api/platform/media/ffmpeg.ts';
import { createSession, SESSION_COOKIE } from '../api/platform/sessions/sessions.ts';
import { S3Storage, type S3Options } from '../api/integrations/s3/s3-storage.ts';
import { freePort } from '../api/test/ports.ts';
import { seededRandom } from '../api/test/seeded-random.ts';
import { exited, startServer, waitForHealth } from '../api/test/server-process.ts';
import { makeTestMedia, TEST_MEDIA_DIR } from './make-test-media.ts';

const MB = 1024 * 1024;
/** Generous: the machine may be busy with other work. */
const HEALTH_MS = 240_000;
const REQUEST_TIMEOUT_MS = 300_000;
const SWEEP_WAIT_MS = 180_000;
const STOP_MS = 60_000;
/** Uploads start within this long of each other... */
const START_SPREAD_MS = 3000;
/** ...each sends its body over 0.2 s to this long... */
const MAX_SEND_MS = 6000;
/**
 * ...and the kill comes at a random moment from KILL_MIN_MS to the end of the upload window after
 * the first start. The window starts at 2 s per upload (at least 15 s): on a busy 2-core machine
 * 50 uploads take one to two minutes to arrive, be checked and stored. It shrinks to the kill's
 * moment whenever a kill found no upload left in flight, so later kills land while uploads run.
 */
const KILL_MIN_MS = 300;
const TUS_SHARE = 0.4;
/** A creator may hold 5 open resumable uploads: each round's tus uploads are spread over fresh creators. */
const TUS_PER_CREATOR = 5;

// --- options ------------------------------------------------------------------------------------

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '20' },
    uploads: { type: 'string', default: '50' },
    'database-url': { type: 'string' },
    storage: { type: 'string', default: 'local' },
    seed: { type: 'string' },
    keep: { type: 'boolean', default: false },
    /** A fixed kill moment (ms after the first upload starts), to replay a finding. */
    'kill-ms': { type: 'string' },
    /** The servers' LOG_LEVEL (their logs are kept with --keep or when a round fails). */
    'log-level': { type: 'string', default: 'warn' },
  },
  strict: true,
});

function positive(name: string, raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`--${name} must be a whole number of at least 1 (got "${raw}")`);
    process.exit(2);
  }
  return n;
}

const ROUNDS = positive('rounds', args.rounds);
const UPLOADS = positive('uploads', args.uploads);
const SEED = args.seed !== undefined ? positive('seed', args.seed) : (Date.now() % 1_000_000_000) + 1;
if (args.storage !== 'local' && args.storage !== 's3') {
  console.error(`--storage must be local or s3 (got "${args.storage}")`);
  process.exit(2);
}
const STORAGE_KIND = args.storage;
const rand = seededRandom(SEED);
let killWindowMs = Math.max(15_000, UPLOADS * 2000);
const between = (lo: number, hi: number) => lo + rand() * (hi - lo);

// --- small helpers ------------------------------------------------------------------------------

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function hashStream(stream: Readable): Promise<{ sha: string; bytes: number }> {
  const h = createHash('sha256');
  let bytes = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    h.update(chunk);
    bytes += chunk.length;
  }
  return { sha: h.digest('hex'), bytes };
}

async function entries(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => [] as string[]);
}

/** Every file (and empty folder) under dir, as paths relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    if (e.isDirectory()) {
      const inner = await filesUnder(path.join(dir, e.name));
      out.push(...(inner.length ? inner.map((f) => `${e.name}/${f}`) : [`${e.name}/`]));
    } else out.push(e.name);
  }
  return out;
}

interface Part {
  name: string;
  value: string | Buffer;
  filename?: string;
  type?: string;
}

/** A multipart/form-data body of the parts. */
function multipart(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----crash${randomBytes(12).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`;
    const type = p.filename !== undefined ? `\r\nContent-Type: ${p.type ?? 'application/octet-stream'}` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`), Buffer.from(p.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function testMedia(name: string): Promise<Buffer> {
  await makeTestMedia();
  return readFile(path.join(TEST_MEDIA_DIR, name));
}

// --- the bodies ---------------------------------------------------------------------------------

interface Clips {
  small: Buffer;
  hd: Buffer;
  webm: Buffer;
  thumb: Buffer;
}

/** The MP4 followed by a top-level `free` box up to `bytes`, starting with random bytes: a unique, still valid, index-first MP4. */
function padded(mp4: Buffer, bytes: number): Buffer {
  const pad = Math.max(64, bytes - mp4.length);
  const box = Buffer.alloc(pad);
  box.writeUInt32BE(pad, 0);
  box.write('free', 4, 'latin1');
  randomBytes(Math.min(pad - 8, 4096)).copy(box, 8);
  return Buffer.concat([mp4, box]);
}

function pickBody(clips: Clips): { body: Buffer; container: 'mp4' | 'webm' } {
  const r = rand();
  if (r < 0.1) return { body: clips.webm, container: 'webm' };
  if (r < 0.35) return { body: padded(clips.small, Math.round(between(0.2, 1) * MB)), container: 'mp4' };
  if (r < 0.75) return { body: padded(clips.hd, Math.round(between(2, 4) * MB)), container: 'mp4' };
  return { body: padded(clips.hd, Math.round(between(4, 12) * MB)), container: 'mp4' };
}

// --- HTTP with a paced body -----------------------------------------------------------------------

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/**
 * One request on its own connection, its body written in 64 KiB slices spread over `sendMs`.
 * Resolves once the whole answer has arrived; rejects when the connection fails first.
 */
function send(
  port: number,
  method: string,
  urlPath: string,
  headers: Record<string, string>,
  body: Buffer | null,
  sendMs: number,
  onBodySent?: () => void,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const req = http.request({
      host: '127.0.0.1',
      port,
      method,
      path: urlPath,
      agent: false,
      headers: { ...headers, 'content-length': String(body?.length ?? 0) },
    });
    const timer = setTimeout(() => req.destroy(new Error('client timeout')), REQUEST_TIMEOUT_MS);
    const fail = (err: Error) => {
      clearTimeout(timer);
      if (!settled) {
        settled = true;
        reject(err);
      }
    };
    req.on('error', fail);
    if (onBodySent) req.once('finish', onBodySent);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', fail);
      res.on('close', () => {
        if (!res.complete) return fail(new Error('answer cut'));
        clearTimeout(timer);
        if (settled) return;
        settled = true;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') });
        req.destroy();
      });
    });
    void (async () => {
      if (body && body.length > 0) {
        const slice = 64 * 1024;
        const slices = Math.ceil(body.length / slice);
        const pause = sendMs / slices;
        for (let i = 0; i < slices; i++) {
          if (settled || req.destroyed) return;
          const ok = req.write(body.subarray(i * slice, (i + 1) * slice));
          if (!ok) {
            await new Promise<void>((r) => {
              const go = () => {
                req.off('drain', go);
                req.off('close', go);
                r();
              };
              req.on('drain', go);
              req.on('close', go);
            });
          }
          if (pause >= 1) await sleep(pause);
        }
      }
      if (!settled && !req.destroyed) req.end();
    })().catch(fail);
  });
}

// --- the uploads ----------------------------------------------------------------------------------

/** processing: a direct upload's body has been sent, its answer not yet come. */
type Stage = 'waiting' | 'creating' | 'sending' | 'processing' | 'finishing' | 'acknowledged' | 'refused' | 'cut';

interface Upload {
  round: number;
  index: number;
  kind: 'direct' | 'tus';
  container: 'mp4' | 'webm';
  bytes: number;
  sha: string;
  token: string;
  userId: string;
  stage: Stage;
  /** Where it was when the connection failed (cut) or the answer came. */
  lastStage: Stage;
  status?: number;
  message?: string;
  videoId?: string;
  /** tus: the upload's id once its creation was answered, and the bytes confirmed. */
  tusId?: string;
  tusConfirmed?: number;
  finishedAt?: number;
}

function headersFor(u: Upload, port: number): Record<string, string> {
  return { cookie: `${SESSION_COOKIE}=${u.token}`, origin: `http://127.0.0.1:${port}` };
}

function formParts(u: Upload, thumb: Buffer): Part[] {
  return [
    { name: 'title', value: `Crash r${u.round} #${u.index}` },
    { name: 'description', value: `Round ${u.round}, upload ${u.index}, ${u.bytes} bytes` },
    { name: 'category', value: 'music' },
    { name: 'thumbnail', value: thumb, filename: 'thumb.jpg', type: 'image/jpeg' },
  ];
}

function acknowledged(u: Upload, reply: Reply): boolean {
  u.status = reply.status;
  if (reply.status === 201) {
    try {
      const json = JSON.parse(reply.text) as { success?: boolean; video?: { id?: unknown } };
      if (json.success && typeof json.video?.id === 'string') {
        u.videoId = json.video.id;
        u.stage = 'acknowledged';
        u.finishedAt = Date.now();
        return true;
      }
    } catch {
      // a 201 without its body is not an acknowledgement
    }
  }
  u.lastStage = u.stage;
  u.stage = 'refused';
  u.message = reply.text.slice(0, 200);
  return false;
}

async function runUpload(
  u: Upload,
  body: Buffer,
  clips: Clips,
  port: number,
  pace: { startDelay: number; sendMs: number; pieces: number },
  server: { killed: boolean },
): Promise<void> {
  const { startDelay, sendMs, pieces } = pace;
  await sleep(startDelay);
  // Its turn came after the kill: it never started.
  if (server.killed) return;
  const headers = headersFor(u, port);
  try {
    if (u.kind === 'direct') {
      u.stage = 'sending';
      const parts = formParts(u, clips.thumb);
      parts.splice(3, 0, { name: 'video', value: body, filename: `clip.${u.container}`, type: `video/${u.container}` });
      const form = multipart(parts);
      const sent = () => {
        if (u.stage === 'sending') u.stage = 'processing';
      };
      acknowledged(u, await send(port, 'POST', '/api/videos', { ...headers, ...form.headers }, form.payload, sendMs, sent));
      return;
    }
    const tus = { ...headers, 'tus-resumable': '1.0.0' };
    u.stage = 'creating';
    const created = await send(port, 'POST', '/api/uploads', { ...tus, 'upload-length': String(body.length), 'upload-metadata': `filename ${Buffer.from(`clip.${u.container}`).toString('base64')}` }, null, 0);
    const location = created.headers.location;
    if (created.status !== 201 || typeof location !== 'string') {
      acknowledged(u, created);
      return;
    }
    u.tusId = location.slice(location.lastIndexOf('/') + 1);
    u.tusConfirmed = 0;
    u.stage = 'sending';
    const pieceBytes = Math.ceil(body.length / pieces);
    for (let offset = 0; offset < body.length; ) {
      const chunk = body.subarray(offset, offset + pieceBytes);
      const patched = await send(
        port,
        'PATCH',
        `/api/uploads/${u.tusId}`,
        { ...tus, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
        chunk,
        (sendMs * chunk.length) / body.length,
      );
      if (patched.status !== 204) {
        acknowledged(u, patched);
        return;
      }
      offset = Number(patched.headers['upload-offset']);
      if (!Number.isInteger(offset)) throw new Error(`PATCH answered Upload-Offset ${patched.headers['upload-offset']}`);
      u.tusConfirmed = offset;
    }
    u.stage = 'finishing';
    const form = multipart([{ name: 'upload_id', value: u.tusId }, ...formParts(u, clips.thumb)]);
    acknowledged(u, await send(port, 'POST', '/api/videos/resumable', { ...headers, ...form.headers }, form.payload, 50));
  } catch (err) {
    u.lastStage = u.stage;
    u.stage = 'cut';
    u.message = (err as Error).message;
  }
}

// --- storage as the script sees it ----------------------------------------------------------------

interface StorageView {
  list(bucket: StorageBucket): Promise<string[]>;
  size(bucket: StorageBucket, key: string): Promise<number | null>;
  hash(bucket: StorageBucket, key: string): Promise<{ sha: string; bytes: number }>;
  /** A local file with the object's bytes for ffprobe, and how to let it go. */
  probeFile(bucket: StorageBucket, key: string): Promise<{ file: string; done(): Promise<void> }>;
}

function localView(root: string): StorageView {
  const file = (bucket: StorageBucket, key: string) => path.join(root, bucket, key);
  return {
    async list(bucket) {
      const out: string[] = [];
      for (const dir of await readdir(path.join(root, bucket), { withFileTypes: true }).catch(() => [])) {
        if (!dir.isDirectory()) {
          out.push(dir.name);
          continue;
        }
        for (const f of await entries(path.join(root, bucket, dir.name))) out.push(`${dir.name}/${f}`);
      }
      return out;
    },
    async size(bucket, key) {
      const s = await stat(file(bucket, key)).catch(() => null);
      return s?.isFile() ? s.size : null;
    },
    hash: (bucket, key) => hashStream(createReadStream(file(bucket, key))),
    probeFile: async (bucket, key) => ({ file: file(bucket, key), done: async () => {} }),
  };
}

function s3View(s3: S3Storage, scratch: string): StorageView {
  return {
    async list(bucket) {
      const out: string[] = [];
      for await (const k of s3.list(bucket)) out.push(k);
      return out;
    },
    async size(bucket, key) {
      return (await s3.stat(bucket, key))?.size ?? null;
    },
    hash: async (bucket, key) => hashStream(await s3.read(bucket, key)),
    async probeFile(bucket, key) {
      const file = path.join(scratch, `probe-${randomBytes(6).toString('hex')}${path.extname(key)}`);
      const out = createWriteStream(file);
      for await (const chunk of (await s3.read(bucket, key)) as AsyncIterable<Buffer>) {
        if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
      }
      await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
      return { file, done: () => rm(file, { force: true }) };
    },
  };
}

// --- a round's checks -----------------------------------------------------------------------------

interface Counts {
  started: number;
  direct: number;
  tus: number;
  acknowledged: number;
  refused: number;
  cut: number;
  notStarted: number;
  savedUnacknowledged: number;
  lost: number;
  badRows: number;
  orphanFiles: number;
  staleAnnouncements: number;
  orphanTemp: number;
  tusKept: number;
  serverProblems: number;
}

const zero = (): Counts => ({
  started: 0,
  direct: 0,
  tus: 0,
  acknowledged: 0,
  refused: 0,
  cut: 0,
  notStarted: 0,
  savedUnacknowledged: 0,
  lost: 0,
  badRows: 0,
  orphanFiles: 0,
  staleAnnouncements: 0,
  orphanTemp: 0,
  tusKept: 0,
  serverProblems: 0,
});

const failing = (c: Counts) => c.lost + c.badRows + c.orphanFiles + c.staleAnnouncements + c.orphanTemp + c.serverProblems;

interface RunState {
  dataDir: string;
  target: DatabaseTarget;
  dbUrl: string | null;
  storage: StorageView;
  serverEnv: Record<string, string>;
  logDir: string;
  ffprobe: string;
  /** Every body sent, by SHA-256 (a WebM is sent as is, so several uploads may share one). */
  bySha: Map<string, Upload[]>;
  /** Every upload acknowledged so far. */
  acked: Upload[];
  /** Rows already checked in full (bytes and ffprobe) in an earlier round. */
  verifiedRows: Set<string>;
  /** Every tus upload id a creation answered, with its upload. */
  tusIds: Map<string, Upload>;
  /** The user ids of every creator made. */
  creators: Set<string>;
  /** Each problem once, however many rounds it is seen in (a leftover stays until removed): for the summary. */
  distinct: Record<'lost' | 'badRows' | 'orphanFiles' | 'orphanTemp' | 'staleAnnouncements', Set<string>>;
}

/** Problems found in a round, printed under its line (the first few of each kind). */
class Findings {
  readonly lines: string[] = [];
  add(kind: string, detail: string) {
    if (this.lines.filter((l) => l.startsWith(`    ${kind}:`)).length < 5) this.lines.push(`    ${kind}: ${detail}`);
  }
}

function serverStart(state: RunState, port: number, logName: string): ChildProcess {
  const child = startServer({ ...state.serverEnv, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` }, { output: 'pipe' });
  const log = createWriteStream(path.join(state.logDir, logName));
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  return child;
}

async function withDb<T>(state: RunState, fn: (db: Database) => Promise<T>): Promise<T> {
  const db = await openDatabase(state.target);
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

async function makeCreators(state: RunState, round: number, count: number): Promise<Array<{ userId: string; token: string }>> {
  return withDb(state, async ({ db }) => {
    const out: Array<{ userId: string; token: string }> = [];
    for (let i = 0; i < count; i++) {
      const user = await createUser(db, { email: `crash-r${round}-c${i}@example.com`, displayName: `Crash ${round}.${i}`, role: 'creator', emailVerified: true });
      const { token } = await createSession(db, user.id, 2, {});
      state.creators.add(user.id);
      out.push({ userId: user.id, token });
    }
    return out;
  });
}

/** While B is up and idle: DATA_DIR/tmp holds B's folder only, empty; storage/.tmp is empty. */
async function checkTempWhileUp(state: RunState, liveId: string | null, c: Counts, f: Findings): Promise<void> {
  const tmpRoot = path.join(state.dataDir, 'tmp');
  const dirs = await entries(tmpRoot);
  let own = liveId && dirs.includes(liveId) ? liveId : null;
  // On the embedded database the live id is not readable while B holds it: its folder is the only one expected.
  if (!liveId && dirs.length === 1) own = dirs[0]!;
  for (const d of dirs) {
    const inside = await filesUnder(path.join(tmpRoot, d));
    if (d === own) {
      c.orphanTemp += inside.length;
      for (const x of inside) state.distinct.orphanTemp.add(`tmp/${d}/${x}`);
      for (const x of inside) f.add('orphan temp', `tmp/${d}/${x} in the live server's folder while idle`);
    } else {
      c.orphanTemp += 1 + inside.length;
      state.distinct.orphanTemp.add(`tmp/${d}/`);
      for (const x of inside) state.distinct.orphanTemp.add(`tmp/${d}/${x}`);
      f.add('orphan temp', `tmp/${d}/ (${inside.length} files) of a process that is not running`);
    }
  }
  if (!own) {
    c.orphanTemp++;
    state.distinct.orphanTemp.add(`no folder of a live server among tmp/{${dirs.join(',')}}`);
    f.add('orphan temp', `no folder of the live server under tmp (found ${dirs.length})`);
  }
  if (STORAGE_KIND === 'local') {
    const left = await filesUnder(path.join(state.dataDir, 'storage', '.tmp'));
    c.orphanTemp += left.length;
    for (const x of left) state.distinct.orphanTemp.add(`storage/.tmp/${x}`);
    for (const x of left) f.add('orphan temp', `storage/.tmp/${x}`);
  }
}

/** Ids in the resumable uploads' folder that are broken: one file without the other, or a .json that is not JSON. */
async function brokenTus(dir: string): Promise<string[]> {
  const names = await entries(dir);
  const out: string[] = [];
  for (const id of new Set(names.map((n) => (n.endsWith('.json') ? n.slice(0, -5) : n)))) {
    if (!names.includes(id) || !names.includes(`${id}.json`)) out.push(id);
    else {
      try {
        JSON.parse(await readFile(path.join(dir, `${id}.json`), 'utf8'));
      } catch {
        out.push(id);
      }
    }
  }
  return out;
}

/**
 * PostgreSQL: B sweeps what A left once A's heartbeat is stale (announced files, A's temporary
 * folder), and resumable uploads a crash broke once a minute old; waits until it has. Answers B's id.
 */
async function waitForSweep(state: RunState, tmpRoot: string): Promise<string | null> {
  return withDb(state, async ({ db }) => {
    const until = Date.now() + SWEEP_WAIT_MS;
    let live: string | null = null;
    while (Date.now() < until) {
      const ids = (await db.selectFrom('server_instances').select('id').execute()).map((r) => r.id);
      live = ids.length === 1 ? ids[0]! : null;
      if (live) {
        const pendingOfOthers = await db.selectFrom('pending_objects').select('key').where('instance_id', '!=', live).execute();
        const dirs = await entries(tmpRoot);
        const broken = await brokenTus(path.join(state.dataDir, 'resumable-uploads'));
        if (pendingOfOthers.length === 0 && dirs.length === 1 && dirs[0] === live && broken.length === 0) return live;
      }
      await sleep(2000);
    }
    // Still not swept: the checks that follow count what is left.
    return live;
  });
}

async function checkAfterStop(state: RunState, round: number, uploads: Upload[], c: Counts, f: Findings): Promise<void> {
  // Nothing of any process is left under tmp once B has stopped.
  for (const x of await filesUnder(path.join(state.dataDir, 'tmp'))) {
    c.orphanTemp++;
    state.distinct.orphanTemp.add(`tmp/${x}`);
    f.add('orphan temp', `tmp/${x} after the servers stopped`);
  }

  const { rows, pending, instances } = await withDb(state, async ({ db }) => ({
    rows: await db.selectFrom('videos').select(['id', 'user_id', 'video_key', 'thumbnail_key', 'poster_key', 'size_bytes']).execute(),
    pending: await db.selectFrom('pending_objects').selectAll().execute(),
    instances: await db.selectFrom('server_instances').selectAll().execute(),
  }));
  c.staleAnnouncements += pending.length + instances.length;
  for (const p of pending) state.distinct.staleAnnouncements.add(`pending ${p.bucket}/${p.key}`);
  for (const i of instances) state.distinct.staleAnnouncements.add(`instance ${i.id}`);
  for (const p of pending) f.add('stale announcement', `pending_objects ${p.bucket}/${p.key} of instance ${p.instance_id}`);
  for (const i of instances) f.add('stale announcement', `server_instances ${i.id}`);

  const storage = state.storage;
  const byId = new Map(rows.map((r) => [r.id, r]));
  const stored = {
    videos: new Set(await storage.list('videos')),
    thumbnails: new Set(await storage.list('thumbnails')),
  };

  // Every acknowledged upload (this round's and every earlier one's) is there, whole.
  for (const u of state.acked) {
    const row = byId.get(u.videoId!);
    const tag = `r${u.round} #${u.index} (${u.kind}, ${u.bytes} bytes, video ${u.videoId})`;
    if (!row) {
      c.lost++;
      state.distinct.lost.add(u.videoId!);
      f.add('LOST', `${tag}: acknowledged, but no row`);
      continue;
    }
    const size = await storage.size('videos', row.video_key);
    if (size === null || size !== u.bytes || row.size_bytes !== u.bytes) {
      c.lost++;
      state.distinct.lost.add(u.videoId!);
      f.add('LOST', `${tag}: stored ${size ?? 'nothing'}, row says ${row.size_bytes}`);
      continue;
    }
    if (!row.thumbnail_key || (await storage.size('thumbnails', row.thumbnail_key)) === null) {
      c.lost++;
      state.distinct.lost.add(u.videoId!);
      f.add('LOST', `${tag}: its thumbnail ${row.thumbnail_key} is missing`);
      continue;
    }
    if (u.round === round) {
      const { sha } = await storage.hash('videos', row.video_key);
      if (sha !== u.sha) {
        c.lost++;
        state.distinct.lost.add(u.videoId!);
        f.add('LOST', `${tag}: stored bytes differ from those sent`);
      }
    }
  }

  // Every row points to whole files.
  const ackedIds = new Set(state.acked.map((u) => u.videoId));
  const thisRound = new Set(uploads);
  for (const row of rows) {
    const size = stored.videos.has(row.video_key) ? await storage.size('videos', row.video_key) : null;
    let bad: string | null = null;
    if (size === null) bad = `video ${row.video_key} missing`;
    else if (size !== row.size_bytes) bad = `video ${row.video_key} is ${size} bytes, the row says ${row.size_bytes}`;
    else if (!row.thumbnail_key || !stored.thumbnails.has(row.thumbnail_key)) bad = `thumbnail ${row.thumbnail_key} missing`;
    else if (row.poster_key && !stored.thumbnails.has(row.poster_key)) bad = `poster ${row.poster_key} missing`;
    if (!bad && !state.verifiedRows.has(row.id)) {
      const { sha, bytes } = await storage.hash('videos', row.video_key);
      const senders = state.bySha.get(sha) ?? [];
      if (senders.length === 0) bad = `video ${row.video_key} (${bytes} bytes) is none of the bodies sent`;
      else if (!senders.some((s) => s.userId === row.user_id)) bad = `video ${row.video_key} holds a body another creator sent`;
      else {
        const { file, done } = await storage.probeFile('videos', row.video_key);
        try {
          const info = await probe(state.ffprobe, file);
          if (!info.durationMs || !info.videoCodec) bad = `video ${row.video_key} has no duration or video stream for ffprobe`;
        } catch (err) {
          bad = `ffprobe cannot read ${row.video_key}: ${(err as Error).message.slice(0, 100)}`;
        } finally {
          await done();
        }
      }
      if (!bad && !ackedIds.has(row.id) && senders.some((s) => thisRound.has(s) && s.stage !== 'acknowledged')) c.savedUnacknowledged++;
    }
    if (bad) {
      c.badRows++;
      state.distinct.badRows.add(row.id);
      f.add('bad row', `${row.id}: ${bad}`);
    } else state.verifiedRows.add(row.id);
  }

  // No stored object without its row.
  const named = {
    videos: new Set(rows.map((r) => r.video_key)),
    thumbnails: new Set(rows.flatMap((r) => [r.thumbnail_key, r.poster_key].filter((k): k is string => !!k))),
  };
  for (const bucket of ['videos', 'thumbnails'] as const) {
    for (const key of stored[bucket]) {
      if (named[bucket].has(key)) continue;
      c.orphanFiles++;
      state.distinct.orphanFiles.add(`${bucket}/${key}`);
      f.add('orphan file', `${bucket}/${key} (${await storage.size(bucket, key)} bytes)`);
    }
  }
  for (const bucket of STORAGE_BUCKETS.filter((b) => b !== 'videos' && b !== 'thumbnails')) {
    for (const key of await storage.list(bucket)) {
      c.orphanFiles++;
      state.distinct.orphanFiles.add(`${bucket}/${key}`);
      f.add('orphan file', `${bucket}/${key}`);
    }
  }

  // The resumable uploads' folder: usable uploads of unacknowledged finishes are kept; nothing else.
  const tusDir = path.join(state.dataDir, 'resumable-uploads');
  const names = await entries(tusDir);
  const ids = new Set(names.map((n) => (n.endsWith('.json') ? n.slice(0, -5) : n)));
  for (const id of ids) {
    const hasData = names.includes(id);
    const hasInfo = names.includes(`${id}.json`);
    let problem: string | null = null;
    if (!hasData || !hasInfo) problem = hasData ? 'its bytes without their .json' : 'its .json without its bytes';
    else {
      try {
        const info = JSON.parse(await readFile(path.join(tusDir, `${id}.json`), 'utf8')) as { size?: number; metadata?: Record<string, string> };
        const owner = info.metadata?.fm_owner;
        const upload = state.tusIds.get(id);
        if (!owner || !state.creators.has(owner)) problem = `owner ${owner ?? 'missing'} is not one of the creators`;
        else if (upload?.stage === 'acknowledged') problem = 'its finish was acknowledged, yet it is still here';
        else if (upload && upload.userId !== owner) problem = 'its owner is not the creator that made it';
      } catch {
        problem = 'its .json cannot be read';
      }
    }
    if (problem) {
      c.orphanTemp += Number(hasData) + Number(hasInfo);
      if (hasData) state.distinct.orphanTemp.add(`resumable-uploads/${id}`);
      if (hasInfo) state.distinct.orphanTemp.add(`resumable-uploads/${id}.json`);
      f.add('orphan temp', `resumable-uploads/${id}: ${problem}`);
    } else c.tusKept++;
  }
}

async function round(state: RunState, r: number, clips: Clips): Promise<{ counts: Counts; findings: Findings; killMs: number; detail: string }> {
  const c = zero();
  const times = { a: 0, b: 0, sweep: 0 };
  const f = new Findings();
  const tusCreators = Math.max(1, Math.ceil((UPLOADS * TUS_SHARE * 1.5) / TUS_PER_CREATOR));
  const creators = await makeCreators(state, r, tusCreators + 1);
  const tmpRoot = path.join(state.dataDir, 'tmp');

  // The round's uploads: bodies, kinds, creators, pacing.
  let tusSeen = 0;
  const plan = Array.from({ length: UPLOADS }, (_, index) => {
    const { body, container } = pickBody(clips);
    const kind: Upload['kind'] = rand() < TUS_SHARE ? 'tus' : 'direct';
    const creator = kind === 'tus' ? creators[1 + (Math.floor(tusSeen++ / TUS_PER_CREATOR) % tusCreators)]! : creators[0]!;
    const upload: Upload = { round: r, index, kind, container, bytes: body.length, sha: sha256(body), token: creator.token, userId: creator.userId, stage: 'waiting', lastStage: 'waiting' };
    const list = state.bySha.get(upload.sha) ?? [];
    list.push(upload);
    state.bySha.set(upload.sha, list);
    // A resumable upload's bytes go in one to three PATCHes.
    return { upload, body, pace: { startDelay: rand() * START_SPREAD_MS, sendMs: between(200, MAX_SEND_MS), pieces: 1 + Math.floor(rand() * 3) } };
  });
  const drawn = between(KILL_MIN_MS, killWindowMs);
  const killMs = args['kill-ms'] !== undefined ? Number(args['kill-ms']) : drawn;

  const portA = await freePort();
  const startedA = Date.now();
  const a = serverStart(state, portA, `round-${r}-a.log`);
  try {
    await waitForHealth(portA, a, HEALTH_MS);
    times.a = Date.now() - startedA;
  } catch (err) {
    a.kill('SIGKILL');
    await exited(a);
    throw new Error(`server A did not start: ${(err as Error).message}`);
  }

  const t0 = Date.now();
  const server = { killed: false };
  const running = plan.map((p) => runUpload(p.upload, p.body, clips, portA, p.pace, server));
  await sleep(killMs);
  a.kill('SIGKILL');
  server.killed = true;
  const killedAt = Date.now();
  await exited(a);
  await Promise.all(running);

  const cutAt = new Map<string, number>();
  for (const { upload: u } of plan) {
    c.started++;
    if (u.kind === 'direct') c.direct++;
    else c.tus++;
    if (u.stage === 'acknowledged') {
      // Every 201 with an id the client received counts, even one read just after kill() was
      // called: the server sent it before it died, so the creator was told the video is saved.
      c.acknowledged++;
      state.acked.push(u);
    } else if (u.stage === 'refused') {
      c.refused++;
      f.add('refused (not a crash failure)', `#${u.index} ${u.kind} at ${u.lastStage}: ${u.status} ${u.message}`);
    } else if (u.stage === 'waiting') c.notStarted++;
    else {
      c.cut++;
      const at = `${u.kind} ${u.lastStage}`;
      cutAt.set(at, (cutAt.get(at) ?? 0) + 1);
    }
    if (u.tusId) state.tusIds.set(u.tusId, u);
  }

  if (c.cut === 0 && c.notStarted === 0) killWindowMs = Math.max(KILL_MIN_MS + 1000, Math.min(killWindowMs, killedAt - t0));

  const portB = await freePort();
  const startedB = Date.now();
  const b = serverStart(state, portB, `round-${r}-b.log`);
  try {
    await waitForHealth(portB, b, HEALTH_MS);
    times.b = Date.now() - startedB;
  } catch (err) {
    b.kill('SIGKILL');
    await exited(b);
    throw new Error(`server B (the restart) did not start: ${(err as Error).message}`);
  }
  try {
    const sweepFrom = Date.now();
    const liveId = state.dbUrl ? await waitForSweep(state, tmpRoot) : null;
    times.sweep = Date.now() - sweepFrom;
    await checkTempWhileUp(state, liveId, c, f);
  } finally {
    b.kill('SIGTERM');
    const timer = setTimeout(() => b.kill('SIGKILL'), STOP_MS);
    const code = await exited(b);
    clearTimeout(timer);
    if (code !== 0) {
      c.serverProblems++;
      f.add('server', `B exited with ${code} on SIGTERM (see ${path.join(state.logDir, `round-${r}-b.log`)})`);
    }
  }
  await checkAfterStop(state, r, plan.map((p) => p.upload), c, f);
  const cut = [...cutAt].sort().map(([k, n]) => `${n} ${k}`).join(', ');
  const timing = `A up in ${(times.a / 1000).toFixed(0)} s, B in ${(times.b / 1000).toFixed(0)} s${state.dbUrl ? `, sweep after ${(times.sweep / 1000).toFixed(0)} s` : ''}`;
  return { counts: c, findings: f, killMs: killedAt - t0, detail: `cut while: ${cut || 'none'}; ${timing}` };
}

// --- main -----------------------------------------------------------------------------------------

async function main() {
  const tools = await findMediaTools({ ffmpegPath: process.env.FFMPEG_PATH ?? null, ffprobePath: process.env.FFPROBE_PATH ?? null });
  const clips: Clips = {
    small: await testMedia('h264-small.mp4'),
    hd: await testMedia('h264-720p.mp4'),
    webm: await testMedia('vp9-720p.webm'),
    thumb: await testMedia('thumbnail.jpg'),
  };

  const work = await mkdtemp(path.join(os.tmpdir(), 'framemerch-crash-uploads-'));
  const dataDir = path.join(work, 'data');
  const logDir = path.join(work, 'logs');
  await mkdir(dataDir, { recursive: true });
  await mkdir(logDir, { recursive: true });

  const cleanups: Array<() => Promise<void>> = [];
  let scratchUrl: string | null = null;
  if (args['database-url']) {
    const scratch = await createScratchDatabase(args['database-url'], 'framemerch_crash');
    scratchUrl = scratch.url;
    cleanups.push(() => scratch.drop());
  }

  const serverEnv: Record<string, string> = {
    DATA_DIR: dataDir,
    SEED_DEMO: 'false',
    DATABASE_URL: scratchUrl ?? '',
    LOG_LEVEL: args['log-level'],
    S3_BUCKET: '',
  };
  let storage: StorageView = localView(path.join(dataDir, 'storage'));
  if (STORAGE_KIND === 's3') {
    const s3dir = path.join(work, 's3');
    await mkdir(s3dir);
    const s3server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3dir, configureBuckets: [{ name: 'framemerch', configs: [] }] });
    const { port } = await s3server.run();
    cleanups.push(() => s3server.close());
    const opts: S3Options = { endpoint: `http://127.0.0.1:${port}`, bucket: 'framemerch', region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
    Object.assign(serverEnv, { S3_ENDPOINT: opts.endpoint, S3_BUCKET: opts.bucket, S3_REGION: opts.region, S3_ACCESS_KEY_ID: opts.accessKeyId, S3_SECRET_ACCESS_KEY: opts.secretAccessKey });
    storage = s3View(new S3Storage(opts), work);
  }

  const target: DatabaseTarget = scratchUrl ? { url: scratchUrl } : { dataDir: path.join(dataDir, 'pglite') };
  const state: RunState = {
    dataDir,
    target,
    dbUrl: scratchUrl,
    storage,
    serverEnv,
    logDir,
    ffprobe: tools.ffprobe,
    bySha: new Map(),
    acked: [],
    verifiedRows: new Set(),
    tusIds: new Map(),
    creators: new Set(),
    distinct: { lost: new Set(), badRows: new Set(), orphanFiles: new Set(), orphanTemp: new Set(), staleAnnouncements: new Set() },
  };
  await withDb(state, ({ db }) => migrate(db));

  console.log(
    `crash:uploads: ${ROUNDS} rounds of ${UPLOADS} uploads, SIGKILL at a random moment; database ${scratchUrl ? 'PostgreSQL (scratch database)' : 'PGlite'}, storage ${STORAGE_KIND}; seed ${SEED}`,
  );
  console.log(`  data ${dataDir}, server logs ${logDir}`);

  const total = zero();
  let passed = 0;
  let failed = 0;
  let lastTusKept = 0;
  try {
    for (let r = 1; r <= ROUNDS; r++) {
      const t0 = Date.now();
      let line: string;
      let findings: string[] = [];
      try {
        const res = await round(state, r, clips);
        const c = res.counts;
        lastTusKept = c.tusKept;
        for (const k of Object.keys(total) as Array<keyof Counts>) total[k] += c[k];
        const ok = failing(c) === 0;
        if (ok) passed++;
        else failed++;
        line =
          `round ${r}/${ROUNDS}: kill at ${(res.killMs / 1000).toFixed(1)} s; ${c.started} started (${c.direct} direct, ${c.tus} tus), ${c.acknowledged} acknowledged, ` +
          `${c.cut} cut, ${c.notStarted} not started, ${c.refused} refused, ${c.savedUnacknowledged} saved unacknowledged | ` +
          `lost ${c.lost}, bad rows ${c.badRows}, orphan files ${c.orphanFiles}, orphan temp ${c.orphanTemp}, stale announcements ${c.staleAnnouncements}` +
          `${c.serverProblems ? `, server problems ${c.serverProblems}` : ''} | tus kept ${c.tusKept} | ${ok ? 'pass' : 'FAIL'} (${((Date.now() - t0) / 1000).toFixed(0)} s)`;
        findings = [`    (${res.detail})`, ...res.findings.lines];
      } catch (err) {
        failed++;
        total.serverProblems++;
        line = `round ${r}/${ROUNDS}: FAIL: ${(err as Error).message}`;
      }
      console.log(line);
      for (const l of findings) console.log(l);
    }

    // All acknowledged uploads once more, byte for byte.
    let lostAtEnd = 0;
    const keys = new Map((await withDb(state, ({ db }) => db.selectFrom('videos').select(['id', 'video_key']).execute())).map((r) => [r.id, r.video_key]));
    for (const u of state.acked) {
      const key = keys.get(u.videoId!);
      const ok = key ? (await storage.hash('videos', key).catch(() => ({ sha: '' }))).sha === u.sha : false;
      if (!ok) {
        lostAtEnd++;
        state.distinct.lost.add(u.videoId!);
        console.log(`    LOST at the end: r${u.round} #${u.index} (${u.kind}, video ${u.videoId})`);
      }
    }
    if (lostAtEnd > 0 && failed === 0) {
      passed--;
      failed++;
    }

    console.log('');
    console.log(`rounds: ${ROUNDS}`);
    console.log(`uploads started: ${total.started} (${total.direct} direct, ${total.tus} resumable)`);
    console.log(`acknowledged: ${total.acknowledged}`);
    // Each problem once, however many rounds saw it.
    const d = state.distinct;
    console.log(`acknowledged lost: ${d.lost.size} (all ${state.acked.length} acknowledged re-hashed at the end: ${lostAtEnd} differ or are missing)`);
    console.log(`rows pointing to missing or partial files: ${d.badRows.size}`);
    console.log(`orphan files: ${d.orphanFiles.size}`);
    console.log(`orphan temp files: ${d.orphanTemp.size}`);
    console.log(`stale announcements (pending_objects, server_instances): ${d.staleAnnouncements.size}`);
    console.log(`server problems: ${total.serverProblems}`);
    console.log(
      `(not failures) cut by the kill: ${total.cut}; not started before the kill: ${total.notStarted}; refused: ${total.refused}; ` +
        `saved but unacknowledged: ${total.savedUnacknowledged}; resumable uploads kept for resuming or expiry at the end: ${lastTusKept}`,
    );
  } finally {
    for (const c of cleanups.reverse()) await c().catch((err) => console.error('cleanup failed:', err));
    if (!args.keep && failed === 0) await rm(work, { recursive: true, force: true });
    else console.log(`kept ${work}`);
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed > 0 ? 1 : 0;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
