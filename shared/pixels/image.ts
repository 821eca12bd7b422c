/**
 * Pixel operations on plain RGBA buffers, shared by the print workers and the server, so both
 * produce the same print files. No DOM, no Node: just arrays.
 */
import type { CropRect } from '../print.ts';

export interface RgbaImage {
  width: number;
  height: number;
  /** width * height * 4 bytes, row by row, RGBA, not premultiplied. */
  data: Uint8ClampedArray;
}

export function createImage(width: number, height: number): RgbaImage {
  return { width, height, data: new Uint8ClampedArray(width * height * 4) };
}

/** Copies a rectangle out of the image, pixel for pixel. The rectangle must lie inside. */
export function crop(image: RgbaImage, rect: CropRect): RgbaImage {
  const { x, y, width, height } = rect;
  if (![x, y, width, height].every(Number.isInteger) || x < 0 || y < 0 || width < 1 || height < 1 || x + width > image.width || y + height > image.height) {
    throw new RangeError(`Crop ${JSON.stringify(rect)} is not inside ${image.width}x${image.height}`);
  }
  const out = createImage(width, height);
  const rowBytes = width * 4;
  for (let row = 0; row < height; row++) {
    const from = ((y + row) * image.width + x) * 4;
    out.data.set(image.data.subarray(from, from + rowBytes), row * rowBytes);
  }
  return out;
}

/**
 * A soft alpha edge: opacity rises from 0 at the border to full at `radius` pixels inside,
 * along a smooth curve. Works in place and returns the image.
 */
export function feather(image: RgbaImage, radius: number): RgbaImage {
  if (radius <= 0) return image;
  const { width, height, data } = image;
  for (let y = 0; y < height; y++) {
    const dy = Math.min(y + 0.5, height - y - 0.5);
    for (let x = 0; x < width; x++) {
      const d = Math.min(dy, x + 0.5, width - x - 0.5);
      if (d >= radius) continue;
      const t = d / radius;
      const k = t * t * (3 - 2 * t);
      const i = (y * width + x) * 4 + 3;
      data[i] = Math.round(data[i]! * k);
    }
  }
  return image;
}

function lanczos3(x: number): number {
  if (x === 0) return 1;
  if (x <= -3 || x >= 3) return 0;
  const px = Math.PI * x;
  return (3 * Math.sin(px) * Math.sin(px / 3)) / (px * px);
}

interface Taps {
  start: Int32Array;
  count: Int32Array;
  weights: Float32Array;
  stride: number;
}

/** Filter taps for one axis: Lanczos-3, widened when shrinking so it also filters. */
function taps(inSize: number, outSize: number): Taps {
  const scale = outSize / inSize;
  const support = 3 * Math.max(1, 1 / scale);
  const stride = Math.ceil(support * 2) + 1;
  const start = new Int32Array(outSize);
  const count = new Int32Array(outSize);
  const weights = new Float32Array(outSize * stride);
  for (let o = 0; o < outSize; o++) {
    const centre = (o + 0.5) / scale - 0.5;
    const first = Math.max(0, Math.ceil(centre - support));
    const last = Math.min(inSize - 1, Math.floor(centre + support));
    let sum = 0;
    const n = last - first + 1;
    for (let k = 0; k < n; k++) {
      const w = lanczos3((first + k - centre) * Math.min(1, scale));
      weights[o * stride + k] = w;
      sum += w;
    }
    for (let k = 0; k < n; k++) weights[o * stride + k] = weights[o * stride + k]! / sum;
    start[o] = first;
    count[o] = n;
  }
  return { start, count, weights, stride };
}

/**
 * Resamples to exactly width x height with a separable Lanczos-3 filter on premultiplied alpha
 * (so transparent pixels do not bleed their colour into the edge). Callers choose a size with
 * the image's aspect ratio (print.ts printFileSize); this function does not guess one.
 */
export function resampleLanczos3(image: RgbaImage, width: number, height: number): RgbaImage {
  const src = image.data;
  const pre = new Float32Array(image.width * image.height * 4);
  for (let i = 0; i < src.length; i += 4) {
    const a = src[i + 3]! / 255;
    pre[i] = src[i]! * a;
    pre[i + 1] = src[i + 1]! * a;
    pre[i + 2] = src[i + 2]! * a;
    pre[i + 3] = src[i + 3]!;
  }
  // Horizontal pass into a (width x image.height) float buffer.
  const h = taps(image.width, width);
  const mid = new Float32Array(width * image.height * 4);
  for (let y = 0; y < image.height; y++) {
    const row = y * image.width * 4;
    for (let x = 0; x < width; x++) {
      let r = 0, g = 0, b = 0, a = 0;
      const s = h.start[x]!;
      const base = x * h.stride;
      for (let k = 0; k < h.count[x]!; k++) {
        const w = h.weights[base + k]!;
        const i = row + (s + k) * 4;
        r += pre[i]! * w;
        g += pre[i + 1]! * w;
        b += pre[i + 2]! * w;
        a += pre[i + 3]! * w;
      }
      const o = (y * width + x) * 4;
      mid[o] = r;
      mid[o + 1] = g;
      mid[o + 2] = b;
      mid[o + 3] = a;
    }
  }
  // Vertical pass, then back to straight alpha.
  const v = taps(image.height, height);
  const out = createImage(width, height);
  for (let y = 0; y < height; y++) {
    const s = v.start[y]!;
    const base = y * v.stride;
    for (let x = 0; x < width; x++) {
      let r = 0, g = 0, b = 0, a = 0;
      for (let k = 0; k < v.count[y]!; k++) {
        const w = v.weights[base + k]!;
        const i = ((s + k) * width + x) * 4;
        r += mid[i]! * w;
        g += mid[i + 1]! * w;
        b += mid[i + 2]! * w;
        a += mid[i + 3]! * w;
      }
      const o = (y * width + x) * 4;
      const alpha = Math.min(255, Math.max(0, a));
      const k = alpha > 0 ? 255 / alpha : 0;
      out.data[o] = r * k;
      out.data[o + 1] = g * k;
      out.data[o + 2] = b * k;
      out.data[o + 3] = alpha;
    }
  }
  return out;
}
