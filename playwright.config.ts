import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

/** A port nothing listens on now: the OS picks it, in a child process, since the config loads synchronously. */
function freePort(): string {
  const listen = "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { process.stdout.write(String(s.address().port)); s.close(); })";
  return execFileSync(process.execPath, ['-e', listen], { encoding: 'utf8' }).trim();
}

// The tests run beside whatever already listens (the app itself on its usual port, another run):
// a free port is chosen once, and the environment hands it to the workers, which load this file
// again, so the server and every baseURL agree. E2E_PORT names a port instead, with its own build.
if (!process.env.E2E_PORT) {
  process.env.E2E_PORT = freePort();
  process.env.E2E_PORT_CHOSEN = 'free';
}
const PORT = Number(process.env.E2E_PORT);

// Debian's chromium where present (no browser download is possible on a closed network);
// elsewhere Playwright's own browser.
const chromium = process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  workers: 2,
  // On CI a test that fails is run once more, and one that then passes is reported as flaky by
  // name in the summary (scripts/test-all.mjs), so it is seen and mended, while one test that
  // lost a race on a loaded machine does not skip the serial projects that depend on it.
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  globalSetup: './e2e/global-setup.ts',
  reporter: [['list'], ['json', { outputFile: '.cache/playwright-report.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'retain-on-failure',
    // The service worker would cache the whole build (32 MB of ffmpeg core) in every fresh
    // context and answer requests before page.route sees them; offline.spec.ts allows it.
    serviceWorkers: 'block',
    screenshot: 'only-on-failure',
    ...devices['Desktop Chrome'],
    launchOptions: {
      executablePath: chromium,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--autoplay-policy=no-user-gesture-required',
      ],
    },
  },
  // Specs that change what every page shows (the feed, the sidebar) run one after another,
  // after all the others, so no other spec sees the change half made.
  projects: [
    { name: 'chromium', testIgnore: '**/*.serial.spec.ts' },
    { name: 'uploads', testMatch: '**/upload.serial.spec.ts', dependencies: ['chromium'] },
    { name: 'deletions', testMatch: '**/admin-deletes-creator.serial.spec.ts', dependencies: ['uploads'] },
    { name: 'capture-accuracy', testMatch: '**/capture-accuracy*.spec.ts', dependencies: ['deletions'] },
    // A creator uploads the video the checkout journey buys from; beside capture-accuracy, which only uploads too.
    { name: 'checkout-journey', testMatch: '**/checkout.serial.spec.ts', dependencies: ['deletions'] },
    // Two creators upload videos and are paid (or not) by a payout run on the app's test clock.
    { name: 'payouts', testMatch: '**/payouts.serial.spec.ts', dependencies: ['deletions'] },
    // Creators upload 150 MB videos through the resumable path (Free refused, Pro accepted).
    { name: 'resumable-uploads', testMatch: '**/uploads-resumable.serial.spec.ts', dependencies: ['deletions'] },
    // Subscriptions move the app's clock days ahead (trials, renewals, retries): last, once nothing else is in flight.
    {
      name: 'subscriptions',
      testMatch: '**/subscriptions.serial.spec.ts',
      dependencies: ['capture-accuracy', 'checkout-journey', 'payouts', 'resumable-uploads'],
    },
    // The admin portal suspends a creator and sets the site-wide banner: after everything else.
    { name: 'admin-portal', testMatch: '**/admin-portal.serial.spec.ts', dependencies: ['subscriptions'] },
  ],
  webServer: {
    command: 'node scripts/e2e-server.mjs',
    url: `http://127.0.0.1:${PORT}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    env: { PORT: String(PORT), ...(process.env.E2E_PORT_CHOSEN === 'free' ? {} : { E2E_OWN_BUILD: '1' }) },
    // Stopped gently, so the server removes its data directory (named after the port) on the way out.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
  },
});
