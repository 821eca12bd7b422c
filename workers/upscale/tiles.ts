/**
 * The pure part of the AI upscale: which model scale a crop needs, how the image is cut into
 * tiles so memory stays bounded whatever its size, and how far along a run is.
 */

export type UpscaleFactor = 2 | 4;

/** The factors the app offers, smallest first (the ESRGAN slim models for 2x and 4x). */
export const UPSCALE_FACTORS: readonly UpscaleFactor[] = [2, 4];

/** Where the app serves the model files (scripts/vite-plugin-models.ts copies them there). */
export const MODEL_BASE_PATH = '/models/esrgan-slim';

export function modelPath(factor: UpscaleFactor): string {
  return `${MODEL_BASE_PATH}/x${factor}/model.json`;
}

/**
 * The smallest factor that brings `currentDpi` to `targetDpi`, else the largest there is: a
 * bigger factor than needed costs four times the work and memory for pixels the 300 DPI
 * resample throws away.
 */
export function chooseFactor(currentDpi: number, targetDpi: number): UpscaleFactor {
  for (const factor of UPSCALE_FACTORS) if (currentDpi * factor >= targetDpi) return factor;
  return UPSCALE_FACTORS[UPSCALE_FACTORS.length - 1]!;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Tile {
  /** The pixels the model is given: the tile and up to `padding` pixels of context each side. */
  input: Rect;
  /** The part of the input kept, in source pixels; the tiles' `keep` rects cover the image once. */
  keep: Rect;
}

/**
 * Cuts a `width` x `height` image into tiles of at most `size` pixels a side, each read with
 * `padding` pixels of its neighbours around it (clamped at the edges), so the model sees context
 * across every seam and only the tile's own pixels are kept. Memory follows the tile size, not
 * the image's.
 */
export function planTiles(width: number, height: number, size: number, padding: number): Tile[] {
  if (!(width > 0 && height > 0)) throw new RangeError(`No pixels to upscale (${width} x ${height})`);
  if (!(size >= 1) || !(padding >= 0)) throw new RangeError(`Bad tile size ${size} or padding ${padding}`);
  const step = Math.floor(size);
  const tiles: Tile[] = [];
  for (let y = 0; y < height; y += step) {
    for (let x = 0; x < width; x += step) {
      const keep = { x, y, width: Math.min(step, width - x), height: Math.min(step, height - y) };
      const x0 = Math.max(0, x - padding);
      const y0 = Math.max(0, y - padding);
      const x1 = Math.min(width, keep.x + keep.width + padding);
      const y1 = Math.min(height, keep.y + keep.height + padding);
      tiles.push({ input: { x: x0, y: y0, width: x1 - x0, height: y1 - y0 }, keep });
    }
  }
  return tiles;
}

/**
 * The share of the progress bar the model's download and set-up takes; the tiles share the rest
 * by the pixels each one runs through the model (padding included), which is what takes the time.
 */
export const MODEL_LOAD_SHARE = 0.1;

export function tileWork(tiles: readonly Tile[]): number[] {
  return tiles.map((t) => t.input.width * t.input.height);
}

/** Progress (0 to 1) once the model is loaded and the first `done` tiles are upscaled. */
export function progressAfter(done: number, work: readonly number[]): number {
  const total = work.reduce((sum, w) => sum + w, 0);
  if (total === 0) return 1;
  let finished = 0;
  for (let i = 0; i < Math.min(done, work.length); i++) finished += work[i]!;
  return MODEL_LOAD_SHARE + (1 - MODEL_LOAD_SHARE) * (finished / total);
}
