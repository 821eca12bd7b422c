/**
 * Upload throughput: one 100 MB MP4 sent to POST /api/videos of a server running in its own
 * process, against a plain copy of the same file on the same disk, measured in the same run;
 * and how much the server's memory (RSS) grows while it takes the upload.
 *
 * Then the resumable path: a 1 GB file sent through the tus endpoint (PATCH /api/uploads/:id) of
 * the same server, its connection cut at 20 random points and resumed from the offset HEAD
 * reports; the SHA-256 of the source and of the stored bytes; a PATCH at a stale offset (409,
 * stored bytes unchanged); the throughput against a plain copy of the same 1 GB, and the
 * server's RSS growth while it takes the upload (sampled every 50 ms from /proc).
 *
 *   npm run bench:upload      (RESUMABLE_SEED=n replays the same cut points)
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, readFileSync, statSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, open, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createSession } from '../api/platform/sessions/sessions.ts';
import { openDatabase } from '../api/platform/db/database.ts';
import { migrate } from '../api/platform/db/migrate.ts';
import { findMediaTools, runFfmpeg } from '../api/platform/media/ffmpeg.ts';
import { createUser } from '../api/modules/accounts/index.ts';
import { makeTestMedia, TEST_MEDIA_DIR } from './make-test-media.ts';
import { seededRandom } from '../api/test/seeded-random.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const PORT = 3191;
const BENCH_DIR = path.join(ROOT, '.cache/bench');
const CLIP = path.join(BENCH_DIR, 'upload-100mb.mp4');
const MB = 1024 * 1024;

async function bigClip(): Promise<string> {
  if (existsSync(CLIP)) return CLIP;
  await mkdir(BENCH_DIR, { recursive: true });
  const { ffmpeg } = await findMediaTools({ ffmpegPath: null, ffprobePath: null });
  console.log('Making a 100 MB test video (once)...');
  const tmp = `${CLIP}.tmp.mp4`;
  // Noise does not compress, so a fixed bit rate gives a predictable size: 80 Mbit/s for 10 s.
  await runFfmpeg(ffmpeg, [
    '-y', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30', '-t', '10',
    '-vf', 'noise=alls=60:allf=t,format=yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast',
    '-b:v', '80M', '-minrate', '80M', '-maxrate', '80M', '-bufsize', '40M', '-movflags', '+faststart', tmp,
  ], 600_000);
  await copyFile(tmp, CLIP);
  await rm(tmp);
  return CLIP;
}

function rssBytes(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

function hasCurl(): boolean {
  return (process.env.PATH ?? '').split(':').some((d) => d && existsSync(path.join(d, 'curl')));
}

function uploadWithCurl(clip: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const args = [
      '-s', '-o', '/dev/null', '-w', '%{http_code}',
      '-H', `Cookie: fm_session=${token}`, '-H', `Origin: http://127.0.0.1:${PORT}`,
      '-F', 'title=Bench upload', '-F', 'description=100 MB', '-F', 'category=tech',
      '-F', `video=@${clip};type=video/mp4`, '-F', `thumbnail=@${path.join(TEST_MEDIA_DIR, 'thumbnail.jpg')};type=image/jpeg`,
      `http://127.0.0.1:${PORT}/api/videos`,
    ];
    const curl = spawn('curl', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    curl.stdout.on('data', (d: Buffer) => (out += d.toString()));
    curl.once('error', reject);
    // 'close', not 'exit': curl's output (the status) may still be on its way at 'exit'.
    curl.once('close', () => resolve(Number(out)));
  });
}

async function uploadWithFetch(clip: string, thumbnail: Buffer, size: number, token: string): Promise<number> {
  const boundary = `----framemerch${Date.now()}`;
  const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = Buffer.from(
    field('title', 'Bench upload') + field('description', '100 MB') + field('category', 'tech') +
      `--${boundary}\r\nContent-Disposition: form-data; name="video"; filename="big.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const tail = Buffer.concat([
    Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="thumbnail"; filename="t.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
    thumbnail,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  async function* body() {
    yield head;
    yield* createReadStream(clip, { highWaterMark: 1024 * 1024 });
    yield tail;
  }
  const res = await fetch(`http://127.0.0.1:${PORT}/api/videos`, {
    method: 'POST',
    body: Readable.toWeb(Readable.from(body())) as ReadableStream,
    duplex: 'half',
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(head.length + size + tail.length),
      cookie: `fm_session=${token}`,
      origin: `http://127.0.0.1:${PORT}`,
    },
  } as RequestInit);
  return res.status;
}

async function main() {
  const clip = await bigClip();
  await makeTestMedia();
  const thumbnail = readFileSync(path.join(TEST_MEDIA_DIR, 'thumbnail.jpg'));
  const size = statSync(clip).size;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'framemerch-bench-upload-'));

  // Baseline: a plain copy of the same bytes onto the same disk.
  const copyTarget = path.join(dataDir, 'copy.mp4');
  let t0 = performance.now();
  await copyFile(clip, copyTarget);
  const copyMs = performance.now() - t0;
  await rm(copyTarget);
  t0 = performance.now();
  await pipeline(createReadStream(clip), createWriteStream(copyTarget));
  const streamCopyMs = performance.now() - t0;
  await rm(copyTarget);

  const db = await openDatabase({ dataDir: path.join(dataDir, 'pglite') });
  await migrate(db.db);
  const user = await createUser(db.db, { email: 'bench@example.com', displayName: 'Bench', role: 'creator', emailVerified: true });
  const { token } = await createSession(db.db, user.id, 1, {});
  // A Pro creator for the 1 GB resumable upload (Free creators stop at 100 MB).
  const pro = await createUser(db.db, { email: 'bench-pro@example.com', displayName: 'Bench Pro', role: 'creator', emailVerified: true });
  await db.db.insertInto('user_subscriptions').values({ user_id: pro.id, tier: 'pro', status: 'active' }).execute();
  const proToken = (await createSession(db.db, pro.id, 1, {})).token;
  await db.close();

  const server = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'api/server.ts')], {
    cwd: ROOT,
    stdio: 'ignore',
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(PORT), PUBLIC_URL: `http://127.0.0.1:${PORT}`, WEB_DIST: 'none', LOG_LEVEL: 'warn', SEED_DEMO: 'false', DATABASE_URL: '' },
  });
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`http://127.0.0.1:${PORT}/api/health`)).ok) break;
      } catch {
        if (i > 300) throw new Error('server did not start');
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    await new Promise((r) => setTimeout(r, 1000));
    let rssBefore = rssBytes(server.pid!);
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(server.pid!))), 10);

    // curl sends the file as a browser would (native code, streaming from disk); without curl
    // the same request goes through Node's fetch, which then shares the CPU with the server.
    const once = async (file: string, bytes: number) => {
      const start = performance.now();
      const status = hasCurl() ? await uploadWithCurl(file, token) : await uploadWithFetch(file, thumbnail, bytes, token);
      if (status !== 201) throw new Error(`upload answered ${status}`);
      return performance.now() - start;
    };
    // A small upload first, so the server's code paths are warm; then three timed runs (median).
    const small = path.join(TEST_MEDIA_DIR, 'h264-small.mp4');
    await once(small, statSync(small).size);
    // Memory: the growth while the first 100 MB upload runs (later runs reuse what it grew).
    await new Promise((r) => setTimeout(r, 500));
    rssBefore = rssBytes(server.pid!);
    peak = rssBefore;
    const first = await once(clip, size);
    const firstPeak = peak;
    const runs = [first, await once(clip, size), await once(clip, size)].sort((a, b) => a - b);
    const uploadMs = runs[1]!;
    clearInterval(sampler);

    const mbps = (ms: number) => size / MB / (ms / 1000);
    const ratio = mbps(uploadMs) / mbps(copyMs);
    const growth = (firstPeak - rssBefore) / MB;
    console.log(`file: ${(size / MB).toFixed(1)} MB MP4 (moov first), server on the embedded database, same disk, client ${hasCurl() ? 'curl' : 'Node fetch'}`);
    console.log(`  plain file copy (copyFile)      ${mbps(copyMs).toFixed(0).padStart(6)} MB/s  ${copyMs.toFixed(0)} ms`);
    console.log(`  streamed copy (read + write)     ${mbps(streamCopyMs).toFixed(0).padStart(6)} MB/s  ${streamCopyMs.toFixed(0)} ms`);
    console.log(`  upload through POST /api/videos  ${mbps(uploadMs).toFixed(0).padStart(6)} MB/s  ${uploadMs.toFixed(0)} ms (median of 3; checks, probe and storage included)`);
    console.log(`  upload / plain copy: ${(ratio * 100).toFixed(0)} % (target >= 50 %); upload / streamed copy: ${((streamCopyMs / uploadMs) * 100).toFixed(0)} %`);
    console.log(`  server memory growth during the upload: ${growth.toFixed(1)} MB (RSS ${(rssBefore / MB).toFixed(0)} -> ${(firstPeak / MB).toFixed(0)} MB in the first upload; target <= 64 MB)`);
    console.log(`  ${ratio >= 0.5 && growth <= 64 ? 'targets met' : 'targets NOT met'}`);

    await resumableBench(server.pid!, dataDir, proToken);
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    await rm(dataDir, { recursive: true, force: true });
  }
}

// --- the resumable path -------------------------------------------------------------------------

const GB = 1024 * MB;
const TUS = { 'tus-resumable': '1.0.0' };

/**
 * 1 GB of random bytes behind an MP4 `ftyp` box: the endpoint looks at the first bytes (a
 * video's, or the upload is refused), and nothing else is read until a finish, which this bench
 * does not do. So this measures the transport only; the bytes are not a playable video.
 */
async function gigabyteFile(file: string): Promise<void> {
  const handle = await open(file, 'w');
  try {
    const ftyp = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom\0\0\x02\0isomiso2', 'latin1')]);
    const block = randomBytes(16 * MB);
    for (let at = 0; at < GB; at += block.length) {
      // Each block differs from the last (its first bytes are its position), so no two are alike.
      block.writeUInt32BE(at / block.length, 0);
      await handle.write(at === 0 ? Buffer.concat([ftyp, block.subarray(ftyp.length)]) : block, 0, block.length, at);
    }
  } finally {
    await handle.close();
  }
}

async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: 4 * MB })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

interface TusAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
}

/**
 * One tus request over a connection of its own. With `body`, the file is streamed from `offset`;
 * with `cutAt`, the connection is dropped once that many bytes have been written (as a network
 * drops it), answering 'cut'.
 */
function tusRequest(method: string, urlPath: string, token: string, headers: Record<string, string>, body?: { file: string; offset: number; cutAt?: number }): Promise<TusAnswer | 'cut'> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (v: TusAnswer | 'cut' | Error) => {
      if (settled) return;
      settled = true;
      if (v instanceof Error) reject(v);
      else resolve(v);
    };
    const req = http.request(
      { host: '127.0.0.1', port: PORT, method, path: urlPath, agent: false, headers: { ...TUS, ...headers, cookie: `fm_session=${token}`, origin: `http://127.0.0.1:${PORT}` } },
      (res) => {
        res.resume();
        res.on('end', () => settle({ status: res.statusCode!, headers: res.headers }));
        res.on('error', (err) => settle(body?.cutAt !== undefined ? 'cut' : err));
      },
    );
    req.on('error', (err) => settle(body?.cutAt !== undefined ? 'cut' : err));
    if (!body) return void req.end();
    const source = createReadStream(body.file, { start: body.offset, highWaterMark: MB });
    let sent = 0;
    source.on('data', (chunk) => {
      const buf = chunk as Buffer;
      if (body.cutAt !== undefined && sent + buf.length >= body.cutAt) {
        req.write(buf.subarray(0, body.cutAt - sent));
        source.destroy();
        req.destroy();
        return settle('cut');
      }
      sent += buf.length;
      if (!req.write(buf)) {
        source.pause();
        req.once('drain', () => source.resume());
      }
    });
    source.on('end', () => req.end());
    source.on('error', (err) => settle(err));
  });
}

async function resumableBench(serverPid: number, dataDir: string, token: string): Promise<void> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'framemerch-bench-resumable-'));
  try {
    const source = path.join(scratch, 'source.bin');
    await gigabyteFile(source);
    const size = statSync(source).size;

    // Baseline, same run, same disk: a plain copy of the same 1 GB.
    const copyTarget = path.join(scratch, 'copy.bin');
    let t0 = performance.now();
    await copyFile(source, copyTarget);
    const copyMs = performance.now() - t0;
    await rm(copyTarget);
    t0 = performance.now();
    await pipeline(createReadStream(source, { highWaterMark: MB }), createWriteStream(copyTarget));
    const streamCopyMs = performance.now() - t0;
    await rm(copyTarget);

    const seed = Number(process.env.RESUMABLE_SEED ?? Date.now() % 1_000_000);
    const next = seededRandom(seed);
    const cuts = Array.from({ length: 20 }, () => Math.floor(next() * size)).sort((a, b) => a - b);

    await new Promise((r) => setTimeout(r, 500));
    const rssBefore = rssBytes(serverPid);
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(serverPid))), 50);

    t0 = performance.now();
    const created = await tusRequest('POST', '/api/uploads', token, { 'upload-length': String(size) });
    if (created === 'cut' || created.status !== 201) throw new Error(`creating the upload answered ${created === 'cut' ? 'cut' : created.status}`);
    const url = String(created.headers.location);
    const id = url.split('/').pop()!;
    const headOffset = async () => {
      const res = await tusRequest('HEAD', url, token, {});
      if (res === 'cut' || res.status !== 200) throw new Error(`HEAD answered ${res === 'cut' ? 'cut' : res.status}`);
      return Number(res.headers['upload-offset']);
    };
    let offset = 0;
    let cutsDone = 0;
    let patches = 0;
    let heads = 0;
    let resent = 0;
    while (offset < size) {
      const cutAt = cutsDone < cuts.length ? Math.max(1, cuts[cutsDone]! - offset) : undefined;
      const res = await tusRequest('PATCH', url, token, { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' }, { file: source, offset, cutAt });
      patches++;
      if (res === 'cut') cutsDone++;
      else if (res.status !== 204) throw new Error(`PATCH at ${offset} answered ${res.status}`);
      const now = await headOffset();
      heads++;
      if (res === 'cut') resent += offset + (cutAt ?? 0) - now;
      offset = now;
    }
    const uploadMs = performance.now() - t0;
    clearInterval(sampler);

    const stored = path.join(dataDir, 'resumable-uploads', id);
    const sourceHash = await sha256File(source);
    const storedHash = await sha256File(stored);

    // A PATCH from an offset the upload has left behind: refused, and nothing it sent is stored.
    const stale = await tusRequest('PATCH', url, token, { 'upload-offset': String(Math.floor(size / 2)), 'content-type': 'application/offset+octet-stream' }, { file: source, offset: 0 });
    const staleStatus = stale === 'cut' ? 'cut' : stale.status;
    const afterHash = await sha256File(stored);
    await tusRequest('DELETE', url, token, {});

    const mbps = (ms: number) => size / MB / (ms / 1000);
    const growth = (peak - rssBefore) / MB;
    console.log('');
    console.log(
      `resumable upload: ${(size / MB).toFixed(0)} MB through the tus endpoint of the same server (PATCH /api/uploads/:id), a Pro creator; ` +
        'random bytes behind an MP4 header (the endpoint sniffs the first bytes; the rest is not a playable video, so this measures the transport and is not finished into a video)',
    );
    console.log(`  cut ${cutsDone} times at random points (seed ${seed}): ${patches} PATCHes and ${heads} HEADs; ${(resent / MB).toFixed(1)} MB sent but lost in the cuts, sent again`);
    console.log(`  plain file copy (copyFile)      ${mbps(copyMs).toFixed(0).padStart(6)} MB/s  ${copyMs.toFixed(0)} ms`);
    console.log(`  streamed copy (read + write)     ${mbps(streamCopyMs).toFixed(0).padStart(6)} MB/s  ${streamCopyMs.toFixed(0)} ms`);
    console.log(`  resumable upload, 20 cuts        ${mbps(uploadMs).toFixed(0).padStart(6)} MB/s  ${uploadMs.toFixed(0)} ms (creation to last byte, reconnections and HEADs included)`);
    console.log(`  upload / plain copy: ${((copyMs / uploadMs) * 100).toFixed(0)} %; upload / streamed copy: ${((streamCopyMs / uploadMs) * 100).toFixed(0)} %`);
    console.log(`  SHA-256 of the source  ${sourceHash}`);
    console.log(`  SHA-256 of the stored  ${storedHash}  ${sourceHash === storedHash ? 'match' : 'DO NOT MATCH'}`);
    console.log(`  PATCH at a stale Upload-Offset: ${staleStatus} (expected 409); stored bytes ${afterHash === storedHash ? 'unchanged' : 'CHANGED'} (SHA-256 after ${afterHash})`);
    console.log(`  server memory growth during the 1 GB upload: ${growth.toFixed(1)} MB (RSS ${(rssBefore / MB).toFixed(0)} -> ${(peak / MB).toFixed(0)} MB, sampled every 50 ms; target < 64 MB)`);
    const met = sourceHash === storedHash && afterHash === storedHash && staleStatus === 409 && growth < 64 && cutsDone === 20;
    console.log(`  ${met ? 'targets met' : 'targets NOT met'}`);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
