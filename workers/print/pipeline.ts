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

export function runPrintPipeline(image: RgbaImage, opts: PrintOptions): RgbaImage {
  let out = opts.crop ? crop(image, opts.crop) : image;
  if (opts.featherRadius > 0) out = feather(out === image ? { ...out, data: new Uint8ClampedArray(out.data) } : out, opts.featherRadius);
  if (opts.printArea) {
    const size = printFileSize(out, opts.printArea, opts.dpi ?? PRINT_DPI);
    out = resampleLanczos3(out, size.width, size.height);
  }
  return out;
}
