/**
 * The print worker: decodes an image Blob, runs the print pipeline and encodes PNG, off the main
 * thread. Blobs cross threads by reference and pixel buffers are transferred, never copied.
 */
import * as Comlink from 'comlink';
import { resampleLanczos3Rows, type RgbaImage } from '../../shared/pixels/image.ts';
import { PRINT_DPI, printFileSize } from '../../shared/print.ts';
import type { PrintResult, PrintWorkerApi } from './api.ts';
import type { BandWorkerApi } from './band.worker.ts';
import { bandEdges } from './bands.ts';
import { runPrintPipeline, type StageTimings } from './pipeline.ts';

/** Helper workers for the resample, one per extra core, kept while this worker lives. */
const helpers: Comlink.Remote<BandWorkerApi>[] = [];
const cores = Math.max(1, Math.min(4, navigator.hardwareConcurrency || 1));

function helper(i: number): Comlink.Remote<BandWorkerApi> {
  helpers[i] ??= Comlink.wrap<BandWorkerApi>(new Worker(new URL('./band.worker.ts', import.meta.url), { type: 'module', name: `print-band-${i + 1}` }));
  return helpers[i];
}

/** The print-size resample, its bands spread over the helpers and this worker. */
async function resample(image: RgbaImage, width: number, height: number): Promise<RgbaImage> {
  const edges = bandEdges(height, cores);
  const bands = edges.length - 1;
  if (bands === 1) return resampleLanczos3Rows(image, width, height, 0, height);
  // Each helper gets its own copy of the (small) source; the bands come back transferred.
  const others = Array.from({ length: bands - 1 }, (_, i) => helper(i).resampleRows(image, width, height, edges[i]!, edges[i + 1]!));
  const own = resampleLanczos3Rows(image, width, height, edges[bands - 1]!, height);
  const out = new Uint8ClampedArray(width * height * 4);
  const parts = await Promise.all(others);
  parts.forEach((band, i) => out.set(band.data, edges[i]! * width * 4));
  out.set(own.data, edges[bands - 1]! * width * 4);
  return { width, height, data: out };
}

async function decode(blob: Blob): Promise<RgbaImage> {
  const bitmap = await createImageBitmap(blob, { imageOrientation: 'from-image', premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
  ctx.drawImage(bitmap, 0, 0);
  bitmap.close();
  const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
  return { width: canvas.width, height: canvas.height, data };
}

async function encode(image: RgbaImage, type: 'image/png' | 'image/jpeg', quality?: number): Promise<Blob> {
  const canvas = new OffscreenCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d')!;
  ctx.putImageData(new ImageData(new Uint8ClampedArray(image.data.buffer as ArrayBuffer, image.data.byteOffset, image.data.length), image.width, image.height), 0, 0);
  return canvas.convertToBlob(quality === undefined ? { type } : { type, quality });
}

const api: PrintWorkerApi = {
  async prepare(input, options): Promise<PrintResult> {
    const timings: StageTimings = {};
    let start = performance.now();
    const source = await decode(input);
    timings.decode = performance.now() - start;
    // Crop and feather here; the resample below runs on every core.
    let out = runPrintPipeline(source, { ...options, printArea: null }, timings);
    if (options.printArea) {
      const size = printFileSize(out, options.printArea, options.dpi ?? PRINT_DPI);
      start = performance.now();
      out = await resample(out, size.width, size.height);
      timings.resample = performance.now() - start;
    }
    start = performance.now();
    const blob = await encode(out, 'image/png');
    timings.encode = performance.now() - start;
    return { blob, width: out.width, height: out.height, timings };
  },
  async crop(input, rect, type = 'image/jpeg'): Promise<PrintResult> {
    const out = runPrintPipeline(await decode(input), { crop: rect, featherRadius: 0, printArea: null });
    return { blob: await encode(out, type, type === 'image/jpeg' ? 0.92 : undefined), width: out.width, height: out.height };
  },
};

Comlink.expose(api);
