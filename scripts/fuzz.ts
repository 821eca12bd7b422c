/**
 * The long schema-driven fuzz: the server in its own process (real HTTP on 127.0.0.1, embedded
 * PGlite, a fresh data folder), and requests made from its own OpenAPI document
 * (api/test/fuzz/) sent to it as a signed-out visitor, a creator and an admin. Prints the answers
 * by status class, every 5xx and every answer slower than 5 s, the server's memory (RSS) and open
 * files before and after, and "N passed, N failed" (passed: answered, not 5xx, within 5 s).
 * Exits 1 on any failure.
 *
 *   npm run fuzz                                  20,000 requests, a random seed (printed)
 *   npm run fuzz -- --requests 5000 --seed 2206   replays a run
 *   npm run fuzz -- --concurrency 8               requests in flight at once (default 4)
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { prepare } from '../api/bootstrap.ts';
import { openStorage } from '../api/integrations/s3/index.ts';
import { loadConfig } from '../api/platform/config/config.ts';
import { createSession } from '../api/platform/sessions/sessions.ts';
import { prepareFuzz } from '../api/test/fuzz/fuzz-setup.ts';
import { runFuzz, type Actor, type Finding } from '../api/test/fuzz/run-fuzz.ts';
import { stopServer, waitHealthy } from './bench-support/server-process.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const PORT = 3197;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const SLOW_MS = 5000;
/** Sessions made per signed-in actor before the start: one is used up each time the fuzz signs out. */
const SESSIONS_EACH = 1000;

const { values: args } = parseArgs({
  options: {
    requests: { type: 'string', default: '20000' },
    seed: { type: 'string', default: String(Math.floor(Math.random() * 2 ** 31)) },
    concurrency: { type: 'string', default: '4' },
  },
});
const requests = Number(args.requests);
const seed = Number(args.seed);
const concurrency = Number(args.concurrency);
if (![requests, seed, concurrency].every((n) => Number.isInteger(n) && n >= 0) || concurrency < 1) {
  console.error('usage: npm run fuzz -- [--requests N] [--seed S] [--concurrency C]');
  process.exit(2);
}

/** The server process's resident memory and open files, from /proc. */
function serverFootprint(pid: number): { rssMb: number; openFiles: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? NaN);
  return { rssMb: Math.round(rssKb / 1024), openFiles: readdirSync(`/proc/${pid}/fd`).length };
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'framemerch-fuzz-'));
const env: Record<string, string> = {
  ...(process.env as Record<string, string>),
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  PORT: String(PORT),
  PUBLIC_URL: ORIGIN,
  WEB_DIST: 'none',
  SEED_DEMO: 'false',
  LOG_LEVEL: 'warn',
  ADMIN_PASSWORD: 'fuzz admin password',
  // Every request comes from 127.0.0.1: loopback is not held to the per-address sign-in and checkout limits.
  AUTH_LIMIT_LOOPBACK: 'false',
  CHECKOUT_LIMIT_LOOPBACK: 'false',
  STRIPE_SECRET_KEY: '',
  STRIPE_WEBHOOK_SECRET: '',
  PRINTFUL_API_KEY: '',
};

// The actors and the things they aim at, made in the database before the server opens it.
const config = loadConfig(env);
const prepared = await prepare(config, {});
const db = prepared.database.db;
const setup = await prepareFuzz(db, await openStorage(config));
const pool = async (userId: string) => {
  const tokens: string[] = [];
  for (let i = 0; i < SESSIONS_EACH; i++) tokens.push((await createSession(db, userId, 1, {})).token);
  return tokens;
};
const creatorSessions = await pool(setup.creatorId);
const adminSessions = await pool(setup.adminId);
await prepared.database.close();
const nextOf = (name: string, tokens: string[]) => async () => {
  const token = tokens.shift();
  if (!token) throw new Error(`the ${name} has signed out more than ${SESSIONS_EACH} times`);
  return token;
};
const actors: Actor[] = [
  { name: 'signed out', session: null },
  { name: 'creator', session: nextOf('creator', creatorSessions) },
  { name: 'admin', session: nextOf('admin', adminSessions) },
];

const logPath = path.join(dataDir, 'server.log');
const log = openSync(logPath, 'a');
const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'api/server.ts')], { cwd: ROOT, env, stdio: ['ignore', log, log] });
closeSync(log);

let failed = true;
try {
  await waitHealthy(ORIGIN, child);
  const before = serverFootprint(child.pid!);
  console.log(`fuzz: ${requests} requests, seed ${seed}, ${concurrency} at a time, server pid ${child.pid} on ${ORIGIN}`);
  const started = performance.now();
  const counts = await runFuzz({
    target: { baseUrl: ORIGIN },
    seed,
    requests,
    timeoutMs: SLOW_MS,
    actors,
    known: setup.known,
    origin: ORIGIN,
    concurrency,
    onProgress: (done) => {
      if (done % 5000 === 0) console.log(`  ${done} sent`);
    },
  });
  const seconds = (performance.now() - started) / 1000;
  const after = serverFootprint(child.pid!);
  const tried = Object.keys(counts.byOperation).length;
  console.log(`\n${counts.total} requests in ${seconds.toFixed(0)} s over ${tried} of ${counts.operations} operations`);
  for (const [cls, n] of Object.entries(counts.byClass).sort()) console.log(`  ${cls.padEnd(4)} ${n}`);
  const show = (title: string, list: Finding[]) => {
    console.log(`${list.length} ${title}`);
    for (const f of list.slice(0, 20)) {
      console.log(`  ${f.status} ${f.ms} ms as ${f.actor}: ${f.method} ${f.url}\n    headers: ${JSON.stringify(f.headers)}\n    body: ${f.body}\n    answer: ${f.response}`);
    }
  };
  show('5xx', counts.serverErrors);
  show(`over ${SLOW_MS / 1000} s`, counts.slow);
  show('unanswered', counts.unanswered);
  console.log(`server RSS ${before.rssMb} MB before, ${after.rssMb} MB after; open files ${before.openFiles} before, ${after.openFiles} after`);
  console.log(`${counts.passed} passed, ${counts.failed} failed`);
  failed = counts.failed > 0;
} finally {
  await stopServer(child);
  if (failed) console.log(`server log kept: ${logPath}`);
  else await rm(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
