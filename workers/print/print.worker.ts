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

/**
 * The buffers of the last print's bands, once encoded: each goes back to the helper that made
 * it (the last one is this worker's own), to be written over by the next print rather than
 * having new memory mapped in. Kept while this worker lives.
 */
let spareBands: ArrayBuffer[] = [];

/**
 * The print-size resample, its bands spread over the helpers and this worker: the bands, top to
 * bottom. They go to the encoder's canvas as they are, never joined into one more image-sized
 * buffer.
 */
async function resample(image: RgbaImage, width: number, height: number): Promise<RgbaImage[]> {
  const edges = bandEdges(height, cores);
  const bands = edges.length - 1;
  const spare = spareBands;
  spareBands = [];
  const ownSpare = spare[bands - 1] ? new Uint8ClampedArray(spare[bands - 1]!) : undefined;
  if (bands === 1) return [resampleLanczos3Rows(image, width, height, 0, height, ownSpare)];
  // Each helper gets its own copy of the (small) source, and its last band's buffer back; the bands come back transferred.
  const others = Array.from({ length: bands - 1 }, (_, i) => {
    const reuse = spare[i];
    return helper(i).resampleRows(image, width, height, edges[i]!, edges[i + 1]!, reuse ? Comlink.transfer(reuse, [reuse]) : undefined);
  });
  const own = resampleLanczos3Rows(image, width, height, edges[bands - 1]!, height, ownSpare);
  return [...(await Promise.all(others)), own];
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

/**
 * The last canvas encoded from, kept while this worker lives (it ends when idle) for the next
 * image of the same size: several print files of one size in a row (a shirt, then a hoodie) skip
 * mapping in a new 70 MB canvas. putImageData replaces every pixel, alpha included, so nothing
 * of the last image stays.
 */
let lastCanvas: OffscreenCanvas | null = null;

/** Encodes the image given as bands of rows, top to bottom, all of one width. */
async function encode(bands: RgbaImage[], type: 'image/png' | 'image/jpeg', quality?: number): Promise<Blob> {
  const width = bands[0]!.width;
  const height = bands.reduce((sum, band) => sum + band.height, 0);
  const canvas = lastCanvas?.width === width && lastCanvas.height === height ? lastCanvas : new OffscreenCanvas(width, height);
  lastCanvas = canvas;
  const ctx = canvas.getContext('2d')!;
  let y = 0;
  for (const band of bands) {
    ctx.putImageData(new ImageData(new Uint8ClampedArray(band.data.buffer as ArrayBuffer, band.data.byteOffset, band.data.length), width, band.height), 0, y);
    y += band.height;
  }
  return canvas.convertToBlob(quality === undefined ? { type } : { type, quality });
}

const api: PrintWorkerApi = {
  async prepare(input, options): Promise<PrintResult> {
    const timings: StageTimings = {};
    let start = performance.now();
    const source = await decode(input);
    timings.decode = performance.now() - start;
    // Crop and feather here; the resample below runs on every core.
    const cropped = runPrintPipeline(source, { ...options, printArea: null }, timings);
    let bands = [cropped];
    if (options.printArea) {
      const size = printFileSize(cropped, options.printArea, options.dpi ?? PRINT_DPI);
      start = performance.now();
      bands = await resample(cropped, size.width, size.height);
      timings.resample = performance.now() - start;
    }
    start = performance.now();
    const blob = await encode(bands, 'image/png');
    timings.encode = performance.now() - start;
    // Encoded (copied into the canvas): the band buffers are free for the next print.
    if (bands.length > 1 || bands[0] !== cropped) spareBands = bands.map((band) => band.data.buffer as ArrayBuffer);
    return { blob, width: bands[0]!.width, height: bands.reduce((sum, band) => sum + band.height, 0), timings };
  },
  async crop(input, rect, type = 'image/jpeg'): Promise<PrintResult> {
    const out = runPrintPipeline(await decode(input), { crop: rect, featherRadius: 0, printArea: null });
    return { blob: await encode([out], type, type === 'image/jpeg' ? 0.92 : undefined), width: out.width, height: out.height };
  },
};

Comlink.expose(api);
