/**
 * Soak test (not part of CI): the real server in its own process, under a steady mixed load for a
 * long while, watched for errors, slow reads, growing memory and a stalled event loop.
 *
 *  - Reads, open loop: requests leave at a fixed rate (`--rate`, 200/s) whatever the answers do,
 *    spread over the public reads the web app makes: feed pages (first pages, categories, and the
 *    next pages by cursor), video details, the creators sidebar, channel pages, the session check
 *    and public settings every page makes, the shop's product browse and catalogue, health, range
 *    requests of the demo videos and thumbnails.
 *  - Uploads: `--uploads` (5) at a time, continuously, each a 100 MB MP4 (a Free creator's limit)
 *    sent by a signed-in creator of its own, alternately through POST /api/videos and the
 *    resumable (tus) route; each finished video is deleted, so the disk use stays bounded.
 *  - Server captures, one at a time, of demo videos (/api/capture-screenshot and
 *    /api/capture-multiple-screenshots), paced to 50 frames a minute, under the per-IP limit of
 *    60 a minute; a 429 is counted apart from the 5xx.
 *
 * Measured: the 5xx (and every other status by kind), read latency p50/p99, the server's RSS every
 * 10 s from /proc (every process's with --workers) and its slope after the warm-up by least
 * squares, the server's event-loop delay (EVENT_LOOP_REPORT_MS: api/platform/http/event-loop.ts
 * writes it to stdout) and the load generator's own, so a slow client is not taken for a slow
 * server. A progress line every minute; at the end the figures against the targets.
 *
 *   npm run soak -- --minutes 30                     (defaults: 30 min, 200 req/s, embedded PGlite)
 *   npm run soak -- --database-url postgres://postgres@127.0.0.1:5432/test --workers 2
 *
 * Options: --minutes M, --rate R, --uploads N, --upload-mbps X (each upload's rate in MB/s; 0, the
 * default, sends as fast as the server takes it), --database-url URL (a scratch database is made on
 * that server and dropped at the end), --workers N (WORKERS=N through scripts/start.mjs; needs
 * --database-url). Exits 1 when a target is missed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import { MERCH_CATEGORIES, VIDEO_CATEGORY_SLUGS } from '../shared/categories.ts';
import { FEED_PAGE_SIZE } from '../shared/constants.ts';
import { UPLOAD_LIMITS } from '../shared/schemas/studio.ts';
import { createUser } from '../api/modules/accounts/index.ts';
import { createScratchDatabase, openDatabase } from '../api/platform/db/database.ts';
import { migrate } from '../api/platform/db/migrate.ts';
import { EVENT_LOOP_LINE, SAMPLE_MS, type EventLoopReport } from '../api/platform/http/event-loop.ts';
import { findMediaTools, runFfmpeg } from '../api/platform/media/ffmpeg.ts';
import { createSession, SESSION_COOKIE } from '../api/platform/sessions/sessions.ts';
import { makeTestMedia, TEST_MEDIA_DIR } from './make-test-media.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const MB = 1024 * 1024;
/** The 100 MB upload, shared with bench:upload (the same recipe). */
const BIG_CLIP = path.join(ROOT, '.cache/bench/upload-100mb.mp4');
const SMALL_CLIP = path.join(TEST_MEDIA_DIR, 'h264-small.mp4');
const THUMBNAIL = path.join(TEST_MEDIA_DIR, 'thumbnail.jpg');
/** Small videos uploaded before the run, so the feed has next pages (all, gaming, music) to read by cursor. */
const SETUP_VIDEOS: Array<[string, number]> = [['gaming', 25], ['music', 20]];
const TARGETS = { readP99Ms: 300, rssSlopeMbPerMin: 1, lagP99Ms: 100 };
const READ_TIMEOUT_MS = 30_000;
const MAX_READS_IN_FLIGHT = 2000;
const RSS_EVERY_MS = 10_000;
const CAPTURE_FRAMES_PER_MIN = 50;

// --- options ----------------------------------------------------------------------------------------

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '30' },
    rate: { type: 'string', default: '200' },
    uploads: { type: 'string', default: '5' },
    'upload-mbps': { type: 'string', default: '0' },
    'database-url': { type: 'string' },
    workers: { type: 'string' },
  },
});
const minutes = Number(args.minutes);
const rate = Number(args.rate);
const uploadSlots = Number(args.uploads);
const uploadMbps = Number(args['upload-mbps']);
const workers = args.workers === undefined ? null : Number(args.workers);
const databaseUrl = args['database-url'] ?? null;
if (!(minutes > 0) || !(rate > 0) || !Number.isInteger(uploadSlots) || uploadSlots < 0 || !(uploadMbps >= 0)) {
  console.error('--minutes and --rate must be positive numbers, --uploads a whole number, --upload-mbps 0 or more.');
  process.exit(2);
}
if (workers !== null && (!Number.isInteger(workers) || workers < 1 || workers > 64)) {
  console.error('--workers must be a whole number from 1 to 64.');
  process.exit(2);
}
if (workers !== null && workers > 1 && !databaseUrl) {
  console.error('--workers above 1 needs --database-url: the embedded database serves one process.');
  process.exit(2);
}

// --- small helpers ----------------------------------------------------------------------------------

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

function percentile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

function bump(map: Map<string, number>, key: string, by = 1) {
  map.set(key, (map.get(key) ?? 0) + by);
}

function listCounts(map: Map<string, number>): string {
  return map.size === 0 ? 'none' : [...map].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k}: ${n}`).join(', ');
}

/** Least-squares line through the points: slope, its standard error, and the number of points. */
function regression(points: ReadonlyArray<[number, number]>): { slope: number; stderr: number; n: number } {
  const n = points.length;
  if (n < 3) return { slope: NaN, stderr: NaN, n };
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  let sxx = 0;
  let sxy = 0;
  for (const [x, y] of points) {
    sxx += (x - mx) ** 2;
    sxy += (x - mx) * (y - my);
  }
  const slope = sxy / sxx;
  const residuals = points.reduce((s, [x, y]) => s + (y - my - slope * (x - mx)) ** 2, 0);
  return { slope, stderr: Math.sqrt(residuals / (n - 2) / sxx), n };
}

/** The client's own event-loop delay, as the server measures its (beyond the sampling interval, ms). */
const lagMs = (h: IntervalHistogram, q: number) => (h.count === 0 ? NaN : Math.max(0, h.percentile(q) / 1e6 - SAMPLE_MS));

/**
 * One distribution from several event-loop reports: the smallest delay at which the share `q` of
 * all their samples is reached, each report's share read from its histogram's percentile steps.
 */
function mergedLag(reports: readonly EventLoopReport[], q: number): number {
  const total = reports.reduce((s, r) => s + r.count, 0);
  if (total === 0) return NaN;
  const candidates = [...new Set(reports.flatMap((r) => r.percentiles.map(([, v]) => v)))].sort((a, b) => a - b);
  const share = (v: number) =>
    reports.reduce((s, r) => {
      let p = 0;
      for (const [pp, vv] of r.percentiles) if (vv <= v) p = Math.max(p, pp);
      return s + (r.count * p) / 100;
    }, 0) / total;
  // The share only grows with the delay: the first candidate that reaches q, by bisection.
  let lo = 0;
  let hi = candidates.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (share(candidates[mid]!) >= q) hi = mid;
    else lo = mid + 1;
  }
  return candidates[lo]!;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function hasCurl(): boolean {
  return (process.env.PATH ?? '').split(':').some((d) => d && existsSync(path.join(d, 'curl')));
}

/** VmRSS of a process in MB, or null once it is gone. */
function rssMb(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** User + system CPU seconds a process has used (Linux counts in 1/100 s). */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/**
 * A process's main thread (the event loop): seconds it has run on a CPU and seconds it has waited,
 * runnable, for one (the run queue), from /proc/<pid>/task/<pid>/schedstat.
 */
function mainThreadSched(pid: number): { onCpu: number; waiting: number } {
  try {
    const [onCpu, waiting] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').trim().split(/\s+/).map(Number);
    return { onCpu: onCpu! / 1e9, waiting: waiting! / 1e9 };
  } catch {
    return { onCpu: NaN, waiting: NaN };
  }
}

/** The machine's CPU time so far, busy and in all (from /proc/stat, in ticks). */
function machineCpu(): { busy: number; total: number } {
  try {
    const ticks = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const total = ticks.reduce((a, b) => a + b, 0);
    // idle and iowait are the fourth and fifth.
    return { busy: total - ticks[3]! - (ticks[4] ?? 0), total };
  } catch {
    return { busy: NaN, total: NaN };
  }
}

/** The node processes whose parent is `pid` (the API processes under scripts/start.mjs). */
function nodeChildren(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid && readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'node') found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

// --- media ------------------------------------------------------------------------------------------

async function bigClip(): Promise<string> {
  if (existsSync(BIG_CLIP)) return BIG_CLIP;
  await mkdir(path.dirname(BIG_CLIP), { recursive: true });
  const { ffmpeg } = await findMediaTools({ ffmpegPath: null, ffprobePath: null });
  console.log('Making a 100 MB test video (once)...');
  const tmp = `${BIG_CLIP}.tmp.mp4`;
  // Noise does not compress, so a fixed bit rate gives a predictable size: 80 Mbit/s for 10 s.
  await runFfmpeg(ffmpeg, [
    '-y', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30', '-t', '10',
    '-vf', 'noise=alls=60:allf=t,format=yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast',
    '-b:v', '80M', '-minrate', '80M', '-maxrate', '80M', '-bufsize', '40M', '-movflags', '+faststart', tmp,
  ], 600_000);
  await copyFile(tmp, BIG_CLIP);
  await rm(tmp);
  return BIG_CLIP;
}

// --- the server -------------------------------------------------------------------------------------

interface Server {
  child: ChildProcess;
  /** The processes whose memory counts: the API process, or the primary and its API processes. */
  pids(): number[];
  lag: Array<EventLoopReport & { at: number }>;
  warnings: number;
  errors: number;
  errorLines: string[];
  warningLines: string[];
}

function startServer(port: number, env: NodeJS.ProcessEnv): Server {
  const args = workers !== null ? [path.join(ROOT, 'scripts/start.mjs')] : ['--import', 'tsx', path.join(ROOT, 'api/server.ts')];
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const server: Server = {
    child,
    pids: () => (workers !== null ? [child.pid!, ...nodeChildren(child.pid!)] : [child.pid!]),
    lag: [],
    warnings: 0,
    errors: 0,
    errorLines: [],
    warningLines: [],
  };
  const read = (line: string) => {
    if (line.startsWith(`${EVENT_LOOP_LINE} `)) {
      server.lag.push({ ...(JSON.parse(line.slice(EVENT_LOOP_LINE.length + 1)) as EventLoopReport), at: performance.now() });
      return;
    }
    let level = 0;
    let text = line;
    try {
      const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } };
      level = entry.level ?? 0;
      text = `${entry.msg ?? ''}${entry.err?.message ? `: ${entry.err.message}` : ''}`;
    } catch {
      // not a log line: the start banner, or an error printed before the logger exists
      if (/error/i.test(line)) level = 50;
    }
    if (level >= 50) {
      server.errors++;
      if (server.errorLines.length < 10) {
        server.errorLines.push(text.slice(0, 300));
        console.log(`  server error: ${text.slice(0, 300)}`);
      }
    } else if (level >= 40) {
      server.warnings++;
      if (server.warningLines.length < 5) server.warningLines.push(text.slice(0, 200));
    }
  };
  readline.createInterface({ input: child.stdout! }).on('line', read);
  readline.createInterface({ input: child.stderr! }).on('line', read);
  return server;
}

async function stopServer(server: Server): Promise<void> {
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
}

// --- the load -------------------------------------------------------------------------------------

interface Content {
  videos: Array<{ id: string; thumbnail: string | null; channel: string | null }>;
  /** Demo videos: their media URL, size in bytes and length in seconds. */
  demo: Array<{ url: string; size: number; seconds: number }>;
  /** Feed pages after the first, as the web app asks for them (category, the cursor it was given). */
  cursors: Array<{ category: string; before: string }>;
  categories: string[];
}

interface Kind {
  name: string;
  weight: number;
  request(c: Content): { path: string; headers?: Record<string, string> };
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
const API_HEADERS = { accept: 'application/json', 'accept-encoding': 'gzip, deflate, br' };
const feedPath = (category: string, before?: string) =>
  `/api/videos?${new URLSearchParams({ ...(category === 'all' ? {} : { category }), limit: String(FEED_PAGE_SIZE), ...(before ? { before } : {}) })}`;

/** The read mix: roughly what a page view of the web app asks for, weighted by how often. */
const KINDS: Kind[] = [
  { name: 'feed first page', weight: 14, request: () => ({ path: feedPath('all'), headers: API_HEADERS }) },
  { name: 'feed category', weight: 7, request: (c) => ({ path: feedPath(pick(c.categories)), headers: API_HEADERS }) },
  {
    name: 'feed next page',
    weight: 7,
    request: (c) => {
      const { category, before } = pick(c.cursors);
      return { path: feedPath(category, before), headers: API_HEADERS };
    },
  },
  { name: 'video details', weight: 11, request: (c) => ({ path: `/api/videos/${pick(c.videos).id}`, headers: API_HEADERS }) },
  { name: 'creators sidebar', weight: 7, request: () => ({ path: '/api/creators/newest', headers: API_HEADERS }) },
  {
    name: 'channel page',
    weight: 4,
    request: (c) => ({ path: `/api/channels/${encodeURIComponent(pick(c.videos.filter((v) => v.channel)).channel!)}`, headers: API_HEADERS }),
  },
  { name: 'session check', weight: 4, request: () => ({ path: '/api/auth/me', headers: API_HEADERS }) },
  { name: 'public settings', weight: 3, request: () => ({ path: '/api/settings/public', headers: API_HEADERS }) },
  { name: 'product browse', weight: 6, request: () => ({ path: `/api/product/browse?category=${pick(['all', ...MERCH_CATEGORIES])}`, headers: API_HEADERS }) },
  {
    name: 'catalogue',
    weight: 3,
    request: () => ({ path: `/api/catalogue/products${Math.random() < 0.5 ? '' : `?category=${pick(MERCH_CATEGORIES)}`}`, headers: API_HEADERS }),
  },
  { name: 'health', weight: 3, request: () => ({ path: '/api/health', headers: API_HEADERS }) },
  {
    name: 'media range',
    weight: 17,
    request: (c) => {
      const v = pick(c.demo);
      // A player's first request (the whole file from 0), else a seek: 256 KB from somewhere inside.
      if (Math.random() < 0.3) return { path: v.url, headers: { range: 'bytes=0-', 'accept-encoding': 'identity' } };
      const start = Math.floor(Math.random() * Math.max(1, v.size - 256 * 1024));
      return { path: v.url, headers: { range: `bytes=${start}-${Math.min(v.size - 1, start + 256 * 1024 - 1)}`, 'accept-encoding': 'identity' } };
    },
  },
  {
    name: 'thumbnail',
    weight: 14,
    request: (c) => ({ path: pick(c.videos.filter((v) => v.thumbnail)).thumbnail!, headers: { accept: 'image/avif,image/webp,image/*' } }),
  },
];
const TOTAL_WEIGHT = KINDS.reduce((s, k) => s + k.weight, 0);

function pickKind(): Kind {
  let r = Math.random() * TOTAL_WEIGHT;
  for (const k of KINDS) if ((r -= k.weight) < 0) return k;
  return KINDS[KINDS.length - 1]!;
}

/** Counts for one kind of traffic: statuses, transport failures, latencies of the answered. */
class Tally {
  readonly statuses = new Map<string, number>();
  readonly failures = new Map<string, number>();
  latencies: number[] = [];
  count = 0;
  get fiveXx(): number {
    return [...this.statuses].reduce((s, [k, n]) => (/(^|\s)5\d\d$/.test(k) ? s + n : s), 0);
  }
  get failed(): number {
    return [...this.failures.values()].reduce((s, n) => s + n, 0);
  }
}

// --- main ---------------------------------------------------------------------------------------

async function main() {
  const cpus = os.cpus().length;
  const loadStart = os.loadavg();
  const mode = workers !== null ? `scripts/start.mjs with WORKERS=${workers}` : 'node api/server.ts, 1 process';
  console.log(
    `Soak: ${minutes} min, ${rate} reads/s (open loop), ${uploadSlots} concurrent 100 MB uploads${uploadMbps > 0 ? ` at ${uploadMbps} MB/s each` : ''}, ` +
      `server captures at ${CAPTURE_FRAMES_PER_MIN} frames/min; server: ${mode}, database ${databaseUrl ? 'PostgreSQL (scratch database)' : 'embedded PGlite'}`,
  );
  console.log(`Machine: ${cpus} CPUs, load average ${loadStart.map((l) => l.toFixed(2)).join(' ')} (1, 5, 15 min) at the start`);

  await makeTestMedia();
  const clip = uploadSlots > 0 ? await bigClip() : BIG_CLIP;
  const clipSize = uploadSlots > 0 ? statSync(clip).size : 0;
  if (clipSize > UPLOAD_LIMITS.free.videoBytes) throw new Error(`${clip} is ${clipSize} bytes, over a Free creator's limit; delete it to make it again`);
  const useCurl = hasCurl();
  if (uploadMbps > 0 && !useCurl) console.log('  (no curl: uploads go through Node unthrottled; --upload-mbps is ignored)');

  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'framemerch-soak-'));
  const scratch = databaseUrl ? await createScratchDatabase(databaseUrl, 'framemerch_soak') : null;
  let server: Server | null = null;
  const curls = new Set<ChildProcess>();
  try {
    // Creators before the server starts (the embedded database belongs to one process): one per
    // upload slot, and one for the setup videos. The server seeds the demo content itself.
    const db = await openDatabase(scratch ? { url: scratch.url } : { dataDir: path.join(dataDir, 'pglite') });
    await migrate(db.db);
    const tokens: string[] = [];
    for (let i = 0; i <= uploadSlots; i++) {
      const user = await createUser(db.db, { email: `soak-${i}@example.com`, displayName: `Soak Creator ${i}`, role: 'creator', emailVerified: true });
      tokens.push((await createSession(db.db, user.id, 2, {})).token);
    }
    await db.close();
    const setupToken = tokens.pop()!;

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      DATABASE_URL: scratch?.url ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: origin,
      WEB_DIST: 'none',
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'true',
      ADMIN_PASSWORD: 'soak admin password',
      DEMO_MEDIA_CACHE: path.join(ROOT, '.cache/demo-media'),
      EVENT_LOOP_REPORT_MS: '1000',
    };
    // The app's normal read cache, and one process unless --workers says otherwise.
    delete env.READ_CACHE_MS;
    delete env.WORKERS;
    if (workers !== null) env.WORKERS = String(workers);

    const spawnedAt = performance.now();
    server = startServer(port, env);
    for (;;) {
      if (server.child.exitCode !== null) throw new Error(`the server exited with ${server.child.exitCode} before it served`);
      if (performance.now() - spawnedAt > 300_000) throw new Error('the server did not answer /api/health within 5 minutes');
      try {
        if ((await fetch(`${origin}/api/health`)).ok) break;
      } catch {
        // not listening yet
      }
      await sleep(200);
    }
    if (workers !== null) {
      // The others start once the first serves: wait until all of them report.
      const until = performance.now() + 120_000;
      while (new Set(server.lag.map((r) => r.pid)).size < workers && performance.now() < until) await sleep(500);
    }
    console.log(`Server healthy ${fmt((performance.now() - spawnedAt) / 1000, 1)} s after its start (the catalogue and the demo seeding included, demo clips from .cache/demo-media; the migrations ran before, with the creators)`);

    const cookie = (token: string) => `${SESSION_COOKIE}=${token}`;
    const send = async (method: string, urlPath: string, token: string, init: { body?: FormData | string; headers?: Record<string, string> } = {}) => {
      const res = await fetch(`${origin}${urlPath}`, { method, body: init.body, headers: { cookie: cookie(token), origin, ...init.headers }, signal: AbortSignal.timeout(120_000) });
      const text = await res.text();
      return { status: res.status, headers: res.headers, json: () => JSON.parse(text) as Record<string, unknown> };
    };
    const form = (fields: Record<string, string>) => {
      const f = new FormData();
      for (const [k, v] of Object.entries(fields)) f.append(k, v);
      f.append('thumbnail', new Blob([readFileSync(THUMBNAIL)], { type: 'image/jpeg' }), 'thumbnail.jpg');
      return f;
    };

    // Setup videos: enough for next pages in the feed.
    const small = readFileSync(SMALL_CLIP);
    const setupQueue = SETUP_VIDEOS.flatMap(([category, n]) => Array.from({ length: n }, (_, i) => ({ category, i })));
    await Promise.all(
      Array.from({ length: 3 }, async () => {
        for (let job = setupQueue.shift(); job; job = setupQueue.shift()) {
          const f = form({ title: `Soak ${job.category} ${job.i + 1}`, description: 'A small video the soak test reads.', category: job.category });
          f.append('video', new Blob([small], { type: 'video/mp4' }), 'small.mp4');
          const res = await send('POST', '/api/videos', setupToken, { body: f });
          if (res.status !== 201) throw new Error(`a setup upload answered ${res.status}`);
        }
      }),
    );

    // What there is to read: every video in the feed, the cursors of the next pages, the demo media.
    const content: Content = { videos: [], demo: [], cursors: [], categories: [] };
    for (const category of ['all', ...VIDEO_CATEGORY_SLUGS]) {
      let before: string | undefined;
      for (let page = 0; page < 20; page++) {
        const res = await fetch(`${origin}${feedPath(category, before)}`);
        const body = (await res.json()) as { videos: Array<{ id: string; thumbnail_url: string | null; channel_slug: string | null }>; next_cursor: string | null };
        if (page === 0 && body.videos.length > 0 && category !== 'all') content.categories.push(category);
        if (category === 'all') for (const v of body.videos) content.videos.push({ id: v.id, thumbnail: v.thumbnail_url, channel: v.channel_slug });
        if (!body.next_cursor) break;
        before = body.next_cursor;
        content.cursors.push({ category, before });
      }
    }
    for (const v of content.videos) {
      const res = await fetch(`${origin}/api/video-info?id=${v.id}`);
      const { video } = (await res.json()) as { video: { video_url: string; size_bytes: number; duration_s: number | null } };
      if (video.video_url.startsWith('/media/videos/demo/')) content.demo.push({ url: video.video_url, size: video.size_bytes, seconds: video.duration_s ?? 1 });
    }
    if (content.demo.length === 0 || content.cursors.length === 0) throw new Error('no demo videos or no next pages in the feed: is moderation on?');
    console.log(
      `Content: ${content.videos.length} videos in the feed (${content.demo.length} demo), ${content.cursors.length} next-page cursors ` +
        `(${[...new Set(content.cursors.map((c) => c.category))].join(', ')}), ${content.categories.length} categories`,
    );

    // --- the run --------------------------------------------------------------------------------
    const runMs = minutes * 60_000;
    const warmupMin = Math.min(Math.max(2, minutes * 0.1), minutes / 3);
    const reads = new Tally();
    const byKind = new Map(KINDS.map((k) => [k.name, new Tally()]));
    const uploads = new Tally();
    const uploadRequests = new Tally();
    const captures = new Tally();
    let uploadedBytes = 0;
    let captureFrames = 0;
    let minute = { reads: new Tally(), uploads: 0, uploadBytes: 0, captures: 0, started: 0 };
    const readTimes: number[] = [];
    const slips: number[] = [];
    let dropped = 0;
    let inFlight = 0;
    let stopping = false;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

    const clientLag = monitorEventLoopDelay({ resolution: SAMPLE_MS });
    const clientLagMinute = monitorEventLoopDelay({ resolution: SAMPLE_MS });
    clientLag.enable();
    clientLagMinute.enable();
    const t0 = performance.now();
    const elapsedMin = () => (performance.now() - t0) / 60_000;
    minute.started = t0;

    // RSS and CPU of the server's processes.
    const rssSamples: Array<{ t: number; byPid: Map<number, number> }> = [];
    const cpuStart = new Map(server.pids().map((pid) => [pid, cpuSeconds(pid)]));
    const clientCpuStart = process.cpuUsage();
    const schedPids = server.pids().filter((pid) => workers === null || pid !== server!.child.pid);
    const schedStart = new Map([...schedPids, process.pid].map((pid) => [pid, mainThreadSched(pid)]));
    const machineStart = machineCpu();
    const sampleRss = () => {
      const byPid = new Map<number, number>();
      for (const pid of server!.pids()) {
        const mb = rssMb(pid);
        if (mb !== null) byPid.set(pid, mb);
      }
      rssSamples.push({ t: elapsedMin(), byPid });
    };
    const total = (s: { byPid: Map<number, number> }) => [...s.byPid.values()].reduce((a, b) => a + b, 0);
    sampleRss();
    const rssTimer = setInterval(sampleRss, RSS_EVERY_MS);

    // Reads, open loop: request i leaves at t0 + i / rate, answered or not.
    const fire = () => {
      const kind = pickKind();
      const tallies = [reads, byKind.get(kind.name)!, minute.reads];
      if (inFlight >= MAX_READS_IN_FLIGHT) {
        // Counted apart: the server was too slow for the rate (see the achieved rate), not failing.
        dropped++;
        return;
      }
      const { path: p, headers } = kind.request(content);
      inFlight++;
      const start = performance.now();
      let settled = false;
      const settle = (status: number | null, failure?: string) => {
        if (settled) return;
        settled = true;
        inFlight--;
        const ms = performance.now() - start;
        for (const t of tallies) {
          t.count++;
          if (status === null) bump(t.failures, failure ?? 'failed');
          else {
            bump(t.statuses, String(status));
            t.latencies.push(ms);
          }
        }
        if (status !== null) readTimes.push(elapsedMin());
      };
      const req = http.request({ host: '127.0.0.1', port, path: p, method: 'GET', agent, headers }, (res) => {
        res.on('end', () => settle(res.statusCode!));
        res.on('error', (err) => settle(null, (err as NodeJS.ErrnoException).code ?? err.message));
        res.on('close', () => settle(null, 'closed before the end'));
        res.resume();
      });
      req.setTimeout(READ_TIMEOUT_MS, () => req.destroy(Object.assign(new Error('timeout'), { code: 'timeout' })));
      req.on('error', (err) => settle(null, (err as NodeJS.ErrnoException).code ?? err.message));
      req.end();
    };
    let issued = 0;
    const scheduler = setInterval(() => {
      const now = performance.now();
      const due = Math.min(Math.floor(((now - t0) / 1000) * rate), Math.floor((runMs / 1000) * rate));
      while (issued < due) {
        slips.push(now - (t0 + (issued * 1000) / rate));
        issued++;
        fire();
      }
    }, 2);

    // Uploads: each slot its own creator, direct and resumable in turn.
    const curl = (curlArgs: string[]): Promise<{ status: number; body: string; failure?: string }> =>
      new Promise((resolve) => {
        const c = spawn('curl', ['-s', '-S', '-H', 'Expect:', '-w', '\n%{http_code}', '--max-time', '1800', ...(uploadMbps > 0 ? ['--limit-rate', `${Math.round(uploadMbps * MB)}`] : []), ...curlArgs], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        curls.add(c);
        let out = '';
        let err = '';
        c.stdout.on('data', (d: Buffer) => (out += d.toString()));
        c.stderr.on('data', (d: Buffer) => (err += d.toString()));
        // 'close', not 'exit': at 'exit' curl's output may still be on its way, the status line with it.
        c.once('close', (code) => {
          curls.delete(c);
          const at = out.lastIndexOf('\n');
          const status = Number(out.slice(at + 1));
          if (code !== 0 || !status) resolve({ status: 0, body: '', failure: `curl exit ${code}${err ? `: ${err.trim().slice(0, 100)}` : ''}` });
          else resolve({ status, body: out.slice(0, at) });
        });
      });
    /** The same request through Node when there is no curl: a file between two buffers. */
    const nodeSend = (method: string, urlPath: string, headers: Record<string, string>, head: Buffer, tail: Buffer): Promise<{ status: number; body: string; failure?: string }> =>
      new Promise((resolve) => {
        const req = http.request(
          { host: '127.0.0.1', port, method, path: urlPath, agent: false, headers: { ...headers, 'content-length': String(head.length + clipSize + tail.length) } },
          (res) => {
            let body = '';
            res.on('data', (d: Buffer) => (body += d.toString()));
            res.on('end', () => resolve({ status: res.statusCode!, body }));
          },
        );
        req.on('error', (err) => resolve({ status: 0, body: '', failure: (err as NodeJS.ErrnoException).code ?? err.message }));
        req.write(head);
        const file = createReadStream(clip, { highWaterMark: MB });
        file.pipe(req, { end: false });
        file.on('end', () => req.end(tail));
      });
    const note = (label: string, r: { status: number; failure?: string }) => {
      uploadRequests.count++;
      if (r.failure) bump(uploadRequests.failures, `${label}: ${r.failure}`);
      else bump(uploadRequests.statuses, `${label} ${r.status}`);
    };

    const directUpload = async (token: string, n: number): Promise<string | null> => {
      const fields = { title: `Soak upload ${n}`, description: 'A 100 MB upload of the soak test.', category: 'tech' };
      let r;
      if (useCurl) {
        r = await curl([
          '-H', `Cookie: ${cookie(token)}`, '-H', `Origin: ${origin}`,
          ...Object.entries(fields).flatMap(([k, v]) => ['-F', `${k}=${v}`]),
          '-F', `video=@${clip};type=video/mp4`, '-F', `thumbnail=@${THUMBNAIL};type=image/jpeg`,
          `${origin}/api/videos`,
        ]);
      } else {
        const boundary = `----soak${Date.now()}${n}`;
        const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
        const head = Buffer.from(
          Object.entries(fields).map(([k, v]) => field(k, v)).join('') +
            `--${boundary}\r\nContent-Disposition: form-data; name="video"; filename="big.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
        );
        const tail = Buffer.concat([
          Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="thumbnail"; filename="t.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
          readFileSync(THUMBNAIL),
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]);
        r = await nodeSend('POST', '/api/videos', { 'content-type': `multipart/form-data; boundary=${boundary}`, cookie: cookie(token), origin }, head, tail);
      }
      note('POST /api/videos', r);
      return r.status === 201 ? ((JSON.parse(r.body) as { video: { id: string } }).video.id ?? null) : null;
    };

    const tus = { 'tus-resumable': '1.0.0' };
    const resumableUpload = async (token: string, n: number): Promise<string | null> => {
      const b64 = (s: string) => Buffer.from(s).toString('base64');
      const created = await send('POST', '/api/uploads', token, {
        headers: { ...tus, 'upload-length': String(clipSize), 'upload-metadata': `filename ${b64('soak.mp4')},filetype ${b64('video/mp4')}` },
      });
      note('POST /api/uploads', created);
      if (created.status !== 201) return null;
      const location = created.headers.get('location')!;
      const id = location.split('/').pop()!;
      const headers = { ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream', cookie: cookie(token), origin };
      const patched = useCurl
        ? await curl(['-X', 'PATCH', '-T', clip, ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]), `${origin}/api/uploads/${id}`])
        : await nodeSend('PATCH', `/api/uploads/${id}`, headers, Buffer.alloc(0), Buffer.alloc(0));
      note('PATCH /api/uploads/:id', patched);
      if (patched.status !== 204) {
        note('DELETE /api/uploads/:id', await send('DELETE', `/api/uploads/${id}`, token, { headers: tus }));
        return null;
      }
      const finished = await send('POST', '/api/videos/resumable', token, {
        body: form({ upload_id: id, title: `Soak resumable upload ${n}`, description: 'A 100 MB resumable upload of the soak test.', category: 'tech' }),
      });
      note('POST /api/videos/resumable', finished);
      return finished.status === 201 ? ((finished.json().video as { id: string }).id ?? null) : null;
    };

    let uploadNumber = 0;
    const uploadLoop = async (slot: number) => {
      const token = tokens[slot]!;
      // Started a little apart, so the uploads do not move in step.
      await sleep(slot * 1500);
      while (!stopping) {
        const n = ++uploadNumber;
        const kind = slot % 2 === 0 ? 'direct' : 'resumable';
        const start = performance.now();
        let id: string | null = null;
        try {
          id = kind === 'direct' ? await directUpload(token, n) : await resumableUpload(token, n);
        } catch (err) {
          bump(uploadRequests.failures, `${kind}: ${(err as Error).message.slice(0, 80)}`);
        }
        uploads.count++;
        if (id) {
          uploads.latencies.push(performance.now() - start);
          bump(uploads.statuses, `${kind} uploaded`);
          uploadedBytes += clipSize;
          minute.uploads++;
          minute.uploadBytes += clipSize;
          try {
            note('DELETE /api/videos/:id', await send('DELETE', `/api/videos/${id}`, token));
          } catch (err) {
            bump(uploadRequests.failures, `DELETE /api/videos/:id: ${(err as Error).message.slice(0, 80)}`);
          }
        } else {
          bump(uploads.failures, `${kind} not uploaded`);
          await sleep(2000);
        }
      }
    };

    // Captures: one at a time, single frames and threes in turn, under the per-IP limit.
    const captureLoop = async () => {
      let n = 0;
      while (!stopping) {
        const video = pick(content.demo);
        const frames = n++ % 2 === 0 ? 1 : 3;
        const time = () => Math.round(Math.random() * Math.max(0, video.seconds - 0.2) * 1000) / 1000;
        const body =
          frames === 1
            ? { url: '/api/capture-screenshot', json: { video_url: video.url, timestamp: time() } }
            : { url: '/api/capture-multiple-screenshots', json: { video_url: video.url, timestamps: [time(), time(), time()] } };
        const start = performance.now();
        captures.count++;
        try {
          const res = await fetch(`${origin}${body.url}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', origin },
            body: JSON.stringify(body.json),
            signal: AbortSignal.timeout(120_000),
          });
          await res.arrayBuffer();
          bump(captures.statuses, `${body.url} ${res.status}`);
          if (res.ok) {
            captures.latencies.push(performance.now() - start);
            captureFrames += frames;
            minute.captures++;
          }
          if (res.status === 429) await sleep(10_000);
        } catch (err) {
          bump(captures.failures, `${body.url}: ${(err as Error).name}`);
        }
        const next = start + (frames * 60_000) / CAPTURE_FRAMES_PER_MIN;
        while (!stopping && performance.now() < next) await sleep(Math.min(500, next - performance.now()));
      }
    };

    // A progress line every minute.
    const lagSince = (since: number) => mergedLag(server!.lag.filter((r) => r.at >= since), 0.99);
    const progress = () => {
      const m = minute;
      const secs = (performance.now() - m.started) / 1000;
      const last = rssSamples[rssSamples.length - 1]!;
      console.log(
        `[${fmt(elapsedMin(), 1).padStart(5)} min] reads ${fmt(m.reads.count / secs, 1)}/s p50 ${fmt(percentile(m.reads.latencies, 0.5), 1)} ms ` +
          `p99 ${fmt(percentile(m.reads.latencies, 0.99), 1)} ms | 5xx ${reads.fiveXx + uploadRequests.fiveXx + captures.fiveXx} ` +
          `no answer ${reads.failed + uploadRequests.failed + captures.failed}${dropped ? `, not sent ${dropped}` : ''} | uploads ${m.uploads} (${fmt(m.uploadBytes / MB / secs, 1)} MB/s) ` +
          `| captures ${m.captures} (429s so far ${[...captures.statuses].filter(([k]) => k.endsWith(' 429')).reduce((s, [, v]) => s + v, 0)}) ` +
          `| RSS ${fmt(total(last))} MB | lag p99 server ${fmt(lagSince(m.started), 1)} ms, client ${fmt(lagMs(clientLagMinute, 99), 1)} ms`,
      );
      clientLagMinute.reset();
      minute = { reads: new Tally(), uploads: 0, uploadBytes: 0, captures: 0, started: performance.now() };
    };
    const progressTimer = setInterval(progress, 60_000);

    let interrupted = false;
    const interrupt = () => {
      interrupted = true;
    };
    process.once('SIGINT', interrupt);
    const loops = [...Array.from({ length: uploadSlots }, (_, i) => uploadLoop(i)), captureLoop()];
    while (performance.now() - t0 < runMs && !interrupted && server.child.exitCode === null) await sleep(250);
    const endedAt = performance.now();
    stopping = true;
    clearInterval(scheduler);
    clearInterval(progressTimer);
    if (performance.now() - minute.started > 10_000) progress();
    sampleRss();
    clearInterval(rssTimer);
    const cpuEnd = new Map(server.pids().map((pid) => [pid, cpuSeconds(pid)]));
    const clientCpu = process.cpuUsage(clientCpuStart);
    const schedEnd = new Map([...schedStart.keys()].map((pid) => [pid, mainThreadSched(pid)]));
    const machineEnd = machineCpu();
    clientLag.disable();
    // The reads in flight finish; the uploads in flight finish too (up to 3 minutes), then are cut.
    const drainUntil = performance.now() + READ_TIMEOUT_MS + 1000;
    while (inFlight > 0 && performance.now() < drainUntil) await sleep(100);
    const cut = setTimeout(() => {
      for (const c of curls) c.kill('SIGTERM');
    }, 180_000);
    await Promise.all(loops);
    clearTimeout(cut);
    agent.destroy();
    process.removeListener('SIGINT', interrupt);
    const serverExit = server.child.exitCode;
    const loadEnd = os.loadavg();

    // --- the figures ------------------------------------------------------------------------------
    const ranMin = (endedAt - t0) / 60_000;
    const ranS = ranMin * 60;
    console.log('');
    console.log(`Ran ${fmt(ranMin, 2)} min${interrupted ? ' (interrupted)' : ''}${serverExit !== null ? ` — the server EXITED with ${serverExit}` : ''}.`);
    console.log(`Machine: ${cpus} CPUs, load average ${loadStart.map((l) => l.toFixed(2)).join(' ')} at the start, ${loadEnd.map((l) => l.toFixed(2)).join(' ')} at the end`);
    const cpuUsed = [...cpuEnd].reduce((s, [pid, c]) => s + c - (cpuStart.get(pid) ?? 0), 0);
    const clientUsed = (clientCpu.user + clientCpu.system) / 1e6;
    const machineBusy = (machineEnd.busy - machineStart.busy) / (machineEnd.total - machineStart.total);
    console.log(
      `CPU during the run: the machine ${fmt(machineBusy * 100, 0)} % busy (all ${cpus} CPUs, every process on it); ` +
        `the server ${fmt(cpuUsed, 0)} s (${fmt((cpuUsed / ranS) * 100, 0)} % of one CPU), the load generator ${fmt(clientUsed, 0)} s (${fmt((clientUsed / ranS) * 100, 0)} %) in ${fmt(ranS, 0)} s`,
    );
    // Time a main thread spent runnable but waiting for a CPU: the machine's doing, not the code's.
    const sched = (pid: number) => {
      const a = schedStart.get(pid)!;
      const b = schedEnd.get(pid)!;
      return `${fmt(b.onCpu - a.onCpu, 0)} s on a CPU, ${fmt(b.waiting - a.waiting, 0)} s runnable but waiting for one (${fmt(((b.waiting - a.waiting) / ranS) * 100, 0)} % of the run)`;
    };
    for (const pid of schedStart.keys()) {
      console.log(`  main thread of ${pid === process.pid ? 'the load generator' : `the server${workers !== null ? ` (pid ${pid})` : ''}`}: ${sched(pid)}`);
    }

    const readsSent = issued - dropped;
    console.log('');
    console.log(
      `Reads: ${issued} scheduled at ${rate}/s, ${readsSent} sent (${fmt(readsSent / ranS, 1)}/s achieved${dropped ? `; ${dropped} not sent, ${MAX_READS_IN_FLIGHT} being in flight then` : ''}), ` +
        `${reads.latencies.length} answered; ` +
        `p50 ${fmt(percentile(reads.latencies, 0.5), 1)} ms, p99 ${fmt(percentile(reads.latencies, 0.99), 1)} ms, max ${fmt(percentile(reads.latencies, 1), 0)} ms`,
    );
    console.log(`  statuses: ${listCounts(reads.statuses)}; failed (no answer): ${listCounts(reads.failures)}`);
    const after = reads.latencies.filter((_, i) => readTimes[i]! >= warmupMin);
    console.log(`  after the ${fmt(warmupMin, 1)} min warm-up: p50 ${fmt(percentile(after, 0.5), 1)} ms, p99 ${fmt(percentile(after, 0.99), 1)} ms`);
    console.log(`  ${'kind'.padEnd(18)} ${'count'.padStart(7)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)}  non-2xx / failed`);
    for (const k of KINDS) {
      const t = byKind.get(k.name)!;
      const bad = [...t.statuses].filter(([s]) => !s.startsWith('2'));
      console.log(
        `  ${k.name.padEnd(18)} ${String(t.count).padStart(7)} ${fmt(percentile(t.latencies, 0.5), 1).padStart(8)} ${fmt(percentile(t.latencies, 0.99), 1).padStart(8)}  ` +
          `${bad.length || t.failed ? `${listCounts(new Map(bad))} / ${t.failed}` : '-'}`,
      );
    }
    console.log(`  schedule slip (send time late against the plan): p99 ${fmt(percentile(slips, 0.99), 1)} ms, max ${fmt(percentile(slips, 1), 0)} ms`);

    console.log('');
    console.log(
      `Uploads: ${uploads.latencies.length} of ${uploads.count} finished (${listCounts(uploads.statuses)}), ${fmt(uploadedBytes / MB)} MB ` +
        `(${fmt(uploadedBytes / MB / ranS, 1)} MB/s overall, via ${useCurl ? 'curl' : 'Node'}); one upload p50 ${fmt(percentile(uploads.latencies, 0.5) / 1000, 1)} s, ` +
        `p99 ${fmt(percentile(uploads.latencies, 0.99) / 1000, 1)} s (${fmt(clipSize / MB, 1)} MB each)`,
    );
    console.log(`  requests: ${listCounts(uploadRequests.statuses)}; failed: ${listCounts(uploadRequests.failures)}; not uploaded: ${listCounts(uploads.failures)}`);
    console.log(
      `Captures: ${captures.count} requests, ${captureFrames} frames captured; ${listCounts(captures.statuses)}; failed: ${listCounts(captures.failures)}; ` +
        `p50 ${fmt(percentile(captures.latencies, 0.5))} ms, p99 ${fmt(percentile(captures.latencies, 0.99))} ms`,
    );

    // RSS: the total of the server's processes, and each with several.
    const fitted = rssSamples.filter((s) => s.t >= warmupMin);
    const fit = regression(fitted.map((s) => [s.t, total(s)]));
    const first = rssSamples[0]!;
    const lastSample = rssSamples[rssSamples.length - 1]!;
    console.log('');
    console.log(
      `RSS (${workers !== null ? 'all the server processes' : 'the server process'}): ${fmt(total(first))} MB at the start, ${fmt(total(lastSample))} MB at the end, ` +
        `peak ${fmt(Math.max(...rssSamples.map(total)))} MB; slope ${fmt(fit.slope, 2)} ± ${fmt(fit.stderr, 2)} MB/min over ${fit.n} samples after the first ${fmt(warmupMin, 1)} min`,
    );
    if (workers !== null) {
      for (const pid of new Set(rssSamples.flatMap((s) => [...s.byPid.keys()]))) {
        const f = regression(fitted.filter((s) => s.byPid.has(pid)).map((s) => [s.t, s.byPid.get(pid)!]));
        const values = rssSamples.flatMap((s) => (s.byPid.has(pid) ? [s.byPid.get(pid)!] : []));
        console.log(`  pid ${pid}${pid === server.child.pid ? ' (primary)' : ''}: ${fmt(values[0]!)} -> ${fmt(values[values.length - 1]!)} MB, slope ${fmt(f.slope, 2)} ± ${fmt(f.stderr, 2)} MB/min`);
      }
    }
    console.log(`  samples (min: MB): ${rssSamples.map((s) => `${fmt(s.t, 1)}: ${fmt(total(s))}`).join(', ')}`);
    // The JS heap apart from the RSS (from the server's own reports), to tell a leak of objects
    // from memory the allocator keeps or native buffers (uploads, the embedded database's).
    const memoryReports = server.lag.filter((r) => r.at >= t0 && r.at <= endedAt + 1500 && r.memory);
    for (const pid of new Set(memoryReports.map((r) => r.pid))) {
      const mine = memoryReports.filter((r) => r.pid === pid);
      const at = (r: (typeof mine)[number]) => (r.at - t0) / 60_000;
      const heap = regression(mine.filter((r) => at(r) >= warmupMin).map((r) => [at(r), r.memory.heap_used_mb]));
      const firstM = mine[0]!.memory;
      const lastM = mine[mine.length - 1]!.memory;
      console.log(
        `  ${workers !== null ? `pid ${pid}: ` : ''}JS heap used ${fmt(firstM.heap_used_mb)} -> ${fmt(lastM.heap_used_mb)} MB ` +
          `(peak ${fmt(Math.max(...mine.map((r) => r.memory.heap_used_mb)))} MB), slope ${fmt(heap.slope, 2)} ± ${fmt(heap.stderr, 2)} MB/min after the warm-up; ` +
          `external ${fmt(firstM.external_mb)} -> ${fmt(lastM.external_mb)} MB (array buffers ${fmt(firstM.array_buffers_mb)} -> ${fmt(lastM.array_buffers_mb)} MB)`,
      );
    }

    const runLag = server.lag.filter((r) => r.at >= t0 && r.at <= endedAt + 1500);
    const lagP99 = mergedLag(runLag, 0.99);
    console.log(
      `Server event-loop delay: p50 ${fmt(mergedLag(runLag, 0.5), 1)} ms, p99 ${fmt(lagP99, 1)} ms, max ${fmt(Math.max(...runLag.map((r) => r.max_ms)), 0)} ms ` +
        `(${runLag.reduce((s, r) => s + r.count, 0)} samples every ${SAMPLE_MS} ms, ${new Set(runLag.map((r) => r.pid)).size} process(es))`,
    );
    if (workers !== null) {
      for (const pid of new Set(runLag.map((r) => r.pid))) console.log(`  pid ${pid}: p99 ${fmt(mergedLag(runLag.filter((r) => r.pid === pid), 0.99), 1)} ms`);
    }
    const clientP99 = lagMs(clientLag, 99);
    console.log(
      `Client (load generator) event-loop delay: p99 ${fmt(clientP99, 1)} ms, max ${fmt(lagMs(clientLag, 100), 0)} ms` +
        `${clientP99 > 50 ? ' — the load generator itself was slow: the figures above are not the server alone' : ''}`,
    );
    console.log(`Server log: ${server.warnings} warnings, ${server.errors} errors${server.errorLines.length ? ` (first: ${server.errorLines[0]})` : ''}`);
    if (server.warningLines.length) console.log(`  first warnings: ${server.warningLines.join(' | ')}`);

    const fiveXx = reads.fiveXx + uploadRequests.fiveXx + captures.fiveXx;
    const failed = reads.failed + uploadRequests.failed + captures.failed;
    const readP99 = percentile(reads.latencies, 0.99);
    const results: Array<[boolean, string]> = [
      [fiveXx === 0 && failed === 0, `5xx answers: ${fiveXx} (reads ${reads.fiveXx}, uploads ${uploadRequests.fiveXx}, captures ${captures.fiveXx}); requests with no answer: ${failed} (target 0 of both)`],
      [readP99 < TARGETS.readP99Ms, `read p99: ${fmt(readP99, 1)} ms (target < ${TARGETS.readP99Ms} ms)`],
      [fit.slope < TARGETS.rssSlopeMbPerMin, `RSS slope: ${fmt(fit.slope, 2)} MB/min (target < ${TARGETS.rssSlopeMbPerMin} MB/min)`],
      [lagP99 < TARGETS.lagP99Ms, `server event-loop lag p99: ${fmt(lagP99, 1)} ms (target < ${TARGETS.lagP99Ms} ms)`],
    ];
    console.log('');
    console.log(`Achieved read rate: ${fmt(readsSent / ranS, 1)} req/s of ${rate} planned (${dropped} not sent); 429s from captures (counted apart): ${[...captures.statuses].filter(([k]) => k.endsWith(' 429')).reduce((s, [, v]) => s + v, 0)}`);
    for (const [ok, text] of results) console.log(`  ${ok ? 'PASS' : 'FAIL'}  ${text}`);
    const passed = results.filter(([ok]) => ok).length;
    console.log(`${passed} passed, ${results.length - passed} failed`);
    process.exitCode = passed === results.length ? 0 : 1;
  } finally {
    for (const c of curls) c.kill('SIGKILL');
    if (server) await stopServer(server);
    await rm(dataDir, { recursive: true, force: true });
    await scratch?.drop();
  }
}

main().then(
  () => process.exit(),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
