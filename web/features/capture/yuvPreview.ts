/**
 * A small RGBA preview straight from a video frame's YUV planes (I420 or NV12, as decoders hand
 * them out), for the screenshot slot: each preview pixel averages up to 4x4 luma samples (pairs
 * of neighbours spread over its footprint in the frame), with the chroma at their centre,
 * converted with the frame's own matrix (BT.709 or BT.601) and range. A fraction of the cost of
 * the browser converting the whole frame to RGB and scaling it down, which is what drawing a
 * 1080p frame costs. The full-resolution image never comes from here.
 */

export type YuvFormat = 'I420' | 'NV12';

export interface YuvPlanes {
  format: YuvFormat;
  /** The visible picture's size in the planes. */
  width: number;
  height: number;
  data: Uint8Array;
  /** Offset and stride of each plane in `data` (Y, U, V for I420; Y, UV for NV12). */
  layout: ReadonlyArray<{ offset: number; stride: number }>;
  matrix: 'bt709' | 'bt601';
  fullRange: boolean;
}

/** Kr and Kb of each matrix. */
const MATRIX = { bt709: { kr: 0.2126, kb: 0.0722 }, bt601: { kr: 0.299, kb: 0.114 } } as const;

/**
 * Source sample positions for each output position along one axis, `taps` per output: pairs of
 * neighbouring samples (so a pattern one sample wide averages out instead of aliasing), the pairs
 * spread evenly over the output's footprint; a single centred sample where `taps` is 1.
 */
function tapPositions(source: number, output: number, taps: number): Int32Array {
  const out = new Int32Array(output * taps);
  const step = source / output;
  const pairs = taps >> 1;
  for (let o = 0; o < output; o++) {
    for (let k = 0; k < taps; k++) {
      const at = taps === 1 ? Math.floor(o * step + step / 2) : Math.floor(o * step + ((((k >> 1) + 0.5) * step) / pairs)) - 1 + (k & 1);
      out[o * taps + k] = Math.max(0, Math.min(source - 1, at));
    }
  }
  return out;
}

/**
 * The planes scaled to `width` x `height` as RGBA (alpha 255). Row by row: the luma samples of
 * each output pixel's footprint are summed into one integer per output column (reading the
 * footprint's rows in turn, unrolled for 4, 2 and 1 taps), then each pixel is converted.
 */
export function yuvToPreviewRgba(planes: YuvPlanes, width: number, height: number): Uint8ClampedArray<ArrayBuffer> {
  const { data, layout, format } = planes;
  const step = Math.min(planes.width / width, planes.height / height);
  const taps = step >= 4 ? 4 : step >= 2 ? 2 : 1;
  const xs = tapPositions(planes.width, width, taps);
  const ys = tapPositions(planes.height, height, taps);
  const { kr, kb } = MATRIX[planes.matrix];
  const kg = 1 - kr - kb;
  const count = taps * taps;
  const yScale = planes.fullRange ? 1 : 255 / 219;
  const yOffset = planes.fullRange ? 0 : 16;
  const cScale = planes.fullRange ? 1 : 255 / 224;
  const crR = 2 * (1 - kr) * cScale;
  const cbB = 2 * (1 - kb) * cScale;
  const cbG = ((2 * kb * (1 - kb)) / kg) * cScale;
  const crG = ((2 * kr * (1 - kr)) / kg) * cScale;
  const yPlane = layout[0]!;
  const uPlane = layout[1]!;
  const vPlane = format === 'I420' ? layout[2]! : layout[1]!;
  const nv12 = format === 'NV12';
  // Where each column's chroma sample is, in its plane's row (Cb; Cr follows in NV12).
  const chromaX = new Int32Array(width);
  for (let ox = 0; ox < width; ox++) chromaX[ox] = nv12 ? (xs[ox * taps + (taps >> 1)]! >> 1) * 2 : xs[ox * taps + (taps >> 1)]! >> 1;
  const sums = new Uint32Array(width);
  const out = new Uint8ClampedArray(width * height * 4);
  for (let oy = 0; oy < height; oy++) {
    const rowTaps = oy * taps;
    sums.fill(0);
    for (let j = 0; j < taps; j++) {
      const row = yPlane.offset + ys[rowTaps + j]! * yPlane.stride;
      if (taps === 4) {
        for (let ox = 0, c = 0; ox < width; ox++, c += 4) sums[ox]! += data[row + xs[c]!]! + data[row + xs[c + 1]!]! + data[row + xs[c + 2]!]! + data[row + xs[c + 3]!]!;
      } else if (taps === 2) {
        for (let ox = 0, c = 0; ox < width; ox++, c += 2) sums[ox]! += data[row + xs[c]!]! + data[row + xs[c + 1]!]!;
      } else {
        for (let ox = 0; ox < width; ox++) sums[ox]! += data[row + xs[ox]!]!;
      }
    }
    // Chroma at the centre of the footprint (planes are subsampled by 2 both ways).
    const cy = ys[rowTaps + (taps >> 1)]! >> 1;
    const uRow = uPlane.offset + cy * uPlane.stride;
    const vRow = nv12 ? uRow + 1 : vPlane.offset + cy * vPlane.stride;
    for (let ox = 0, o = oy * width * 4; ox < width; ox++, o += 4) {
      const luma = (sums[ox]! / count - yOffset) * yScale;
      const cx = chromaX[ox]!;
      const cb = data[uRow + cx]! - 128;
      const cr = data[vRow + cx]! - 128;
      out[o] = luma + crR * cr;
      out[o + 1] = luma - cbG * cb - crG * cr;
      out[o + 2] = luma + cbB * cb;
      out[o + 3] = 255;
    }
  }
  return out;
}
