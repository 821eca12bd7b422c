/**
 * Scaling out: the platform as it runs in production (PostgreSQL, S3-compatible object storage,
 * `npm start` with WORKERS API processes on one port) with 1 and then 2 processes, in one run.
 * For each: the uncached feed (autocannon, GET /api/videos with READ_CACHE_MS=0, so every
 * request reads the database) and 200 buyers at once who open a checkout session, pay on the
 * embedded provider's hosted page, and wait for their order to reach the print shop; the
 * connections are spread over the processes by the port they share. Then the database is
 * counted: created, paid and fulfilled must each equal the number of buyers. Last, the ratio of
 * 2 processes to 1. The S3-compatible server (s3rver) and a scratch database per run are
 * started and removed by the script.
 *
 *   npm run bench:scale
 *   BENCH_PROCESSES=1,2,3         process counts to measure (the ratio is of the last to the first)
 *   BENCH_ORDERS=200              buyers per run
 *   BENCH_DURATION=10             seconds of feed load per run
 *   BENCH_DATABASE_URL=postgres://...   the PostgreSQL server (default: this machine's)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import S3rver from 's3rver';
import { prepare } from '../api/bootstrap.ts';
import { loadConfig } from '../api/platform/config/config.ts';
import { createScratchDatabase } from '../api/platform/db/database.ts';
import { freePort } from '../api/test/ports.ts';
import { countOrders, healthBurst, makeProduct, percentile, prepareShop, runCheckouts, sleep, type OrderCounts } from './bench-support/checkout-load.ts';
import { stopServer, waitHealthy } from './bench-support/server-process.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const PROCESSES = (process.env.BENCH_PROCESSES ?? '1,2').split(',').map(Number);
const ORDERS = Number(process.env.BENCH_ORDERS ?? 200);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 50;
const PG_BASE = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SKU = 'kiss-cut-stickers';
const EXTRA_VIDEOS = 40;
const TIMEOUT_MS = 600_000;

interface Run {
  processes: number;
  started: number;
  feed: { rps: number; p50: number; p99: number; errors: number };
  health: { rps: number; p99: number };
  checkoutP50: number;
  checkoutP99: number;
  floorP99: number;
  checkoutAndPayS: number;
  wallS: number;
  counts: OrderCounts;
  failures: string[];
}

async function autocannonLoad(url: string, duration: number) {
  const r = await autocannon({ url, connections: CONNECTIONS, duration, pipelining: 1 });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts + r.non2xx };
}



async function run(processes: number): Promise<Run> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'framemerch-bench-scale-'));
  const s3dir = await mkdtemp(path.join(os.tmpdir(), 'framemerch-bench-s3-'));
  const s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3dir, configureBuckets: [{ name: 'framemerch', configs: [] }] });
  const { port: s3port } = await s3.run();
  const scratch = await createScratchDatabase(PG_BASE, 'framemerch_scale');
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    WORKERS: String(processes),
    DATABASE_URL: scratch.url,
    S3_ENDPOINT: `http://127.0.0.1:${s3port}`,
    S3_BUCKET: 'framemerch',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    DATA_DIR: dataDir,
    PORT: String(port),
    PUBLIC_URL: origin,
    WEB_DIST: 'none',
    READ_CACHE_MS: '0',
    // Every bench buyer comes from 127.0.0.1.
    CHECKOUT_LIMIT_LOOPBACK: 'false',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    ADMIN_PASSWORD: 'bench admin password',
    DEMO_MEDIA_CACHE: path.join(ROOT, '.cache/demo-media'),
    POD_STEP_MS: '200',
    JOB_POLL_MS: '50',
    STRIPE_SECRET_KEY: '',
    STRIPE_WEBHOOK_SECRET: '',
    PRINTFUL_API_KEY: '',
  };
  let child: ChildProcess | null = null;
  try {
    // The demo content (its media into S3), rows enough for full feed pages, and the shop's setup.
    const prepared = await prepare(loadConfig(env), {});
    const db = prepared.database.db;
    const owner = await db.selectFrom('users').select('id').where('role', '=', 'creator').executeTakeFirstOrThrow();
    for (let i = 0; i < EXTRA_VIDEOS; i++) {
      await db
        .insertInto('videos')
        .values({
          user_id: owner.id,
          title: `Bench video ${i}`,
          category: 'gaming',
          category_id: 1,
          video_key: `bench/video-${i}.mp4`,
          thumbnail_key: `bench/video-${i}.jpg`,
          content_type: 'video/mp4',
          size_bytes: 1000,
          duration_ms: 3000,
          created_at: new Date(Date.now() - i * 60_000),
        })
        .execute();
    }
    const shop = await prepareShop(db, prepared.catalogue, SKU);
    await prepared.database.close();

    let out = '';
    child = spawn(process.execPath, [path.join(ROOT, 'scripts/start.mjs')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    await waitHealthy(origin, child);
    for (let i = 0; i < 600 && (out.match(/serving on/g) ?? []).length < processes; i++) await sleep(200);
    const started = (out.match(/serving on/g) ?? []).length;

    const feedUrl = `${origin}/api/videos?limit=20`;
    const page = (await (await fetch(feedUrl)).json()) as { videos: unknown[] };
    if (page.videos.length !== 20) throw new Error(`feed page has ${page.videos.length} cards, not 20`);
    await autocannonLoad(`${origin}/api/health`, 2);
    const health = await autocannonLoad(`${origin}/api/health`, DURATION_S);
    await autocannonLoad(feedUrl, 2);
    const feed = await autocannonLoad(feedUrl, DURATION_S);

    const productId = await makeProduct(origin, shop);
    const floor = await healthBurst(origin, ORDERS);
    const result = await runCheckouts({ origin, buyers: ORDERS, productId, variant: shop.variant, tag: `scale${processes}`, pay: { mode: 'page' }, timeoutMs: TIMEOUT_MS });
    await stopServer(child);
    const latencies = result.checkouts.map((c) => c.latencyMs).sort((a, b) => a - b);
    return {
      processes,
      started,
      feed,
      health: { rps: health.rps, p99: health.p99 },
      checkoutP50: percentile(latencies, 50),
      checkoutP99: percentile(latencies, 99),
      floorP99: percentile(floor, 99),
      checkoutAndPayS: result.checkoutAndPayS,
      wallS: result.wallS,
      counts: await countOrders({ url: scratch.url }),
      failures: result.failures,
    };
  } finally {
    if (child) await stopServer(child);
    await scratch.drop().catch(() => {});
    await s3.close().catch(() => {});
    await rm(dataDir, { recursive: true, force: true });
    await rm(s3dir, { recursive: true, force: true });
  }
}

console.log(
  `bench:scale: PostgreSQL + S3 (s3rver), npm start with ${PROCESSES.join(' then ')} API processes on one port, ${os.cpus().length} cores; ` +
    `feed: autocannon ${CONNECTIONS} connections ${DURATION_S} s, read cache off; checkout: ${ORDERS} buyers at once, paid on the hosted page`,
);
const runs: Run[] = [];
let bad = false;
for (const n of PROCESSES) {
  const r = await run(n);
  runs.push(r);
  const ms = (v: number) => `${v.toFixed(0)} ms`;
  const ok = (v: number) => (v === ORDERS ? 'OK' : 'MISMATCH');
  console.log(`\n${n} process${n > 1 ? 'es' : ''} (${r.started} started)`);
  console.log(`  GET /api/health                 ${r.health.rps.toFixed(0).padStart(6)} req/s   p99 ${ms(r.health.p99)}`);
  console.log(`  GET /api/videos, uncached       ${r.feed.rps.toFixed(0).padStart(6)} req/s   p50 ${ms(r.feed.p50)}   p99 ${ms(r.feed.p99)}   errors ${r.feed.errors}`);
  console.log(`  checkout sessions               p50 ${ms(r.checkoutP50)}   p99 ${ms(r.checkoutP99)}   (GET /api/health ${ORDERS} at once: p99 ${ms(r.floorP99)})`);
  console.log(`  created ${r.counts.orders} ${ok(r.counts.orders)}   paid ${r.counts.paidOrders} ${ok(r.counts.paidOrders)} (paid transitions ${r.counts.paidTransitions})   fulfilled ${r.counts.fulfilled} ${ok(r.counts.fulfilled)} (print-shop submissions ${r.counts.submissions})   emails ${r.counts.emails}`);
  console.log(`  all created and paid after ${r.checkoutAndPayS.toFixed(1)} s; all fulfilled after ${r.wallS.toFixed(1)} s`);
  const counted = [r.counts.orders, r.counts.paidOrders, r.counts.paidTransitions, r.counts.fulfilled, r.counts.submissions, r.counts.emails];
  if (r.started !== n || counted.some((v) => v !== ORDERS) || r.feed.errors > 0 || r.failures.length > 0) bad = true;
  if (r.failures.length > 0) console.log(`  ${r.failures.length} failures, first: ${r.failures.slice(0, 3).join(' | ')}`);
}
if (runs.length > 1) {
  const first = runs[0]!;
  const last = runs[runs.length - 1]!;
  const x = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
  console.log(`\n${last.processes} processes against ${first.processes}:`);
  console.log(`  uncached feed throughput ${x(last.feed.rps, first.feed.rps)}, p99 ${first.feed.p99} -> ${last.feed.p99} ms`);
  console.log(`  checkout session p99 ${first.checkoutP99.toFixed(0)} -> ${last.checkoutP99.toFixed(0)} ms`);
  console.log(`  orders created and paid per second ${x(first.checkoutAndPayS, last.checkoutAndPayS)} (${first.checkoutAndPayS.toFixed(1)} -> ${last.checkoutAndPayS.toFixed(1)} s for all)`);
  console.log(`  orders fulfilled per second ${x(first.wallS, last.wallS)} (${first.wallS.toFixed(1)} -> ${last.wallS.toFixed(1)} s for all)`);
}
console.log(`\n${bad ? 'some counts did not match (see above)' : 'every count matched'}`);
process.exit(bad ? 1 : 0);
