/** What the print worker offers, for the page that drives it (web/lib/printWorker.ts). */
import type { PrintOptions } from './pipeline.ts';

export type { PrintOptions };

export interface PrintResult {
  blob: Blob;
  width: number;
  height: number;
}

export interface PrintWorkerApi {
  /** Crop, feather and print-size resample in one call; PNG out. */
  prepare(input: Blob, options: PrintOptions): Promise<PrintResult>;
  /** Only the crop, pixel for pixel, as JPEG (a screenshot) or PNG. */
  crop(input: Blob, rect: NonNullable<PrintOptions['crop']>, type?: 'image/png' | 'image/jpeg'): Promise<PrintResult>;
}
