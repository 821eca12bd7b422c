/**
 * Capture latency as a viewer feels it: from the click on Select Screenshot to the new screenshot
 * painted in its slot, and, beside it, to the full-resolution image stored in the pending merch
 * record (IndexedDB), which a canvas capture finishes after its slot shows a preview. Measured
 * inside the page (see INSTRUMENT), on the built app served by its own server with a fresh data
 * directory, in headless chromium. Paths: canvas at 720p and 1080p, ffmpeg.wasm
 * cold (a fresh browser context: core download and start included) and warm, and the server.
 *
 *   npm run bench:capture
 *
 * A benchmark, not a test: it prints figures beside their targets. Diagnostics: BENCH_ONLY=canvas
 * (and the like) measures some paths only; BENCH_VERBOSE=1 prints every sample; BENCH_TRACE=1
 * writes a chromium trace of each series' last capture to .cache/bench/ (open it in Perfetto).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { chromium, request as playwrightRequest, type Browser, type Page } from '@playwright/test';
import { createSession } from '../api/platform/sessions/sessions.ts';
import { openDatabase } from '../api/platform/db/database.ts';
import { migrate } from '../api/platform/db/migrate.ts';
import { createUser } from '../api/modules/accounts/index.ts';
import { uploadQaClip, type UploadedClip } from '../e2e/support/qaUpload.ts';
import { makeTestMedia } from './make-test-media.ts';
import { makeQaClips, QA_CLIPS } from './qa-clips.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const WEB_DIST = path.join(ROOT, '.cache/web-bench-capture');
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 15);
const COLD_SAMPLES = Number(process.env.BENCH_COLD_SAMPLES ?? 4);
/** Measure only the paths whose names match (for example BENCH_ONLY=canvas); the targets need them all. */
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;
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
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${port}`, WEB_DIST, LOG_LEVEL: 'warn', SEED_DEMO: 'false', DATABASE_URL: '' },
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
 * Records, for each capture, in the page (performance.now()): window.captureBench.samples of
 *   slot:   click on Select Screenshot -> the new slot's image painted on screen (Element Timing's
 *           renderTime for the <img>; where no entry comes, decode() then the next frame);
 *   stored: click -> the record holding the new screenshot's full-resolution image committed to
 *           IndexedDB (the put of the pending merch record whose screenshot N has its image,
 *           seen through IDBObjectStore.prototype.put, timed at its transaction's complete);
 *   size:   that stored image's decoded pixel size (checked afterwards, outside the timings).
 * Given as source text, so the runner's transpiler adds no helpers of its own to code that runs
 * in the page.
 */
const INSTRUMENT = `(() => {
  const list = document.querySelector('ul[aria-label="Screenshots"]');
  if (!list) throw new Error('no screenshots list');
  const state = { current: null, samples: [] };
  window.captureBench = state;
  const finish = (p) => {
    if (p.slot !== null && p.stored !== null && p.size !== null && !p.reported) {
      p.reported = true;
      const mark = (name) => {
        const m = performance.getEntriesByName(name).filter((e) => e.startTime >= p.clickAt).pop();
        return m ? m.startTime - p.clickAt : null;
      };
      const phases = { frame: mark('capture:frame-drawn'), copied: mark('capture:planes-copied'), drawn: mark('capture:preview-drawn'), preview: mark('capture:preview-encoded'), inserted: p.inserted, loaded: p.loaded };
      state.samples.push({ slot: p.slot, stored: p.stored, size: p.size, painted: !p.fallback, phases });
    }
  };
  document.addEventListener('click', (e) => {
    const button = e.target instanceof Element ? e.target.closest('button') : null;
    if (!button || button.textContent.trim() !== 'Select Screenshot') return;
    state.current = { clickAt: performance.now(), expect: list.querySelectorAll('img').length + 1, img: null, slot: null, stored: null, size: null, storedSeen: false, reported: false, inserted: null, loaded: null };
  }, true);
  new PerformanceObserver((entries) => {
    for (const entry of entries.getEntries()) {
      const p = state.current;
      if (!p || !p.img || entry.element !== p.img || p.slot !== null) continue;
      p.slot = (entry.renderTime || entry.loadTime) - p.clickAt;
      finish(p);
    }
  }).observe({ type: 'element', buffered: false });
  new MutationObserver(() => {
    const p = state.current;
    if (!p || p.img) return;
    const img = list.querySelector('img[alt="Screenshot ' + p.expect + '"]');
    if (!img || !/^(blob|data):/.test(img.src)) return;
    p.img = img;
    p.inserted = performance.now() - p.clickAt;
    img.addEventListener('load', () => { p.loaded = performance.now() - p.clickAt; }, { once: true });
    // Before the image has loaded (blob: and data: URLs load asynchronously), so its paint is reported.
    img.setAttribute('elementtiming', 'capture-bench');
    img.decode().then(() => setTimeout(() => {
      if (p.slot !== null) return;
      // No Element Timing entry: the frame after the decode is the one that shows it.
      requestAnimationFrame(() => setTimeout(() => {
        if (p.slot === null) { p.slot = performance.now() - p.clickAt; p.fallback = true; finish(p); }
      }, 0));
    }, 500));
  }).observe(list, { subtree: true, childList: true, attributes: true, attributeFilter: ['src'] });
  const put = IDBObjectStore.prototype.put;
  IDBObjectStore.prototype.put = function (value, key) {
    const request = put.call(this, value, key);
    const p = state.current;
    const shot = p && !p.storedSeen && this.name === 'records' && value && Array.isArray(value.screenshots) ? value.screenshots[p.expect - 1] : null;
    if (shot && shot.blob instanceof Blob) {
      p.storedSeen = true;
      this.transaction.addEventListener('complete', () => {
        p.stored = performance.now() - p.clickAt;
        createImageBitmap(shot.blob).then((b) => {
          p.size = b.width + 'x' + b.height;
          b.close();
          finish(p);
        });
      });
    }
    return request;
  };
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

/** Milliseconds from the click to each step of a capture (null where the step did not happen). */
interface Phases {
  /** The frame on screen drawn at full resolution (capture:frame-drawn). */
  frame: number | null;
  /** The VideoFrame's YUV planes copied out (capture:planes-copied). */
  copied: number | null;
  /** The slot-sized preview converted from them and drawn (capture:preview-drawn). */
  drawn: number | null;
  /** The slot's preview JPEG encoded (capture:preview-encoded; the canvas path only). */
  preview: number | null;
  /** The new slot's <img> in the document. */
  inserted: number | null;
  /** Its image loaded (decoded soon after, then painted). */
  loaded: number | null;
}

interface Sample {
  phases: Phases;
  slot: number;
  stored: number;
  size: string;
  /** The slot time came from Element Timing (else from decode() and the next frame). */
  painted: boolean;
}

/** One capture of a different paused frame each time: the in-page milliseconds and the path that made it. */
async function captureOnce(page: Page, video: UploadedClip, i: number): Promise<Sample & { source: string | null }> {
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
  const count = await page.evaluate(() => (window as unknown as { captureBench: { samples: Sample[] } }).captureBench.samples.length);
  await page.getByRole('button', { name: 'Select Screenshot', exact: true }).click();
  // Both the slot and the stored full-resolution image, before the slot is deleted again.
  const handle = await page.waitForFunction(
    (n) => (window as unknown as { captureBench: { samples: Sample[] } }).captureBench.samples[n],
    count,
    { timeout: 60_000 },
  );
  const sample = (await handle.jsonValue()) as Sample;
  const source = await page.locator('ul[aria-label="Screenshots"] img').last().getAttribute('data-source');
  await page.getByRole('button', { name: /^Delete screenshot \d+$/ }).last().click();
  await page.waitForFunction(() => document.querySelectorAll('ul[aria-label="Screenshots"] img').length === 1);
  return { ...sample, source };
}

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

interface Row {
  name: string;
  slot: number[];
  stored: number[];
  /** Samples whose slot time is Element Timing's paint time. */
  painted: number;
  phases: Phases[];
}

async function series(browser: Browser, base: string, video: UploadedClip, query: string, expected: string, n: number, warmup: number): Promise<Omit<Row, 'name'>> {
  // Without the service worker: a cold start then fetches the ffmpeg core from the server, as a
  // first visit does, and no background precaching competes with the measurement.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
  const page = await context.newPage();
  page.on('console', (m) => m.text().startsWith('Screenshot:') && console.log(`  (page) ${m.text()}`));
  await openVideo(page, base, video, query);
  const out: Omit<Row, 'name'> = { slot: [], stored: [], painted: 0, phases: [] };
  const fullSize = `${video.clip.width}x${video.clip.height}`;
  for (let i = 0; i < warmup + n; i++) {
    const trace = process.env.BENCH_TRACE && i === warmup + n - 1 ? path.join(ROOT, `.cache/bench/trace-${video.clip.name}${query.replace(/\W/g, '-')}.json`) : null;
    // The main thread, the page's compositor and the display compositor (viz), frame by frame.
    if (trace) await browser.startTracing(page, { path: trace, categories: ['devtools.timeline', 'cc', 'viz', 'benchmark'] });
    const { slot, stored, size, painted, phases, source } = await captureOnce(page, video, i);
    if (trace) {
      await browser.stopTracing();
      console.log(`  trace of a ${slot.toFixed(1)} ms capture: ${path.relative(ROOT, trace)}`);
    }
    // Every capture must come from the path measured, and the record must keep the full frame.
    if (source !== expected) throw new Error(`${video.clip.name}${query}: a capture came from ${source}, not ${expected}`);
    if (size !== fullSize) throw new Error(`${video.clip.name}${query}: the record stored a ${size} image, not ${fullSize}`);
    if (i >= warmup) {
      out.slot.push(slot);
      if (process.env.BENCH_VERBOSE) console.log(`  ${video.clip.name}${query} #${i - warmup + 1}: slot shown ${slot.toFixed(1)} ms, full stored ${stored.toFixed(1)} ms`);
      out.stored.push(stored);
      out.phases.push(phases);
      if (painted) out.painted++;
    }
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

    const coldSeries = async (): Promise<Omit<Row, 'name'>> => {
      const cold: Omit<Row, 'name'> = { slot: [], stored: [], painted: 0, phases: [] };
      for (let i = 0; i < COLD_SAMPLES; i++) {
        const one = await series(browser!, base, clip720, '?capture=wasm', 'wasm', 1, 0);
        cold.slot.push(...one.slot);
        cold.stored.push(...one.stored);
        cold.painted += one.painted;
        cold.phases.push(...one.phases);
      }
      return cold;
    };
    const paths: Array<[string, () => Promise<Omit<Row, 'name'>>]> = [
      ['canvas 720p', () => series(browser!, base, clip720, '', 'canvas', SAMPLES, 2)],
      ['canvas 1080p', () => series(browser!, base, clip1080, '', 'canvas', SAMPLES, 2)],
      ['ffmpeg.wasm cold 720p', coldSeries],
      ['ffmpeg.wasm warm 720p', () => series(browser!, base, clip720, '?capture=wasm', 'wasm', SAMPLES, 1)],
      ['ffmpeg.wasm warm 1080p', () => series(browser!, base, clip1080, '?capture=wasm', 'wasm', SAMPLES, 1)],
      ['server 720p', () => series(browser!, base, clip720, '?capture=server', 'server', SAMPLES, 1)],
      ['server 1080p', () => series(browser!, base, clip1080, '?capture=server', 'server', SAMPLES, 1)],
    ];
    const rows: Row[] = [];
    console.log(`Measuring (${SAMPLES} samples a path, ${COLD_SAMPLES} cold wasm starts)...`);
    for (const [name, measure] of paths) if (!ONLY || ONLY.test(name)) rows.push({ name, ...(await measure()) });

    const summary = (samples: number[]) => {
      const sorted = [...samples].sort((a, b) => a - b);
      return { n: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
    };
    const stats = new Map(rows.map((r) => [r.name, { slot: summary(r.slot), stored: summary(r.stored), painted: r.painted }]));
    const ms = (v: number) => v.toFixed(0).padStart(6);
    console.log('\nFrom the click on Select Screenshot (ms, in the page; service worker off):');
    console.log('  slot shown:  the new slot\'s image painted on screen (what the viewer sees)');
    console.log('  full stored: the full-resolution image in the pending merch record, committed to IndexedDB');
    console.log(`  ${'path'.padEnd(24)} ${'slot shown'.padStart(20)}   ${'full stored'.padStart(20)}`);
    for (const [name, s] of stats) {
      console.log(`  ${name.padEnd(24)} p50 ${ms(s.slot.p50)} p95 ${ms(s.slot.p95)}   p50 ${ms(s.stored.p50)} p95 ${ms(s.stored.p95)}   (n=${s.slot.n}, ${s.painted} by Element Timing)`);
    }
    console.log('\nWhere the canvas path\'s time goes (p50 of each step\'s time after the click, ms):');
    for (const row of rows.filter((r) => r.name.startsWith('canvas'))) {
      const at = (key: keyof Phases) => {
        const values = row.phases.map((p) => p[key]).filter((v): v is number => v !== null);
        return values.length ? ms(summary(values).p50) : '     -';
      };
      console.log(
        `  ${row.name.padEnd(14)} frame held ${at('frame')}  planes copied ${at('copied')}  preview drawn ${at('drawn')}  encoded ${at('preview')}  slot <img> inserted ${at('inserted')}  loaded ${at('loaded')}  painted ${ms(summary(row.slot).p50)}`,
      );
    }
    if (rows.length < paths.length) {
      console.log(`\nTargets: not judged (BENCH_ONLY measured ${rows.length} of ${paths.length} paths).`);
      return;
    }
    const canvas720 = stats.get('canvas 720p')!.slot;
    const canvas1080 = stats.get('canvas 1080p')!.slot;
    const server720 = stats.get('server 720p')!.slot;
    const server1080 = stats.get('server 1080p')!.slot;
    const warm = stats.get('ffmpeg.wasm warm 720p')!.slot;
    console.log(`\nServer round trip against the canvas slot shown (p50): 720p ${(server720.p50 / canvas720.p50).toFixed(1)}x, 1080p ${(server1080.p50 / canvas1080.p50).toFixed(1)}x`);
    const targets = [
      [`canvas 1080p p50 <= 50 ms (slot shown)`, `${canvas1080.p50.toFixed(0)} ms`, canvas1080.p50 <= 50],
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
