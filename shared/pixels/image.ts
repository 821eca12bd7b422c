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

/** Throws a RangeError unless the rectangle is whole pixels inside an image of this size. */
export function checkCrop(image: { width: number; height: number }, rect: CropRect): void {
  const { x, y, width, height } = rect;
  if (![x, y, width, height].every(Number.isInteger) || x < 0 || y < 0 || width < 1 || height < 1 || x + width > image.width || y + height > image.height) {
    throw new RangeError(`Crop ${JSON.stringify(rect)} is not inside ${image.width}x${image.height}`);
  }
}

/** Copies a rectangle out of the image, pixel for pixel. The rectangle must lie inside. */
export function crop(image: RgbaImage, rect: CropRect): RgbaImage {
  checkCrop(image, rect);
  const { x, y, width, height } = rect;
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
 * along a smooth curve. Works in place and returns the image. Only the border band is visited:
 * every pixel further in than the radius keeps its alpha.
 */
export function feather(image: RgbaImage, radius: number): RgbaImage {
  if (radius <= 0) return image;
  const { width, height, data } = image;
  // Distances to the edge are whole pixels plus a half, so the curve has one value per band step.
  const band = Math.ceil(radius);
  const factor = new Float64Array(band);
  for (let j = 0; j < band; j++) {
    const t = Math.min(1, (j + 0.5) / radius);
    factor[j] = t * t * (3 - 2 * t);
  }
  const fade = (x: number, y: number, d: number) => {
    if (d >= band) return;
    const i = (y * width + x) * 4 + 3;
    data[i] = Math.round(data[i]! * factor[d]!);
  };
  const sideEnd = Math.min(band, width);
  const sideStart = Math.max(sideEnd, width - band);
  for (let y = 0; y < height; y++) {
    const dy = Math.min(y, height - 1 - y);
    if (dy < band) {
      for (let x = 0; x < width; x++) fade(x, y, Math.min(dy, x, width - 1 - x));
    } else {
      for (let x = 0; x < sideEnd; x++) fade(x, y, Math.min(x, width - 1 - x));
      for (let x = sideStart; x < width; x++) fade(x, y, width - 1 - x);
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

/**
 * Filter taps for one axis, `n` per output sample: Lanczos-3, widened when shrinking so it also
 * filters. Every output reads the same number of inputs (windows near an edge are moved inside
 * and padded with zero weights, and taps whose weight is zero everywhere are dropped), so the
 * inner loops have no bounds to look up. Enlarging always needs 6.
 */
interface Taps {
  start: Int32Array;
  weights: Float32Array;
  n: number;
}

function taps(inSize: number, outSize: number): Taps {
  const scale = outSize / inSize;
  const support = 3 * Math.max(1, 1 / scale);
  const firsts = new Int32Array(outSize);
  const windows: Float64Array[] = [];
  let n = 1;
  for (let o = 0; o < outSize; o++) {
    const centre = (o + 0.5) / scale - 0.5;
    let first = Math.max(0, Math.ceil(centre - support));
    let last = Math.min(inSize - 1, Math.floor(centre + support));
    const weight = (at: number) => lanczos3((at - centre) * Math.min(1, scale));
    while (last > first && weight(first) === 0) first++;
    while (last > first && weight(last) === 0) last--;
    const w = new Float64Array(last - first + 1);
    let sum = 0;
    for (let k = 0; k < w.length; k++) sum += w[k] = weight(first + k);
    for (let k = 0; k < w.length; k++) w[k]! /= sum;
    firsts[o] = first;
    windows.push(w);
    n = Math.max(n, w.length);
  }
  n = Math.min(n, inSize);
  const start = new Int32Array(outSize);
  const weights = new Float32Array(outSize * n);
  for (let o = 0; o < outSize; o++) {
    const from = Math.min(firsts[o]!, inSize - n);
    const shift = firsts[o]! - from;
    weights.set(windows[o]!, o * n + shift);
    start[o] = from;
  }
  return { start, weights, n };
}

/**
 * Resamples to exactly width x height with a separable Lanczos-3 filter on premultiplied alpha
 * (so transparent pixels do not bleed their colour into the edge). Callers choose a size with
 * the image's aspect ratio (print.ts printFileSize); this function does not guess one.
 *
 * Row by row: each source row is premultiplied and resampled across once, into a ring of as
 * many float rows as the vertical filter reads, and each output row is filtered down from that
 * ring. Besides the output, it holds a few rows of floats, whatever the print size (a full-size
 * float buffer for a 3600x4800 print would be more than 200 MB of fresh memory). Both passes have
 * a six-tap path (every enlargement, which is what a print mostly is) with the weights in local
 * variables, which the JIT keeps in registers; other sizes take the general loop.
 */
export function resampleLanczos3(image: RgbaImage, width: number, height: number): RgbaImage {
  return resampleLanczos3Rows(image, width, height, 0, height);
}

/**
 * Rows [y0, y1) of resampleLanczos3(image, width, height), computed from only the source rows
 * they need: several workers each take a band and the bands put together are the whole image,
 * byte for byte. `into`, when given and large enough, is written over instead of a new buffer
 * (a worker making one print after another reuses the last band's memory): every byte of the
 * band is written.
 */
export function resampleLanczos3Rows(image: RgbaImage, width: number, height: number, y0: number, y1: number, into?: Uint8ClampedArray): RgbaImage {
  const bytes = width * 4 * (y1 - y0);
  const out = into && into.length >= bytes ? { width, height: y1 - y0, data: into.subarray(0, bytes) } : createImage(width, Math.max(0, y1 - y0));
  new Lanczos3Resampler(image, width, height).rows(y0, y1, out.data);
  return out;
}

/**
 * resampleLanczos3 a few rows at a time: `rows` may be called again and again for the rows that
 * follow, and carries on from the source rows it has already resampled across (a call for rows
 * further up starts again from the source). So a band can be made and used (encoded) in pieces
 * small enough to stay in the CPU's cache, with the same bytes as resampleLanczos3Rows.
 */
export class Lanczos3Resampler {
  private readonly v: Taps;
  private readonly h: Taps;
  private readonly rowLen: number;
  /** Source row r is kept at ring row r % n while output rows read it (their windows only move down). */
  private readonly ring: Float32Array;
  private readonly pre: Float32Array;
  /** The source rows resampled across so far end here; the ring holds the n rows before it (none at first). */
  private next = 0;

  constructor(
    private readonly image: RgbaImage,
    readonly width: number,
    readonly height: number,
  ) {
    this.v = taps(image.height, height);
    this.h = taps(image.width, width);
    this.rowLen = width * 4;
    this.ring = new Float32Array(this.rowLen * this.v.n);
    this.pre = new Float32Array(image.width * 4);
  }

  /** Writes output rows [y0, y1) into `into` (at least width * 4 * (y1 - y0) bytes), from its start. */
  rows(y0: number, y1: number, into: Uint8ClampedArray): void {
    if (!(y0 >= 0 && y1 <= this.height && y0 < y1)) throw new RangeError(`rows ${y0}-${y1} are outside 0-${this.height}`);
    if (into.length < this.rowLen * (y1 - y0)) throw new RangeError(`${into.length} bytes do not hold rows ${y0}-${y1}`);
    const { v, h, rowLen, ring, pre, image } = this;
    let next = this.next;
    // Rows further up than the ring holds: start again from their source rows.
    if (v.start[y0]! < next - v.n) next = v.start[y0]!;
    for (let y = y0; y < y1; y++) {
      const first = v.start[y]!;
      for (let r = Math.max(next, first); r < first + v.n; r++) {
        premultiplyRow(image, r, pre);
        horizontalRow(pre, ring, (r % v.n) * rowLen, h);
      }
      next = Math.max(next, first + v.n);
      verticalRow(ring, rowLen, first, v, y, into, (y - y0) * rowLen);
    }
    this.next = next;
  }
}

/** Source row `y` as premultiplied floats. */
function premultiplyRow(image: RgbaImage, y: number, pre: Float32Array): void {
  const src = image.data;
  for (let i = y * image.width * 4, j = 0; j < pre.length; i += 4, j += 4) {
    const alpha = src[i + 3]!;
    const a = alpha / 255;
    pre[j] = src[i]! * a;
    pre[j + 1] = src[i + 1]! * a;
    pre[j + 2] = src[i + 2]! * a;
    pre[j + 3] = alpha;
  }
}

/** One premultiplied row resampled across, into `mid` from offset `o`. */
function horizontalRow(pre: Float32Array, mid: Float32Array, o: number, h: Taps): void {
  const { start, weights, n } = h;
  const outW = start.length;
  if (n === 6) {
    for (let x = 0; x < outW; x++) {
      const p = start[x]! * 4;
      const wi = x * 6;
      const w0 = weights[wi]!, w1 = weights[wi + 1]!, w2 = weights[wi + 2]!;
      const w3 = weights[wi + 3]!, w4 = weights[wi + 4]!, w5 = weights[wi + 5]!;
      for (let c = 0; c < 4; c++) {
        const q = p + c;
        mid[o + c] = pre[q]! * w0 + pre[q + 4]! * w1 + pre[q + 8]! * w2 + pre[q + 12]! * w3 + pre[q + 16]! * w4 + pre[q + 20]! * w5;
      }
      o += 4;
    }
    return;
  }
  for (let x = 0, wi = 0; x < outW; x++) {
    let p = start[x]! * 4;
    let r = 0, g = 0, b = 0, a = 0;
    for (let k = 0; k < n; k++, wi++, p += 4) {
      const w = weights[wi]!;
      r += pre[p]! * w;
      g += pre[p + 1]! * w;
      b += pre[p + 2]! * w;
      a += pre[p + 3]! * w;
    }
    mid[o] = r;
    mid[o + 1] = g;
    mid[o + 2] = b;
    mid[o + 3] = a;
    o += 4;
  }
}

/** Writes one pixel from premultiplied sums, back in straight alpha (rounded and clamped by the array). */
function store(dst: Uint8ClampedArray, d: number, r: number, g: number, b: number, a: number): void {
  if (a >= 255) {
    dst[d] = r;
    dst[d + 1] = g;
    dst[d + 2] = b;
    dst[d + 3] = 255;
  } else if (a > 0) {
    const k = 255 / a;
    dst[d] = r * k;
    dst[d + 1] = g * k;
    dst[d + 2] = b * k;
    dst[d + 3] = a;
  } else {
    // Fully transparent: written too, as the buffer may hold an earlier image.
    dst[d] = 0;
    dst[d + 1] = 0;
    dst[d + 2] = 0;
    dst[d + 3] = 0;
  }
}

/** Output row `y` filtered down from the ring rows of source rows [first, first + n), into `dst` at `line`. */
function verticalRow(ring: Float32Array, rowLen: number, first: number, v: Taps, y: number, dst: Uint8ClampedArray, line: number): void {
  const { weights, n } = v;
  const wi = y * n;
  const at = (k: number) => ((first + k) % n) * rowLen;
  if (n === 6) {
    const b0 = at(0), b1 = at(1), b2 = at(2), b3 = at(3), b4 = at(4), b5 = at(5);
    const w0 = weights[wi]!, w1 = weights[wi + 1]!, w2 = weights[wi + 2]!;
    const w3 = weights[wi + 3]!, w4 = weights[wi + 4]!, w5 = weights[wi + 5]!;
    for (let i = 0; i < rowLen; i += 4) {
      const r = ring[b0 + i]! * w0 + ring[b1 + i]! * w1 + ring[b2 + i]! * w2 + ring[b3 + i]! * w3 + ring[b4 + i]! * w4 + ring[b5 + i]! * w5;
      const g = ring[b0 + i + 1]! * w0 + ring[b1 + i + 1]! * w1 + ring[b2 + i + 1]! * w2 + ring[b3 + i + 1]! * w3 + ring[b4 + i + 1]! * w4 + ring[b5 + i + 1]! * w5;
      const b = ring[b0 + i + 2]! * w0 + ring[b1 + i + 2]! * w1 + ring[b2 + i + 2]! * w2 + ring[b3 + i + 2]! * w3 + ring[b4 + i + 2]! * w4 + ring[b5 + i + 2]! * w5;
      const a = ring[b0 + i + 3]! * w0 + ring[b1 + i + 3]! * w1 + ring[b2 + i + 3]! * w2 + ring[b3 + i + 3]! * w3 + ring[b4 + i + 3]! * w4 + ring[b5 + i + 3]! * w5;
      store(dst, line + i, r, g, b, a);
    }
    return;
  }
  const rows = new Int32Array(n);
  for (let k = 0; k < n; k++) rows[k] = at(k);
  for (let i = 0; i < rowLen; i += 4) {
    let r = 0, g = 0, b = 0, a = 0;
    for (let k = 0; k < n; k++) {
      const w = weights[wi + k]!;
      const p = rows[k]! + i;
      r += ring[p]! * w;
      g += ring[p + 1]! * w;
      b += ring[p + 2]! * w;
      a += ring[p + 3]! * w;
    }
    store(dst, line + i, r, g, b, a);
  }
}
