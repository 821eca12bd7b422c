/**
 * The print worker: decodes an image Blob, runs the print pipeline and encodes PNG, off the main
 * thread. A print's resample and PNG encode run in helper workers, one per core, each making a
 * band of rows (shared/pixels/png.ts puts bands encoded apart into one PNG). Blobs cross threads
 * by reference; the crop's pixels (small) are copied to each helper but the last, which is given
 * them.
 */
import * as Comlink from 'comlink';
import { bandEdges } from '../../shared/pixels/bands.ts';
import { checkCrop, feather, type RgbaImage } from '../../shared/pixels/image.ts';
import { encodePngPiece, pngHead, pngTail } from '../../shared/pixels/png.ts';
import { printSizeOf, type StageRunner, type StageTimings } from '../../shared/pixels/print-pipeline.ts';
import { PRINT_DPI, type CropRect, type Size } from '../../shared/print.ts';
import type { PrintResult, PrintWorkerApi } from './api.ts';
import type { BandResult, BandWorkerApi } from './band.worker.ts';

/** Helper workers for the resample and encode, one per core, kept while this worker lives. */
const helpers: Comlink.Remote<BandWorkerApi>[] = [];
const cores = Math.max(1, Math.min(4, navigator.hardwareConcurrency || 1));
/**
 * Bands per helper. One: each hand-over of a band is a message each way, and on a busy machine
 * each waits for its thread to be scheduled again (bench:print made prints slower with three a
 * helper, handed out as helpers finished, than with one each).
 */
const BANDS_PER_HELPER = 1;

function helper(i: number): Comlink.Remote<BandWorkerApi> {
  helpers[i] ??= Comlink.wrap<BandWorkerApi>(new Worker(new URL('./band.worker.ts', import.meta.url), { type: 'module', name: `print-band-${i + 1}` }));
  return helpers[i];
}

/** The buffer the last PNG made on this thread was written into (a print without a resample). */
let pngBuffer: ArrayBuffer | undefined;
let prints = 0;

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

function decode(blob: Blob): Promise<ImageBitmap> {
  return createImageBitmap(blob, { imageOrientation: 'from-image', premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
}

/**
 * The canvas the crop is drawn on, kept while this worker lives for the next crop of the same
 * size (a print after its preview, a shirt after a hoodie): no new memory mapped in for it.
 */
let cropCanvas: OffscreenCanvas | null = null;

/**
 * Draws `rect` of the decoded image (all of it for null), pixel for pixel, onto the crop canvas
 * and closes the bitmap. Only the crop is ever copied out of the decoder's memory.
 */
function drawCrop(bitmap: ImageBitmap, rect: CropRect | null): OffscreenCanvasRenderingContext2D {
  try {
    const r = rect ?? { x: 0, y: 0, width: bitmap.width, height: bitmap.height };
    checkCrop(bitmap, r);
    const canvas = cropCanvas?.width === r.width && cropCanvas.height === r.height ? cropCanvas : new OffscreenCanvas(r.width, r.height);
    cropCanvas = canvas;
    const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
    ctx.clearRect(0, 0, r.width, r.height);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(bitmap, r.x, r.y, r.width, r.height, 0, 0, r.width, r.height);
    return ctx;
  } finally {
    bitmap.close();
  }
}

function pixelsOf(ctx: OffscreenCanvasRenderingContext2D): RgbaImage {
  const { width, height } = ctx.canvas;
  return { width, height, data: ctx.getImageData(0, 0, width, height).data };
}

/**
 * The print-size resample and its PNG encode, in bands of rows spread over the helpers, each
 * helper taking the next band when it is done with one. Each helper gets its own copy of the
 * (small) cropped source with its first band (the last helper the source itself); each band comes
 * back as a Blob, made by its helper. The timings split the bands' wall time between resample and
 * encode by their shares of the helpers' time (they run interleaved, a few rows of each at a time).
 */
async function resampleAndEncodeInBands(image: RgbaImage, size: Size, timings: StageTimings): Promise<BandResult[]> {
  const print = ++prints;
  const edges = bandEdges(size.height, cores * BANDS_PER_HELPER);
  const count = edges.length - 1;
  const bands: BandResult[] = new Array<BandResult>(count);
  const workers = Math.min(cores, count);
  let next = 0;
  const start = performance.now();
  const run = async (h: number) => {
    for (let first = true; next < count; first = false) {
      const i = next++;
      const task = { print, width: size.width, height: size.height, y0: edges[i]!, y1: edges[i + 1]! };
      // The source goes with each helper's first band: copied, and to the last helper given
      // (after the others' copies are posted) moved, as this thread needs it no more.
      const source = first ? (h === workers - 1 ? Comlink.transfer(image, [image.data.buffer as ArrayBuffer]) : image) : null;
      bands[i] = await helper(h).band(task, source);
    }
  };
  // Each run posts its first band before it waits, so the copies are all made before the move.
  await Promise.all(Array.from({ length: workers }, (_, h) => run(h)));
  const wall = performance.now() - start;
  const resample = bands.reduce((sum, b) => sum + b.resampleMs, 0);
  const encode = bands.reduce((sum, b) => sum + b.encodeMs, 0);
  const share = resample + encode > 0 ? resample / (resample + encode) : 0.5;
  timings.resample = (timings.resample ?? 0) + wall * share;
  timings.encode = (timings.encode ?? 0) + wall * (1 - share);
  return bands;
}

const api: PrintWorkerApi = {
  async prepare(input, options): Promise<PrintResult> {
    const timings: StageTimings = {};
    const stage = timer(timings);
    const bitmap = await stage('decode', () => decode(input));
    // The pipeline's crop (drawn straight out of the decoded image) and feather, here; the
    // resample and the encode run on every core, in bands.
    const cropped = stage('crop', () => pixelsOf(drawCrop(bitmap, options.crop)));
    const out = options.featherRadius > 0 ? stage('feather', () => feather(cropped, options.featherRadius)) : cropped;
    const printSize = printSizeOf(out, options);
    const size = printSize ?? { width: out.width, height: out.height };
    let bands: Pick<BandResult, 'blob' | 'adler' | 'length'>[];
    if (printSize) {
      bands = await resampleAndEncodeInBands(out, printSize, timings);
    } else {
      bands = stage('encode', () => {
        const piece = encodePngPiece(out.data, out.width, out.height, pngBuffer);
        pngBuffer = piece.chunks.buffer as ArrayBuffer;
        return [{ blob: new Blob([piece.chunks as Uint8Array<ArrayBuffer>]), adler: piece.adler, length: piece.length }];
      });
    }
    // The file says the DPI it prints at (a print file always has one; a plain crop only if asked).
    const dpi = options.printArea ? (options.dpi ?? PRINT_DPI) : options.dpi;
    // A Blob of Blobs: the bands' bytes are not copied again.
    const blob = stage('encode', () => new Blob([...pngHead(size.width, size.height, { dpi }), ...bands.map((b) => b.blob), ...pngTail(size.width, size.height, bands)] as BlobPart[], { type: 'image/png' }));
    return { blob, width: size.width, height: size.height, timings };
  },
  async crop(input, rect, type = 'image/jpeg'): Promise<PrintResult> {
    // The browser's own encoder, straight from the crop canvas: a screenshot keeps its pixels and has no DPI.
    const { canvas } = drawCrop(await decode(input), rect);
    const blob = await canvas.convertToBlob(type === 'image/jpeg' ? { type, quality: 0.92 } : { type });
    return { blob, width: canvas.width, height: canvas.height };
  },
};

Comlink.expose(api);
