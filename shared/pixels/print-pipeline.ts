/**
 * The print pipeline on decoded pixels: crop, feather at the source resolution, resample to the
 * print size at 300 DPI (fitted, never stretched). Pure: the worker decodes and encodes around it.
 */
import { crop, feather, resampleLanczos3, type RgbaImage } from '../../shared/pixels/image.ts';
import { PRINT_DPI, printFileSize, type CropRect } from '../../shared/print.ts';

export interface PrintOptions {
  crop: CropRect | null;
  /** Feather radius in source pixels; 0 for none. */
  featherRadius: number;
  /** The print area in inches; null keeps the cropped size. */
  printArea: { widthIn: number; heightIn: number } | null;
  dpi?: number;
}

export type Stage = 'decode' | 'crop' | 'feather' | 'resample' | 'encode';
export type StageTimings = Partial<Record<Stage, number>>;

/** Runs one stage and adds its duration to `timings` (when given). */
export function timed<T>(timings: StageTimings | undefined, stage: Stage, run: () => T): T {
  if (!timings) return run();
  const start = performance.now();
  const result = run();
  timings[stage] = (timings[stage] ?? 0) + performance.now() - start;
  return result;
}

export function runPrintPipeline(image: RgbaImage, opts: PrintOptions, timings?: StageTimings): RgbaImage {
  let out = opts.crop ? timed(timings, 'crop', () => crop(image, opts.crop!)) : image;
  if (opts.featherRadius > 0) {
    const own = out === image ? { ...out, data: new Uint8ClampedArray(out.data) } : out;
    out = timed(timings, 'feather', () => feather(own, opts.featherRadius));
  }
  if (opts.printArea) {
    const size = printFileSize(out, opts.printArea, opts.dpi ?? PRINT_DPI);
    const source = out;
    out = timed(timings, 'resample', () => resampleLanczos3(source, size.width, size.height));
  }
  return out;
}
