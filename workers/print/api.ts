/** What the print worker offers, for the page that drives it (through the web app's worker bridge). */
import type { PrintOptions, StageTimings } from '../../shared/pixels/print-pipeline.ts';

export type { PrintOptions, StageTimings };

export interface PrintResult {
  blob: Blob;
  width: number;
  height: number;
  /** Milliseconds per stage inside the worker (decode, crop, feather, resample, encode). */
  timings?: StageTimings;
}

export interface PrintWorkerApi {
  /** Crop, feather and print-size resample in one call; PNG out, with a pHYs chunk at the print's DPI. */
  prepare(input: Blob, options: PrintOptions): Promise<PrintResult>;
  /** Only the crop, pixel for pixel, as JPEG (a screenshot) or PNG. */
  crop(input: Blob, rect: NonNullable<PrintOptions['crop']>, type?: 'image/png' | 'image/jpeg'): Promise<PrintResult>;
}
