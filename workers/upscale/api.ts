/** What the upscale worker offers, for the page that drives it (web/features/print-crop/upscale/upscaleWorker.ts). */
import type { UpscaleFactor } from './tiles.ts';

export type { UpscaleFactor };

/** Straight RGBA, 4 bytes a pixel, row by row. */
export interface RgbaPixels {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

export type UpscaleBackend = 'webgl' | 'cpu';

export interface UpscaleOptions {
  factor: UpscaleFactor;
  /** Absolute URL of the model's model.json, served by the app (its weights sit beside it). */
  modelUrl: string;
  /** Backends to try in order; the first that starts is used. Default: webgl, then cpu. */
  backends?: UpscaleBackend[];
  /** Source pixels a tile side (memory follows it). Default 128, the size the model was trained on. */
  tileSize?: number;
  /** Context pixels read around each tile so no seam shows. Default 12. */
  padding?: number;
}

export interface UpscaleStats {
  backend: UpscaleBackend;
  /** Model download and set-up, ms (0 when this worker had it already). */
  loadMs: number;
  /** The tiles through the model, ms. */
  inferMs: number;
  tiles: number;
}

export type UpscaledPixels = RgbaPixels & { stats: UpscaleStats };
export type UpscaledBlob = { blob: Blob; width: number; height: number; stats: UpscaleStats };

/** Told the progress, 0 to 1, as the model loads and each tile is done. */
export type ProgressCallback = (progress: number) => void;

export interface UpscaleWorkerApi {
  /**
   * The image `factor` times larger, by the ESRGAN model, as RGBA (transferred back). Alpha is
   * not upscaled by the model: it is taken from the nearest source pixel.
   */
  upscale(input: RgbaPixels | Blob | ImageBitmap, options: UpscaleOptions, onProgress?: ProgressCallback): Promise<UpscaledPixels>;
  /** The same, encoded as PNG in the worker (for the print pipeline, which takes a Blob). */
  upscaleToPng(input: RgbaPixels | Blob | ImageBitmap, options: UpscaleOptions, onProgress?: ProgressCallback): Promise<UpscaledBlob>;
}
