import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 3100);

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
  ],
  webServer: {
    command: 'node scripts/e2e-server.mjs',
    url: `http://127.0.0.1:${PORT}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    env: { PORT: String(PORT) },
  },
});
