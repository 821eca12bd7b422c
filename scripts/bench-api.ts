/**
 * API throughput: autocannon, 50 connections for 10 s each, against GET /api/health (the
 * baseline) and GET /api/videos (a feed page of 20 cards), with the server in its own process
 * on the embedded PGlite and on PostgreSQL, measured in the same run.
 *
 *   npm run bench:api                      both databases
 *   BENCH_DB=pglite npm run bench:api      one of them
 *   BENCH_DATABASE_URL=postgres://...      the PostgreSQL server to use (a fresh database is made on it)
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { prepare } from '../api/bootstrap.ts';
import { loadConfig } from '../api/platform/config/config.ts';
import { createScratchDatabase } from '../api/platform/db/database.ts';
import { stopServer, waitHealthy } from './bench-support/server-process.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const CONNECTIONS = 50;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const PORT = 3190;
const PG_BASE = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const EXTRA_VIDEOS = 40;

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function load(url: string, duration: number): Promise<Figures> {
  const r = await autocannon({ url, connections: CONNECTIONS, duration, pipelining: 1 });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx };
}


async function run(kind: 'pglite' | 'postgres') {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'framemerch-bench-'));
  const scratch = kind === 'postgres' ? await createScratchDatabase(PG_BASE, 'framemerch_bench') : null;
  const databaseUrl = scratch?.url ?? '';
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    PORT: String(PORT),
    PUBLIC_URL: `http://127.0.0.1:${PORT}`,
    WEB_DIST: 'none',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    ADMIN_PASSWORD: 'bench admin password',
    DEMO_MEDIA_CACHE: path.join(ROOT, '.cache/demo-media'),
  };

  // Seed the demo content, then add rows so a feed page holds a full 20 cards.
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
  await prepared.database.close();

  const serve = (extra: Record<string, string> = {}) =>
    spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'api/server.ts')], { cwd: ROOT, env: { ...env, ...extra }, stdio: 'ignore' });
  let child = serve();
  try {
    await waitHealthy(`http://127.0.0.1:${PORT}`, child);
    const feedUrl = `http://127.0.0.1:${PORT}/api/videos?limit=20`;
    const page = (await (await fetch(feedUrl)).json()) as { videos: unknown[] };
    if (page.videos.length !== 20) throw new Error(`feed page has ${page.videos.length} cards, not 20`);
    await load(`http://127.0.0.1:${PORT}/api/health`, 2);
    const health = await load(`http://127.0.0.1:${PORT}/api/health`, DURATION_S);
    await load(feedUrl, 2);
    const feed = await load(feedUrl, DURATION_S);
    // The same feed with the read cache off: every request queries the database.
    await stopServer(child);
    child = serve({ READ_CACHE_MS: '0' });
    await waitHealthy(`http://127.0.0.1:${PORT}`, child);
    await load(feedUrl, 2);
    const uncached = await load(feedUrl, DURATION_S);
    return { kind, health, feed, uncached };
  } finally {
    await stopServer(child);
    await rm(dataDir, { recursive: true, force: true });
    await scratch?.drop();
  }
}

const kinds = (process.env.BENCH_DB ? [process.env.BENCH_DB] : ['pglite', 'postgres']) as Array<'pglite' | 'postgres'>;
console.log(`autocannon: ${CONNECTIONS} connections, ${DURATION_S} s per endpoint, server in its own process, log level ${process.env.BENCH_LOG_LEVEL ?? 'warn'}`);
let missed = false;
for (const kind of kinds) {
  const { health, feed, uncached } = await run(kind);
  const ratio = feed.rps / health.rps;
  const ok = ratio >= 0.4 && feed.p99 <= 25;
  missed ||= !ok;
  const row = (name: string, f: Figures) =>
    `  ${name.padEnd(30)} ${f.rps.toFixed(0).padStart(7)} req/s   p50 ${String(f.p50).padStart(3)} ms   p99 ${String(f.p99).padStart(3)} ms   errors ${f.errors + f.non2xx}`;
  console.log(`\n${kind}`);
  console.log(row('GET /api/health (baseline)', health));
  console.log(row('GET /api/videos (20 cards)', feed));
  console.log(row('  the same, read cache off', uncached));
  console.log(`  feed/health throughput ${(ratio * 100).toFixed(0)} % (target >= 40 %), feed p99 ${feed.p99} ms (target <= 25 ms): ${ok ? 'met' : 'NOT met'}`);
}
process.exit(missed && process.env.BENCH_STRICT ? 1 : 0);
