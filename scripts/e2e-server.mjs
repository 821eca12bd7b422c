// The server the end-to-end tests run against: the built app on a fresh data directory,
// seeded with the demo content (clips reused from the media cache).
import { rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dataDir = path.join(root, `.cache/e2e-data-${process.env.PORT ?? 3100}`);
rmSync(dataDir, { recursive: true, force: true });

const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${process.env.PORT ?? 3100}`,
    DATABASE_URL: '',
    LOG_LEVEL: 'warn',
    ADMIN_PASSWORD: 'e2e admin password',
    // Each port gets its own build, so two runs side by side never rebuild under each other.
    WEB_DIST: process.env.WEB_DIST ?? (process.env.PORT && process.env.PORT !== '3100' ? path.join(root, `.cache/web-${process.env.PORT}`) : path.join(root, 'dist/web')),
    DEMO_MEDIA_CACHE: path.join(root, '.cache/demo-media'),
    // The print-on-demand simulator takes a step a second and jobs are picked up at once, so an
    // order reaches shipped within the journey.
    POD_STEP_MS: process.env.POD_STEP_MS ?? '1000',
    JOB_POLL_MS: process.env.JOB_POLL_MS ?? '200',
  },
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => process.exit(code ?? 1));
