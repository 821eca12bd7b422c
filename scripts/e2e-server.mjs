// The server the end-to-end tests run against: the built app on a fresh data directory,
// seeded with the demo content (clips reused from the media cache).
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
// playwright.config.ts chooses the port (a free one unless E2E_PORT names one) and passes it as PORT.
const port = process.env.PORT;
if (!port) throw new Error('PORT is not set: start the e2e server through playwright.config.ts');
const dataDir = path.join(root, `.cache/e2e-data-${port}`);
rmSync(dataDir, { recursive: true, force: true });

function newest(p) {
  if (!existsSync(p)) return 0;
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  let max = s.mtimeMs;
  for (const e of readdirSync(p)) if (e !== 'node_modules') max = Math.max(max, newest(path.join(p, e)));
  return max;
}

/** Whether dist/web is as new as its sources (the rule scripts/start.mjs rebuilds by). */
function sharedBuildFresh() {
  const built = path.join(root, 'dist/web/index.html');
  const sources = ['web', 'shared', 'workers', 'public', 'vite.config.ts', 'package-lock.json'].map((p) => path.join(root, p));
  return existsSync(built) && Math.max(...sources.map(newest)) <= statSync(built).mtimeMs;
}

// Runs may go side by side (each on its own port), so none rebuilds a folder another serves:
// a run on a port named by E2E_PORT keeps its own build for next time; a run on a free port
// serves dist/web when it is fresh, and otherwise builds a folder of its own, removed at the end.
const privateBuild = path.join(root, `.cache/web-${port}`);
const webDist = process.env.WEB_DIST ?? (process.env.E2E_OWN_BUILD || !sharedBuildFresh() ? privateBuild : path.join(root, 'dist/web'));
const removeBuild = !process.env.WEB_DIST && !process.env.E2E_OWN_BUILD && webDist === privateBuild;

const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: '',
    LOG_LEVEL: 'warn',
    ADMIN_PASSWORD: 'e2e admin password',
    // Every account the tests sign up comes from 127.0.0.1: loopback is not held to the
    // per-address sign-up and sign-in limits (the per-account ones still apply).
    AUTH_LIMIT_LOOPBACK: 'false',
    WEB_DIST: webDist,
    DEMO_MEDIA_CACHE: path.join(root, '.cache/demo-media'),
    // The print-on-demand simulator takes a step a second and jobs are picked up at once, so an
    // order reaches shipped within the journey.
    POD_STEP_MS: process.env.POD_STEP_MS ?? '1000',
    JOB_POLL_MS: process.env.JOB_POLL_MS ?? '200',
    // The payout journey moves the app's clock to next month's 1st (as an admin may with a test
    // clock) to run that period, and its PayPal payout settles a moment later.
    TEST_CLOCK: 'true',
    EMBEDDED_PAYOUT_SETTLE_MS: process.env.EMBEDDED_PAYOUT_SETTLE_MS ?? '300',
  },
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => {
  // A free port is new each run, so what is named after it would pile up under .cache.
  rmSync(dataDir, { recursive: true, force: true });
  if (removeBuild) rmSync(webDist, { recursive: true, force: true });
  process.exit(code ?? 1);
});
