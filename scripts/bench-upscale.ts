/**
 * AI upscale against Lanczos, on frames downscaled from known originals: each original is
 * shrunk 2x and 4x (bicubic, as super-resolution is usually judged), then enlarged back by the
 * app's upscale worker (ESRGAN slim on TensorFlow.js, in headless chromium, through the same
 * worker the print tool starts) and by sharp's lanczos3, and both are compared with the
 * original: PSNR over RGB and SSIM over luma, `factor` pixels shaved off each edge. Also the
 * upscale's time per output megapixel in the browser, on each TensorFlow.js backend that starts.
 *
 *   npm run bench:upscale                     (BENCH_BACKENDS=webgl,cpu by default)
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { findMediaTools, runFfmpeg } from '../api/platform/media/ffmpeg.ts';
import type { UpscaleBackend, UpscaleFactor } from '../workers/upscale/api.ts';
import type { BenchUpscaleRun } from './bench-upscale/benchUpscalePage.ts';
import { buildBenchPage, launchChromium, serveBenchPage, type BenchInput } from './bench-support/page-server.ts';
import { TEST_MEDIA_DIR, makeTestMedia } from './make-test-media.ts';
import { modelFiles } from './vite-plugin-models.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const BENCH_DIR = path.join(ROOT, '.cache/bench/upscale');
const PAGE_DIR = path.join(ROOT, '.cache/bench/upscale-web');
const FACTORS: UpscaleFactor[] = [2, 4];
const BACKENDS = (process.env.BENCH_BACKENDS ?? 'webgl,cpu').split(',').map((b) => b.trim()) as UpscaleBackend[];
/** Originals are cut to this square (a multiple of every factor). */
const SIDE = 192;

interface Original {
  name: string;
  png: Buffer;
}

/** The originals: video frames of the app's test media and ffmpeg's natural-looking sources, and the model package's own photo. */
async function originals(): Promise<Original[]> {
  await mkdir(BENCH_DIR, { recursive: true });
  await makeTestMedia();
  const { ffmpeg } = await findMediaTools({ ffmpegPath: process.env.FFMPEG_PATH ?? null, ffprobePath: null });
  const crop = `crop=${SIDE}:${SIDE}`;
  const sources: Record<string, string[]> = {
    // Frames of the test clips, as a viewer captures them (decoded H.264 / VP9, 4:2:0).
    'h264-720p frame 45': ['-i', path.join(TEST_MEDIA_DIR, 'h264-720p.mp4'), '-vf', `select=eq(n\\,45),crop=${SIDE}:${SIDE}:400:200`],
    'vp9-720p frame 30': ['-i', path.join(TEST_MEDIA_DIR, 'vp9-720p.webm'), '-vf', `select=eq(n\\,30),crop=${SIDE}:${SIDE}:700:300`],
    // Fine organic detail and smooth shading, closer to a photograph than a test pattern.
    mandelbrot: ['-f', 'lavfi', '-i', `mandelbrot=size=640x480:start_scale=0.3:end_pts=5`, '-ss', '2', '-vf', crop],
    'cell texture + grain': ['-f', 'lavfi', '-i', `cellauto=s=320x240:rule=110:random_fill_ratio=0.5,scale=640:480:flags=bicubic,gblur=sigma=1.2,noise=alls=8:allf=t,hue=h=30:s=2`, '-vf', crop],
  };
  const found: Original[] = [];
  for (const [name, args] of Object.entries(sources)) {
    const file = path.join(BENCH_DIR, `${name.replace(/[^\w]+/g, '-')}.png`);
    if (!existsSync(file)) await runFfmpeg(ffmpeg, ['-y', ...args, '-frames:v', '1', '-pix_fmt', 'rgb24', file]);
    found.push({ name, png: await readFile(file) });
  }
  // A real photograph: the model package's own 128 x 128 sample.
  const photo = path.join(ROOT, 'node_modules/@upscalerjs/esrgan-slim/assets/fixture.png');
  found.push({ name: 'photo (esrgan fixture)', png: await sharp(photo).removeAlpha().png().toBuffer() });
  return found;
}

async function rgb(png: Buffer): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** PSNR over R, G and B, `shave` pixels off each edge. */
function psnr(a: { data: Buffer; width: number; height: number }, b: { data: Buffer }, shave: number): number {
  let sum = 0;
  let n = 0;
  for (let y = shave; y < a.height - shave; y++) {
    for (let x = shave; x < a.width - shave; x++) {
      const i = (y * a.width + x) * 3;
      for (let c = 0; c < 3; c++) {
        const d = a.data[i + c]! - b.data[i + c]!;
        sum += d * d;
      }
      n += 3;
    }
  }
  return sum === 0 ? 99 : 10 * Math.log10((255 * 255) / (sum / n));
}

/** SSIM over BT.601 luma with the usual 11 x 11 Gaussian window (sigma 1.5), `shave` pixels off each edge. */
function ssim(a: { data: Buffer; width: number; height: number }, b: { data: Buffer }, shave: number): number {
  const w = a.width - 2 * shave;
  const h = a.height - 2 * shave;
  const luma = (img: { data: Buffer }) => {
    const out = new Float64Array(w * h);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const i = ((y + shave) * a.width + x + shave) * 3;
        out[y * w + x] = 0.299 * img.data[i]! + 0.587 * img.data[i + 1]! + 0.114 * img.data[i + 2]!;
      }
    }
    return out;
  };
  const X = luma(a);
  const Y = luma(b);
  const R = 5;
  const g: number[] = [];
  for (let i = -R; i <= R; i++) g.push(Math.exp(-(i * i) / (2 * 1.5 * 1.5)));
  const gs = g.reduce((s, v) => s + v, 0);
  const k = g.map((v) => v / gs);
  const blur = (src: Float64Array) => {
    const tmp = new Float64Array(w * h);
    const out = new Float64Array(w * h);
    for (let y = 0; y < h; y++) for (let x = R; x < w - R; x++) {
      let s = 0;
      for (let i = -R; i <= R; i++) s += k[i + R]! * src[y * w + x + i]!;
      tmp[y * w + x] = s;
    }
    for (let y = R; y < h - R; y++) for (let x = R; x < w - R; x++) {
      let s = 0;
      for (let i = -R; i <= R; i++) s += k[i + R]! * tmp[(y + i) * w + x]!;
      out[y * w + x] = s;
    }
    return out;
  };
  const mul = (p: Float64Array, q: Float64Array) => p.map((v, i) => v * q[i]!);
  const mx = blur(X);
  const my = blur(Y);
  const sxx = blur(mul(X, X));
  const syy = blur(mul(Y, Y));
  const sxy = blur(mul(X, Y));
  const C1 = (0.01 * 255) ** 2;
  const C2 = (0.03 * 255) ** 2;
  let sum = 0;
  let n = 0;
  for (let y = R; y < h - R; y++) {
    for (let x = R; x < w - R; x++) {
      const i = y * w + x;
      const vx = sxx[i]! - mx[i]! ** 2;
      const vy = syy[i]! - my[i]! ** 2;
      const cxy = sxy[i]! - mx[i]! * my[i]!;
      sum += ((2 * mx[i]! * my[i]! + C1) * (2 * cxy + C2)) / ((mx[i]! ** 2 + my[i]! ** 2 + C1) * (vx + vy + C2));
      n++;
    }
  }
  return sum / n;
}

interface Row {
  name: string;
  factor: UpscaleFactor;
  out: string;
  lanczos: { psnr: number; ssim: number; ms: number };
  ai: { psnr: number; ssim: number } | null;
  /** Worker time on each backend (model already loaded), ms. */
  times: Partial<Record<UpscaleBackend, number>>;
}

const fmt = (n: number, d = 2) => n.toFixed(d);
const pad = (s: string, n: number) => s.padEnd(n);

async function main() {
  const images = await originals();
  console.log('Building the bench page...');
  await buildBenchPage(path.join(ROOT, 'scripts/bench-upscale'), PAGE_DIR, { plugins: [modelFiles()], chunkSizeWarningLimit: 4000 });

  const inputs = new Map<string, BenchInput>();
  const results = new Map<string, Buffer>();
  const rows: Row[] = [];
  for (const [i, img] of images.entries()) {
    const meta = await sharp(img.png).metadata();
    const side = Math.min(meta.width!, meta.height!) - (Math.min(meta.width!, meta.height!) % 4);
    img.png = await sharp(img.png).extract({ left: 0, top: 0, width: side, height: side }).png().toBuffer();
    for (const factor of FACTORS) {
      const small = await sharp(img.png).resize(side / factor, side / factor, { kernel: 'cubic' }).png().toBuffer();
      inputs.set(`/input/${i}-${factor}.png`, { body: small, type: 'image/png' });
      const start = performance.now();
      const lanczos = await sharp(small).resize(side, side, { kernel: 'lanczos3' }).png().toBuffer();
      const lanczosMs = performance.now() - start;
      const original = await rgb(img.png);
      const l = await rgb(lanczos);
      rows.push({
        name: img.name,
        factor,
        out: `${side}x${side}`,
        lanczos: { psnr: psnr(original, l, factor), ssim: ssim(original, l, factor), ms: lanczosMs },
        ai: null,
        times: {},
      });
    }
  }

  const server = await serveBenchPage(PAGE_DIR, inputs, (pathname, body) => results.set(pathname, body));
  const { base } = server;
  const browser = await launchChromium();
  const offOrigin: string[] = [];
  const backendsUsed: UpscaleBackend[] = [];
  try {
    const page: Page = await browser.newPage();
    page.on('request', (r) => {
      if (!r.url().startsWith(base) && !r.url().startsWith('blob:') && !r.url().startsWith('data:')) offOrigin.push(r.url());
    });
    page.on('console', (m) => {
      if (m.type() === 'error') console.error(`page: ${m.text()}`);
    });
    await page.goto(`${base}/`);
    await page.locator('#state', { hasText: 'ready' }).waitFor();
    const run = (input: string, factor: UpscaleFactor, backend: UpscaleBackend, result: string) =>
      page.evaluate(([a, b, c, d]) => window.benchUpscale(a, b, c, d), [input, factor, backend, result] as const) as Promise<BenchUpscaleRun>;

    for (const backend of BACKENDS) {
      // A first run per factor loads the model (and compiles the backend's kernels); not timed.
      let started = true;
      for (const factor of FACTORS) {
        try {
          const warm = await run(`/input/0-${factor}.png`, factor, backend, '/result/warm');
          console.log(`${backend}: ${factor}x model loaded in ${warm.stats.loadMs.toFixed(0)} ms; first image ${warm.totalMs.toFixed(0)} ms`);
        } catch (error) {
          console.log(`${backend}: did not start here (${(error as Error).message.split('\n')[0]})`);
          started = false;
          break;
        }
      }
      if (!started) continue;
      backendsUsed.push(backend);
      for (const [i, img] of images.entries()) {
        for (const factor of FACTORS) {
          const row = rows.find((r) => r.name === img.name && r.factor === factor)!;
          const key = `/result/${backend}-${i}-${factor}`;
          const r = await run(`/input/${i}-${factor}.png`, factor, backend, key);
          row.times[backend] = r.stats.inferMs;
          if (!row.ai) {
            const original = await rgb(img.png);
            const up = await rgb(results.get(key)!);
            if (up.width !== original.width) throw new Error(`The upscale is ${up.width} px wide, not ${original.width}`);
            row.ai = { psnr: psnr(original, up, factor), ssim: ssim(original, up, factor) };
            await writeFile(path.join(BENCH_DIR, `${img.name.replace(/[^\w]+/g, '-')}-x${factor}-ai.png`), results.get(key)!);
          }
        }
      }
    }
    console.log(`chromium ${browser.version()}; sharp ${sharp.versions.sharp}; originals shrunk with bicubic, compared after shaving <factor> px per edge`);
  } finally {
    await browser.close();
    await server.close();
  }

  const header = ['frame', 'x', 'output', 'Lanczos PSNR', 'AI PSNR', 'Lanczos SSIM', 'AI SSIM', ...backendsUsed.map((b) => `AI ${b} ms/MP`), 'Lanczos ms/MP'];
  const widths = [24, 3, 9, 13, 9, 13, 9, ...backendsUsed.map(() => 16), 14];
  const line = (cells: string[]) => console.log(cells.map((c, i) => pad(c, widths[i]!)).join(' '));
  line(header);
  const mp = (out: string) => out.split('x').map(Number).reduce((a, b) => a * b, 1) / 1e6;
  for (const r of rows) {
    line([
      r.name,
      String(r.factor),
      r.out,
      fmt(r.lanczos.psnr),
      r.ai ? fmt(r.ai.psnr) : '-',
      fmt(r.lanczos.ssim, 4),
      r.ai ? fmt(r.ai.ssim, 4) : '-',
      ...backendsUsed.map((b) => (r.times[b] === undefined ? '-' : fmt(r.times[b]! / mp(r.out), 0))),
      fmt(r.lanczos.ms / mp(r.out), 0),
    ]);
  }
  for (const factor of FACTORS) {
    const of = rows.filter((r) => r.factor === factor && r.ai);
    const mean = (f: (r: Row) => number) => of.reduce((s, r) => s + f(r), 0) / Math.max(1, of.length);
    const totalMp = of.reduce((s, r) => s + mp(r.out), 0);
    line([
      `mean ${factor}x`,
      String(factor),
      '',
      fmt(mean((r) => r.lanczos.psnr)),
      fmt(mean((r) => r.ai!.psnr)),
      fmt(mean((r) => r.lanczos.ssim), 4),
      fmt(mean((r) => r.ai!.ssim), 4),
      ...backendsUsed.map((b) => fmt(of.reduce((s, r) => s + (r.times[b] ?? 0), 0) / totalMp, 0)),
      fmt(of.reduce((s, r) => s + r.lanczos.ms, 0) / totalMp, 0),
    ]);
  }
  if (offOrigin.length) {
    console.error(`Requests outside the page's origin: ${offOrigin.join(', ')}`);
    process.exitCode = 1;
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
