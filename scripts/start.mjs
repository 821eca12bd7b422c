// Starts the whole platform on one port: builds the web app when it is missing or older
// than its sources, then runs the API server (WORKERS processes of it, 1 unless set), which
// also serves the built app. A process that stops after it served is replaced.
import { spawnSync } from 'node:child_process';
import cluster from 'node:cluster';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
// WEB_DIST names where the built app lives (dist/web unless set); 'none' serves no web app.
const webDist = path.resolve(root, process.env.WEB_DIST && process.env.WEB_DIST !== 'none' ? process.env.WEB_DIST : 'dist/web');
const built = path.join(webDist, 'index.html');

function newest(p) {
  if (!existsSync(p)) return 0;
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  let max = s.mtimeMs;
  for (const e of readdirSync(p)) if (e !== 'node_modules') max = Math.max(max, newest(path.join(p, e)));
  return max;
}

const sources = ['web', 'shared', 'workers', 'public', 'vite.config.ts', 'package-lock.json'].map((p) => path.join(root, p));
const stale = !existsSync(built) || Math.max(...sources.map(newest)) > statSync(built).mtimeMs;
if (stale && process.env.WEB_DIST !== 'none') {
  console.log('Building the web app...');
  const r = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn', '--outDir', webDist], {
    cwd: root,
    stdio: 'inherit',
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

// WORKERS API processes share the port (node:cluster hands each connection to one of them).
// They keep nothing that must be shared in their own memory (sessions, limits, caches, jobs and
// the embedded providers live in the database), so more than one needs a PostgreSQL server:
// the embedded PGlite belongs to one process.
const workers = process.env.WORKERS === undefined || process.env.WORKERS === '' ? 1 : Number(process.env.WORKERS);
if (!Number.isInteger(workers) || workers < 1 || workers > 64) {
  console.error(`WORKERS must be a whole number from 1 to 64 (got "${process.env.WORKERS}").`);
  process.exit(2);
}
if (workers > 1 && !process.env.DATABASE_URL) {
  console.error('WORKERS above 1 needs DATABASE_URL: the embedded database serves one process.');
  process.exit(2);
}

cluster.setupPrimary({ exec: path.join(root, 'api/server.ts'), execArgv: ['--import', 'tsx'] });
const env = { NODE_ENV: process.env.NODE_ENV ?? 'production', WORKERS: String(workers) };
let stopping = false;
let failure = 0;

/** Starts one process and answers whether it came to listen (false: it exited before). */
function fork() {
  const worker = cluster.fork(env);
  return new Promise((resolve) => {
    worker.once('listening', () => {
      worker.listened = true;
      resolve(true);
    });
    worker.once('exit', (code, signal) => {
      if (!worker.listened) resolve(false);
      if (stopping) return;
      if (!worker.listened) {
        // It never served: a setting or the database is wrong, and another would fail the same way.
        failure = code || 1;
        stop('SIGTERM');
        return;
      }
      console.error(`API process ${worker.process.pid} stopped (${signal ?? `exit code ${code}`}); starting another.`);
      void fork();
    });
  });
}

const alive = () => Object.values(cluster.workers ?? {}).filter((w) => w && !w.isDead());

/** Asks every process to finish (each closes gracefully) and exits once the last has. */
function stop(signal) {
  const first = !stopping;
  stopping = true;
  const left = alive();
  if (left.length === 0) process.exit(failure);
  // Once: a second signal would end a process before it has finished closing.
  if (first) for (const w of left) w.process.kill(signal);
}

for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => stop('SIGTERM'));
cluster.on('exit', () => {
  if (stopping && alive().length === 0) process.exit(failure);
});

// The first process migrates and seeds an empty database alone; the others start once it serves.
if (await fork()) {
  await Promise.all(Array.from({ length: workers - 1 }, fork));
}
