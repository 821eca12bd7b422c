import { describe, expect, it } from 'vitest';
import { yuvToPreviewRgba, type YuvFormat, type YuvPlanes } from './yuvPreview.ts';

type Rgb = [number, number, number];
const KR_KB = { bt709: [0.2126, 0.0722], bt601: [0.299, 0.114] } as const;

/** RGB to Y'CbCr the way an encoder writes it (limited or full range). */
function toYuv([r, g, b]: Rgb, matrix: 'bt709' | 'bt601', fullRange: boolean): [number, number, number] {
  const [kr, kb] = KR_KB[matrix];
  const y = kr * r + (1 - kr - kb) * g + kb * b;
  const cb = (b - y) / (2 * (1 - kb));
  const cr = (r - y) / (2 * (1 - kr));
  if (fullRange) return [Math.round(y), Math.round(cb + 128), Math.round(cr + 128)];
  return [Math.round(16 + (y * 219) / 255), Math.round(128 + (cb * 224) / 255), Math.round(128 + (cr * 224) / 255)];
}

/**
 * A frame of four quadrants (top left, top right, bottom left, bottom right), with padded
 * strides and the planes at offsets, as VideoFrame.copyTo lays them out.
 */
function frameOf(format: YuvFormat, width: number, height: number, colours: [Rgb, Rgb, Rgb, Rgb], matrix: 'bt709' | 'bt601', fullRange: boolean): YuvPlanes {
  const cw = width / 2;
  const ch = height / 2;
  const yStride = width + 8;
  const cStride = format === 'I420' ? cw + 4 : width + 8;
  const layout =
    format === 'I420'
      ? [
          { offset: 0, stride: yStride },
          { offset: yStride * height, stride: cStride },
          { offset: yStride * height + cStride * ch, stride: cStride },
        ]
      : [
          { offset: 0, stride: yStride },
          { offset: yStride * height, stride: cStride },
        ];
  const data = new Uint8Array(yStride * height + cStride * ch * (format === 'I420' ? 2 : 1));
  const quadrant = (x: number, y: number) => colours[(y < height / 2 ? 0 : 2) + (x < width / 2 ? 0 : 1)]!;
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data[y * yStride + x] = toYuv(quadrant(x, y), matrix, fullRange)[0];
  for (let y = 0; y < ch; y++) {
    for (let x = 0; x < cw; x++) {
      const [, cb, cr] = toYuv(quadrant(x * 2, y * 2), matrix, fullRange);
      if (format === 'I420') {
        data[layout[1]!.offset + y * cStride + x] = cb;
        data[layout[2]!.offset + y * cStride + x] = cr;
      } else {
        data[layout[1]!.offset + y * cStride + x * 2] = cb;
        data[layout[1]!.offset + y * cStride + x * 2 + 1] = cr;
      }
    }
  }
  return { format, width, height, data, layout, matrix, fullRange };
}

const COLOURS: [Rgb, Rgb, Rgb, Rgb] = [
  [200, 30, 40],
  [20, 180, 60],
  [30, 60, 220],
  [240, 240, 240],
];

function pixel(rgba: Uint8ClampedArray, width: number, x: number, y: number): number[] {
  const o = (y * width + x) * 4;
  return Array.from(rgba.subarray(o, o + 4));
}

describe('yuvToPreviewRgba', () => {
  for (const [format, matrix, fullRange] of [
    ['I420', 'bt709', false],
    ['NV12', 'bt709', false],
    ['I420', 'bt601', true],
  ] as const) {
    it(`turns ${format} ${matrix} ${fullRange ? 'full' : 'limited'}-range planes back into their colours, scaled down`, () => {
      const frame = frameOf(format, 80, 40, COLOURS, matrix, fullRange);
      const rgba = yuvToPreviewRgba(frame, 16, 8);
      expect(rgba.length).toBe(16 * 8 * 4);
      // The centre pixel of each quadrant of the preview is that quadrant's colour, within rounding.
      const centres = [
        [4, 2],
        [12, 2],
        [4, 6],
        [12, 6],
      ] as const;
      centres.forEach(([x, y], i) => {
        const [r, g, b, a] = pixel(rgba, 16, x, y);
        const want = COLOURS[i]!;
        expect(Math.abs(r! - want[0]), `red of quadrant ${i}`).toBeLessThanOrEqual(3);
        expect(Math.abs(g! - want[1]), `green of quadrant ${i}`).toBeLessThanOrEqual(3);
        expect(Math.abs(b! - want[2]), `blue of quadrant ${i}`).toBeLessThanOrEqual(3);
        expect(a).toBe(255);
      });
    });
  }

  it('averages the luma under each preview pixel rather than picking one sample', () => {
    // Alternating black and white columns: a picked sample would be black or white; the average is grey.
    const width = 60;
    const height = 30;
    const frame = frameOf('I420', width, height, [[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]], 'bt709', true);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) frame.data[y * frame.layout[0]!.stride + x] = x % 2 ? 255 : 0;
    const rgba = yuvToPreviewRgba(frame, 10, 5);
    const [r] = pixel(rgba, 10, 5, 2);
    expect(r).toBeGreaterThan(60);
    expect(r).toBeLessThan(200);
  });
});
