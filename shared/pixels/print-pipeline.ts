/**
 * The print pipeline on decoded pixels: crop, feather at the source resolution, resample to the
 * print size (fitted, never stretched). The one pipeline: the browser's print worker makes the
 * buyer's preview with it and the server makes the order's print file with it, so what the buyer
 * saw is what is printed. Pure: callers decode and encode around it.
 */
import { FEATHER_RADIUS_PX } from '../constants.ts';
import type { Area } from '../catalogue/parse.ts';
import { PRINT_DPI, printFileSize, type CropRect, type Size } from '../print.ts';
import { bandEdges } from './bands.ts';
import { crop, feather, resampleLanczos3, type Lanczos3Resampler, type RgbaImage } from './image.ts';
import { BLOCK_ROWS, PngPieceWriter, type PngPiece } from './png.ts';

export interface PrintOptions {
  crop: CropRect | null;
  /** Feather radius in source pixels; 0 for none. */
  featherRadius: number;
  /** The print area in inches; null keeps the cropped size. */
  printArea: { widthIn: number; heightIn: number } | null;
  dpi?: number;
}

/** Spec: a print file is feathered 12 px at the source resolution and fills its area at 300 DPI. */
export function printFileOptions(cropRect: CropRect | null, printArea: Area): PrintOptions {
  return { crop: cropRect, featherRadius: FEATHER_RADIUS_PX, printArea, dpi: PRINT_DPI };
}

export type Stage = 'decode' | 'crop' | 'feather' | 'resample' | 'encode';
export type StageTimings = Partial<Record<Stage, number>>;

/** Runs one stage of the pipeline; the print worker passes one that times each stage. */
export type StageRunner = <T>(stage: Stage, run: () => T) => T;

const untimed: StageRunner = (_stage, run) => run();

/** Crop, then feather at the source resolution. The input image is never written to. */
export function cropAndFeather(image: RgbaImage, opts: PrintOptions, stage: StageRunner = untimed): RgbaImage {
  let out = opts.crop ? stage('crop', () => crop(image, opts.crop!)) : image;
  if (opts.featherRadius > 0) {
    const own = out === image ? { ...out, data: new Uint8ClampedArray(out.data) } : out;
    out = stage('feather', () => feather(own, opts.featherRadius));
  }
  return out;
}

/** The print file's pixel size for the cropped image, or null when it keeps its own size. */
export function printSizeOf(image: Size, opts: PrintOptions): Size | null {
  return opts.printArea ? printFileSize(image, opts.printArea, opts.dpi ?? PRINT_DPI) : null;
}

/** The whole pipeline on this thread. */
export function runPrintPipeline(image: RgbaImage, opts: PrintOptions, stage: StageRunner = untimed): RgbaImage {
  const out = cropAndFeather(image, opts, stage);
  const size = printSizeOf(out, opts);
  return size ? stage('resample', () => resampleLanczos3(out, size.width, size.height)) : out;
}

/** Rows [y0, y1) of the resample to width x height (shared/pixels/image.ts resampleLanczos3Rows, maybe on another thread). */
export type BandResampler = (image: RgbaImage, width: number, height: number, y0: number, y1: number, band: number) => Promise<RgbaImage> | RgbaImage;

/**
 * The whole pipeline with the resample split into at most `count` bands of rows, top to bottom,
 * each made by `resampleRows`: put together they are runPrintPipeline's image, byte for byte.
 */
export async function runPrintPipelineInBands(
  image: RgbaImage,
  opts: PrintOptions,
  count: number,
  resampleRows: BandResampler,
  stage: StageRunner = untimed,
): Promise<RgbaImage[]> {
  const out = cropAndFeather(image, opts, stage);
  const size = printSizeOf(out, opts);
  if (!size) return [out];
  const edges = bandEdges(size.height, count);
  return stage('resample', () => Promise.all(edges.slice(1).map((y1, i) => resampleRows(out, size.width, size.height, edges[i]!, y1, i))));
}

/** One band of a print file as PNG (png.ts), and the milliseconds its resample and its encode took. */
export interface PngBand {
  piece: PngPiece;
  resampleMs: number;
  encodeMs: number;
}

/** Memory a thread keeps from one band to the next: a few rows of pixels. */
export interface BandScratch {
  rows?: Uint8ClampedArray;
}

/**
 * Rows [y0, y1) of the print-size resample, made and PNG-encoded a deflate block's rows at a
 * time (png.ts BLOCK_ROWS), so each block's pixels are still in the CPU's cache when they are
 * coded and the band never exists whole. The band's pixels are resampleLanczos3Rows' bytes,
 * exactly. `reuse` is a spare buffer for the PNG bytes (an earlier band's, once in a file);
 * `now` the clock the stages are timed with (a worker passes performance.now).
 */
export function resampleBandToPng(resampler: Lanczos3Resampler, y0: number, y1: number, scratch: BandScratch, reuse?: ArrayBuffer, now: () => number = Date.now): PngBand {
  const stride = resampler.width * 4;
  // Row 0 holds the row above the block (the last row coded), for the 'up' filter.
  const size = stride * (BLOCK_ROWS + 1);
  if (!scratch.rows || scratch.rows.length < size) scratch.rows = new Uint8ClampedArray(size);
  const rows = scratch.rows;
  const writer = new PngPieceWriter(resampler.width, y1 - y0, reuse);
  let resampleMs = 0;
  let encodeMs = 0;
  for (let y = y0; y < y1; ) {
    const end = Math.min(y1, y + BLOCK_ROWS);
    // The band's first block starts at row 0: it has no row above it in this band.
    const at = y === y0 ? 0 : 1;
    const t0 = now();
    resampler.rows(y, end, rows.subarray(at * stride));
    const t1 = now();
    writer.addRows(rows, at, at + end - y);
    const last = at + end - y - 1;
    if (last > 0) rows.copyWithin(0, last * stride, (last + 1) * stride);
    encodeMs += now() - t1;
    resampleMs += t1 - t0;
    y = end;
  }
  const t = now();
  const piece = writer.finish();
  encodeMs += now() - t;
  return { piece, resampleMs, encodeMs };
}
