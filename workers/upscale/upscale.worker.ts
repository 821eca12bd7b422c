/**
 * The upscale worker: runs the ESRGAN slim model (UpscalerJS on TensorFlow.js) over an image,
 * tile by tile, off the main thread. The model is fetched from the URL the page gives (a file the
 * app serves) when the first upscale asks for it, and kept while this worker lives. Cancelling
 * ends the worker (the page's bridge terminates it); nothing here needs to be undone.
 */
import * as tf from '@tensorflow/tfjs';
import x2 from '@upscalerjs/esrgan-slim/2x';
import x4 from '@upscalerjs/esrgan-slim/4x';
import * as Comlink from 'comlink';
import Upscaler from 'upscaler';
import type { ProgressCallback, RgbaPixels, UpscaleBackend, UpscaledPixels, UpscaleOptions, UpscaleStats, UpscaleWorkerApi } from './api.ts';
import { MODEL_LOAD_SHARE, planTiles, progressAfter, tileWork, type Tile, type UpscaleFactor } from './tiles.ts';

const DEFINITIONS = { 2: x2, 4: x4 } as const;
type Upscaler = InstanceType<typeof Upscaler>;
const DEFAULT_TILE = 128;
const DEFAULT_PADDING = 12;

let backend: UpscaleBackend | null = null;
const upscalers = new Map<string, Upscaler>();

async function startBackend(wanted: UpscaleBackend[]): Promise<UpscaleBackend> {
  if (backend) return backend;
  for (const name of wanted) {
    try {
      if (await tf.setBackend(name)) {
        await tf.ready();
        // A backend can start and still fail its first kernel (no WebGL context headless).
        tf.tidy(() => tf.add(tf.scalar(1), tf.scalar(1)).dataSync());
        backend = name;
        return name;
      }
    } catch {
      // The next backend is tried.
    }
  }
  throw new Error('No TensorFlow.js backend could start here');
}

async function upscalerFor(factor: UpscaleFactor, modelUrl: string): Promise<{ upscaler: Upscaler; loadMs: number }> {
  const key = `${factor} ${modelUrl}`;
  const known = upscalers.get(key);
  if (known) return { upscaler: known, loadMs: 0 };
  const start = performance.now();
  // With a path, UpscalerJS loads the model from there, never from its default CDN.
  const upscaler = new Upscaler({ model: { ...DEFINITIONS[factor], path: modelUrl } });
  await upscaler.getModel();
  upscalers.set(key, upscaler);
  return { upscaler, loadMs: performance.now() - start };
}

async function toPixels(input: RgbaPixels | Blob | ImageBitmap): Promise<RgbaPixels> {
  if ('data' in input) return input;
  const bitmap = input instanceof Blob ? await createImageBitmap(input, { imageOrientation: 'from-image', premultiplyAlpha: 'none', colorSpaceConversion: 'none' }) : input;
  try {
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const ctx = canvas.getContext('2d', { willReadFrequently: true });
    if (!ctx) throw new Error('No 2D context in the upscale worker');
    ctx.drawImage(bitmap, 0, 0);
    return { width: bitmap.width, height: bitmap.height, data: ctx.getImageData(0, 0, bitmap.width, bitmap.height).data };
  } finally {
    bitmap.close();
  }
}

/** The tile's input pixels as an RGB tensor, values 0 to 255. */
function tileTensor(source: RgbaPixels, rect: Tile['input']): tf.Tensor3D {
  const rgb = new Float32Array(rect.width * rect.height * 3);
  let o = 0;
  for (let y = rect.y; y < rect.y + rect.height; y++) {
    let i = (y * source.width + rect.x) * 4;
    for (let x = 0; x < rect.width; x++, i += 4) {
      rgb[o++] = source.data[i]!;
      rgb[o++] = source.data[i + 1]!;
      rgb[o++] = source.data[i + 2]!;
    }
  }
  return tf.tensor3d(rgb, [rect.height, rect.width, 3], 'float32');
}

/** Writes the kept part of an upscaled tile into the output; alpha from the nearest source pixel. */
function writeTile(out: RgbaPixels, source: RgbaPixels, tile: Tile, values: Float32Array | Int32Array | Uint8Array, factor: number): void {
  const tileWidth = tile.input.width * factor;
  const dx = (tile.keep.x - tile.input.x) * factor;
  const dy = (tile.keep.y - tile.input.y) * factor;
  const w = tile.keep.width * factor;
  const h = tile.keep.height * factor;
  for (let y = 0; y < h; y++) {
    const outY = tile.keep.y * factor + y;
    const srcRow = Math.floor(outY / factor) * source.width;
    let o = (outY * out.width + tile.keep.x * factor) * 4;
    let v = ((dy + y) * tileWidth + dx) * 3;
    for (let x = 0; x < w; x++, o += 4, v += 3) {
      out.data[o] = values[v]!;
      out.data[o + 1] = values[v + 1]!;
      out.data[o + 2] = values[v + 2]!;
      out.data[o + 3] = source.data[(srcRow + Math.floor((tile.keep.x * factor + x) / factor)) * 4 + 3]!;
    }
  }
}

async function run(input: RgbaPixels | Blob | ImageBitmap, options: UpscaleOptions, onProgress?: ProgressCallback): Promise<UpscaledPixels> {
  const { factor, modelUrl } = options;
  if (!(factor in DEFINITIONS)) throw new RangeError(`No model for ${factor}x`);
  const source = await toPixels(input);
  const used = await startBackend(options.backends ?? ['webgl', 'cpu']);
  void onProgress?.(0);
  const { upscaler, loadMs } = await upscalerFor(factor, modelUrl);
  void onProgress?.(MODEL_LOAD_SHARE);

  const tiles = planTiles(source.width, source.height, options.tileSize ?? DEFAULT_TILE, options.padding ?? DEFAULT_PADDING);
  const work = tileWork(tiles);
  const out: RgbaPixels = { width: source.width * factor, height: source.height * factor, data: new Uint8ClampedArray(source.width * factor * source.height * factor * 4) };
  const start = performance.now();
  for (let i = 0; i < tiles.length; i++) {
    const tile = tiles[i]!;
    const pixels = tileTensor(source, tile.input);
    let result: tf.Tensor3D | null = null;
    try {
      const upscaled = await upscaler.execute(pixels, { output: 'tensor' });
      result = upscaled;
      writeTile(out, source, tile, await upscaled.data(), factor);
    } finally {
      pixels.dispose();
      result?.dispose();
    }
    void onProgress?.(progressAfter(i + 1, work));
  }
  const stats: UpscaleStats = { backend: used, loadMs, inferMs: performance.now() - start, tiles: tiles.length };
  return { ...out, stats };
}

const api: UpscaleWorkerApi = {
  async upscale(input, options, onProgress) {
    const result = await run(input, options, onProgress);
    return Comlink.transfer(result, [result.data.buffer as ArrayBuffer]);
  },
  async upscaleToPng(input, options, onProgress) {
    const { width, height, data, stats } = await run(input, options, onProgress);
    const canvas = new OffscreenCanvas(width, height);
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('No 2D context in the upscale worker');
    ctx.putImageData(new ImageData(new Uint8ClampedArray(data.buffer as ArrayBuffer), width, height), 0, 0);
    return { blob: await canvas.convertToBlob({ type: 'image/png' }), width, height, stats };
  },
};

Comlink.expose(api);
