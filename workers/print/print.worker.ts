/**
 * The print worker: decodes an image Blob, runs the print pipeline and encodes PNG, off the main
 * thread. Blobs cross threads by reference and pixel buffers are transferred, never copied.
 */
import * as Comlink from 'comlink';
import { resampleLanczos3Rows, type RgbaImage } from '../../shared/pixels/image.ts';
import { cropAndFeather, runPrintPipelineInBands, type BandResampler, type StageRunner, type StageTimings } from '../../shared/pixels/print-pipeline.ts';
import type { PrintResult, PrintWorkerApi } from './api.ts';
import type { BandWorkerApi } from './band.worker.ts';

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
 * The print-size resample, its bands spread over the helpers and this worker (the last band).
 * The bands go to the encoder's canvas as they are, never joined into one more image-sized
 * buffer. Each helper gets its own copy of the (small) source and its last band's buffer back;
 * the bands come back transferred.
 */
function bandResampler(): BandResampler {
  const spare = spareBands;
  spareBands = [];
  return (image, width, height, y0, y1, band) => {
    const reuse = spare[band];
    if (y1 === height) return resampleLanczos3Rows(image, width, height, y0, y1, reuse ? new Uint8ClampedArray(reuse) : undefined);
    return helper(band).resampleRows(image, width, height, y0, y1, reuse ? Comlink.transfer(reuse, [reuse]) : undefined);
  };
}

/** Adds each stage's duration to `timings`, for stages that answer at once or later. */
function timer(timings: StageTimings): StageRunner {
  return (stage, run) => {
    const start = performance.now();
    const add = () => {
      timings[stage] = (timings[stage] ?? 0) + performance.now() - start;
    };
    const result = run();
    if (result instanceof Promise) return result.finally(add) as typeof result;
    add();
    return result;
  };
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
    const stage = timer(timings);
    const source = await stage('decode', () => decode(input));
    // Crop and feather here; the resample runs on every core, its last band on this one.
    const bands = await runPrintPipelineInBands(source, options, cores, bandResampler(), stage);
    const blob = await stage('encode', () => encode(bands, 'image/png'));
    // Encoded (copied into the canvas): the band buffers are free for the next print.
    if (options.printArea) spareBands = bands.map((band) => band.data.buffer as ArrayBuffer);
    return { blob, width: bands[0]!.width, height: bands.reduce((sum, band) => sum + band.height, 0), timings };
  },
  async crop(input, rect, type = 'image/jpeg'): Promise<PrintResult> {
    const out = cropAndFeather(await decode(input), { crop: rect, featherRadius: 0, printArea: null });
    return { blob: await encode([out], type, type === 'image/jpeg' ? 0.92 : undefined), width: out.width, height: out.height };
  },
};

Comlink.expose(api);
