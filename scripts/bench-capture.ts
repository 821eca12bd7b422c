/**
 * Capture latency as a viewer feels it: from the click on Select Screenshot to the new screenshot
 * decoded in its slot, measured inside the page (a capturing click listener and a MutationObserver
 * on the screenshots list, both on performance.now()), on the built app served by its own server
 * with a fresh data directory, in headless chromium. Paths: canvas at 720p and 1080p, ffmpeg.wasm
 * cold (a fresh browser context: core download and start included) and warm, and the server.
 *
 *   npm run bench:capture
 *
 * A benchmark, not a test: it prints figures beside their targets.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { chromium, request as playwrightRequest, type Browser, type Page } from '@playwright/test';
import { createSession } from '../api/auth/sessions.ts';
import { openDatabase } from '../api/db/database.ts';
import { migrate } from '../api/db/migrate.ts';
import { createUser } from '../api/services/accounts.ts';
import { uploadQaClip, type UploadedClip } from '../e2e/support/qaUpload.ts';
import { makeTestMedia } from './make-test-media.ts';
import { makeQaClips, QA_CLIPS } from './qa-clips.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const WEB_DIST = path.join(ROOT, '.cache/web-bench-capture');
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 15);
const COLD_SAMPLES = Number(process.env.BENCH_COLD_SAMPLES ?? 4);
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

async function startServer(dataDir: string, port: number): Promise<ChildProcess> {
  // scripts/start.mjs builds the app into WEB_DIST when it is missing or older than its sources.
  const server = spawn(process.execPath, [path.join(ROOT, 'scripts/start.mjs')], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${port}`, WEB_DIST, LOG_LEVEL: 'warn', SEED_DEMO: 'false', DATABASE_URL: '' },
  });
  for (let i = 0; ; i++) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return server;
    } catch {
      if (i > 1500) throw new Error('the server did not start');
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Records click-to-slot-filled times in the page: window.captureBench.samples. Given as source
 * text, so the runner's transpiler adds no helpers of its own to code that runs in the page.
 */
const INSTRUMENT = `(() => {
  const list = document.querySelector('ul[aria-label="Screenshots"]');
  if (!list) throw new Error('no screenshots list');
  const state = { clickAt: 0, expect: 0, samples: [], done: new Set() };
  window.captureBench = state;
  document.addEventListener('click', (e) => {
    const button = e.target instanceof Element ? e.target.closest('button') : null;
    if (!button || button.textContent.trim() !== 'Select Screenshot') return;
    state.clickAt = performance.now();
    state.expect = list.querySelectorAll('img').length + 1;
  }, true);
  new MutationObserver(() => {
    if (!state.clickAt) return;
    const img = list.querySelector('img[alt="Screenshot ' + state.expect + '"]');
    if (!img || !img.src.startsWith('blob:') || state.done.has(img.src)) return;
    state.done.add(img.src);
    const clickAt = state.clickAt;
    state.clickAt = 0;
    img.decode().then(() => state.samples.push(performance.now() - clickAt));
  }).observe(list, { subtree: true, childList: true, attributes: true, attributeFilter: ['src'] });
})()`;

async function instrument(page: Page): Promise<void> {
  await page.evaluate(INSTRUMENT);
}

async function openVideo(page: Page, base: string, video: UploadedClip, query = ''): Promise<void> {
  await page.goto(`${base}${video.pagePath}${query}`);
  await page.locator('ul[aria-label="Screenshots"] img[alt="Screenshot 1"]').waitFor();
  await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 2);
  // Slots left over from an earlier visit (the pending merch is kept) are cleared, down to the thumbnail.
  while ((await page.locator('ul[aria-label="Screenshots"] img').count()) > 1) {
    await page.getByRole('button', { name: /^Delete screenshot \d+$/ }).last().click();
  }
  await instrument(page);
}

/** One capture of a different paused frame each time: the in-page milliseconds and the path that made it. */
async function captureOnce(page: Page, video: UploadedClip, i: number): Promise<{ ms: number; source: string | null }> {
  const { fps, seconds } = video.clip;
  const frame = 5 + ((i * 7) % (fps * seconds - 10));
  await page.locator('video').evaluate(
    (v: HTMLVideoElement, t) =>
      new Promise<void>((resolve) => {
        v.pause();
        v.requestVideoFrameCallback(() => resolve());
        v.currentTime = t;
      }),
    (frame + 0.5) / fps,
  );
  const count = await page.evaluate(() => (window as unknown as { captureBench: { samples: number[] } }).captureBench.samples.length);
  await page.getByRole('button', { name: 'Select Screenshot', exact: true }).click();
  const handle = await page.waitForFunction(
    (n) => (window as unknown as { captureBench: { samples: number[] } }).captureBench.samples[n],
    count,
    { timeout: 60_000 },
  );
  const ms = (await handle.jsonValue()) as number;
  const source = await page.locator('ul[aria-label="Screenshots"] img').last().getAttribute('data-source');
  await page.getByRole('button', { name: /^Delete screenshot \d+$/ }).last().click();
  await page.waitForFunction(() => document.querySelectorAll('ul[aria-label="Screenshots"] img').length === 1);
  return { ms, source };
}

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

interface Row {
  name: string;
  samples: number[];
}

async function series(browser: Browser, base: string, video: UploadedClip, query: string, expected: string, n: number, warmup: number): Promise<number[]> {
  // Without the service worker: a cold start then fetches the ffmpeg core from the server, as a
  // first visit does, and no background precaching competes with the measurement.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
  const page = await context.newPage();
  page.on('console', (m) => m.text().startsWith('Screenshot:') && console.log(`  (page) ${m.text()}`));
  await openVideo(page, base, video, query);
  const out: number[] = [];
  for (let i = 0; i < warmup + n; i++) {
    const { ms, source } = await captureOnce(page, video, i);
    // Every capture must come from the path measured.
    if (source !== expected) throw new Error(`${video.clip.name}${query}: a capture came from ${source}, not ${expected}`);
    if (i >= warmup) out.push(ms);
  }
  await context.close();
  return out;
}

async function main() {
  await makeTestMedia();
  await makeQaClips();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  await mkdir(path.join(ROOT, '.cache/bench'), { recursive: true });
  const dataDir = await mkdtemp(path.join(ROOT, '.cache/bench/capture-'));
  const db = await openDatabase({ dataDir: path.join(dataDir, 'pglite') });
  await migrate(db.db);
  const user = await createUser(db.db, { email: 'bench-capture@example.com', displayName: 'Bench', role: 'creator', emailVerified: true });
  const { token } = await createSession(db.db, user.id, 1, {});
  await db.close();

  console.log('Starting the built app (building it first when its sources changed)...');
  const server = await startServer(dataDir, port);
  let browser: Browser | null = null;
  try {
    const api = await playwrightRequest.newContext({ baseURL: base, extraHTTPHeaders: { cookie: `fm_session=${token}`, origin: base } });
    const clip720 = await uploadQaClip(api, QA_CLIPS.find((c) => c.name === 'h264-720p30.mp4')!);
    const clip1080 = await uploadQaClip(api, QA_CLIPS.find((c) => c.name === 'h264-1080p30.mp4')!);
    await api.dispose();
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });

    const rows: Row[] = [];
    console.log(`Measuring (${SAMPLES} samples a path, ${COLD_SAMPLES} cold wasm starts)...`);
    rows.push({ name: 'canvas 720p', samples: await series(browser, base, clip720, '', 'canvas', SAMPLES, 2) });
    rows.push({ name: 'canvas 1080p', samples: await series(browser, base, clip1080, '', 'canvas', SAMPLES, 2) });
    const cold: number[] = [];
    for (let i = 0; i < COLD_SAMPLES; i++) cold.push(...(await series(browser, base, clip720, '?capture=wasm', 'wasm', 1, 0)));
    rows.push({ name: 'ffmpeg.wasm cold 720p', samples: cold });
    rows.push({ name: 'ffmpeg.wasm warm 720p', samples: await series(browser, base, clip720, '?capture=wasm', 'wasm', SAMPLES, 1) });
    rows.push({ name: 'ffmpeg.wasm warm 1080p', samples: await series(browser, base, clip1080, '?capture=wasm', 'wasm', SAMPLES, 1) });
    rows.push({ name: 'server 720p', samples: await series(browser, base, clip720, '?capture=server', 'server', SAMPLES, 1) });
    rows.push({ name: 'server 1080p', samples: await series(browser, base, clip1080, '?capture=server', 'server', SAMPLES, 1) });

    const stats = new Map(rows.map((r) => {
      const sorted = [...r.samples].sort((a, b) => a - b);
      return [r.name, { n: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95) }];
    }));
    console.log('\nClick on Select Screenshot to the new screenshot decoded in its slot (ms, in the page; service worker off):');
    for (const [name, s] of stats) console.log(`  ${name.padEnd(24)} p50 ${s.p50.toFixed(0).padStart(6)}   p95 ${s.p95.toFixed(0).padStart(6)}   (n=${s.n})`);
    const canvas1080 = stats.get('canvas 1080p')!;
    const server1080 = stats.get('server 1080p')!;
    const warm = stats.get('ffmpeg.wasm warm 720p')!;
    const targets = [
      [`canvas 1080p p50 <= 50 ms`, `${canvas1080.p50.toFixed(0)} ms`, canvas1080.p50 <= 50],
      [`canvas >= 10x faster than the server (1080p p50)`, `${(server1080.p50 / canvas1080.p50).toFixed(1)}x`, server1080.p50 >= 10 * canvas1080.p50],
      [`ffmpeg.wasm warm p50 <= 250 ms (720p)`, `${warm.p50.toFixed(0)} ms`, warm.p50 <= 250],
    ] as const;
    console.log('\nTargets:');
    for (const [what, got, met] of targets) console.log(`  ${what.padEnd(50)} ${got.padStart(8)}   ${met ? 'met' : 'NOT met'}`);
  } finally {
    await browser?.close();
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
