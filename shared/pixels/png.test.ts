import { inflateSync, crc32 as zlibCrc32 } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createImage, type RgbaImage } from './image.ts';
import { adler32Combine, assemblePng, BLOCK_ROWS, crc32, encodePng, encodePngPiece, huffmanLengths, PngPieceWriter } from './png.ts';

/** A seeded pseudo-random generator (mulberry32), so a failure can be reproduced. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Smooth colour with grain and a soft alpha edge, like a feathered print. */
function photo(width: number, height: number, seed = 1): RgbaImage {
  const rand = random(seed);
  const img = createImage(width, height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      img.data[i] = 128 + 100 * Math.sin(x / 17) + 20 * rand();
      img.data[i + 1] = (255 * y) / height + 10 * rand();
      img.data[i + 2] = (x * y) % 256;
      img.data[i + 3] = Math.min(255, 40 * Math.min(x, y, width - 1 - x, height - 1 - y));
    }
  }
  return img;
}

function noise(width: number, height: number, seed = 2): RgbaImage {
  const rand = random(seed);
  const img = createImage(width, height);
  for (let i = 0; i < img.data.length; i++) img.data[i] = rand() * 256;
  return img;
}

async function decode(png: Uint8Array): Promise<{ data: Buffer; width: number; height: number; density?: number }> {
  const file = sharp(png);
  const { data, info } = await file.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const { density } = await sharp(png).metadata();
  return { data, width: info.width, height: info.height, density };
}

function join(parts: Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts));
}

/** The chunks of a PNG file, each CRC checked with zlib's own CRC-32. */
function chunks(png: Uint8Array): { type: string; data: Uint8Array }[] {
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const out: { type: string; data: Uint8Array }[] = [];
  for (let at = 8; at < png.length; ) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    const data = png.subarray(at + 8, at + 8 + length);
    expect(view.getUint32(at + 8 + length), `CRC of ${type} at ${at}`).toBe(zlibCrc32(png.subarray(at + 4, at + 8 + length)));
    out.push({ type, data });
    at += 12 + length;
  }
  return out;
}

/** What PNG's 'up' filter makes of an image's rows, each band's first row filtered 'none'. */
function filtered(image: RgbaImage, bandStarts: number[]): Buffer {
  const stride = image.width * 4;
  const out = Buffer.alloc((stride + 1) * image.height);
  for (let y = 0; y < image.height; y++) {
    const up = !bandStarts.includes(y);
    out[y * (stride + 1)] = up ? 2 : 0;
    for (let i = 0; i < stride; i++) {
      const above = up ? image.data[(y - 1) * stride + i]! : 0;
      out[y * (stride + 1) + 1 + i] = (image.data[y * stride + i]! - above) & 0xff;
    }
  }
  return out;
}

function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (const v of bytes) {
    a = (a + v) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

describe('the PNG encoder', () => {
  it('writes a PNG that decodes to the same pixels, alpha included, at the DPI asked for', async () => {
    const image = photo(301, 77);
    const png = encodePng(image, { dpi: 300 });
    const back = await decode(png);
    expect({ width: back.width, height: back.height, density: back.density }).toEqual({ width: 301, height: 77, density: 300 });
    expect(back.data.equals(Buffer.from(image.data))).toBe(true);
    expect(chunks(png).map((c) => c.type)).toEqual(['IHDR', 'pHYs', 'IDAT', 'IDAT', 'IDAT', 'IEND']);
    // 300 DPI is 11811 pixels a metre, on both axes.
    const phys = chunks(png).find((c) => c.type === 'pHYs')!.data;
    expect([...phys]).toEqual([0, 0, 0x2e, 0x23, 0, 0, 0x2e, 0x23, 1]);
  });

  it('writes no pHYs without a DPI', () => {
    expect(chunks(encodePng(photo(10, 10))).map((c) => c.type)).not.toContain('pHYs');
  });

  it('makes one zlib stream of bands encoded apart, whose Adler-32 zlib checks', async () => {
    const image = photo(97, 3 * BLOCK_ROWS + 5, 7);
    const stride = image.width * 4;
    // Uneven bands, one of a single row, one of a block and a bit.
    const starts = [0, 1, 9, BLOCK_ROWS + 12, 2 * BLOCK_ROWS + 13];
    const edges = [...starts, image.height];
    const pieces = starts.map((y0, i) => encodePngPiece(image.data.subarray(y0 * stride, edges[i + 1]! * stride), image.width, edges[i + 1]! - y0));
    const png = join(assemblePng(image.width, image.height, pieces));
    const idat = Buffer.concat(chunks(png).filter((c) => c.type === 'IDAT').map((c) => c.data));
    // inflateSync throws on a bad Adler-32 or a stream that does not end.
    expect(inflateSync(idat).equals(filtered(image, starts))).toBe(true);
    expect((await decode(png)).data.equals(Buffer.from(image.data))).toBe(true);
  });

  it('codes noise, flat colour, one pixel and a one-pixel-wide image', async () => {
    const flat = createImage(64, 40).data.fill(200);
    for (const image of [noise(123, 45), { width: 64, height: 40, data: flat }, noise(1, 1), noise(1, 50), noise(50, 1)]) {
      const back = await decode(encodePng(image));
      expect(back.data.equals(Buffer.from(image.data)), `${image.width}x${image.height}`).toBe(true);
    }
  });

  it('keeps codes within 15 bits when the byte counts are very uneven', async () => {
    // Byte values in Fibonacci proportions want codes far longer than deflate allows.
    const counts = [1, 1];
    while (counts.length < 28) counts.push(counts.at(-1)! + counts.at(-2)!);
    const values = counts.flatMap((n, v) => Array<number>(n).fill(v));
    const width = 4096;
    const height = Math.ceil(values.length / (width * 4));
    const image = createImage(width, height);
    // Rows 'up'-filtered: each row adds its values to the row above, so the filtered bytes are the values.
    const rand = random(3);
    for (let i = values.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [values[i], values[j]] = [values[j]!, values[i]!];
    }
    const stride = width * 4;
    for (let i = 0; i < image.data.length; i++) {
      const above = i >= stride ? image.data[i - stride]! : 0;
      image.data[i] = (above + (values[i] ?? 0)) & 0xff;
    }
    expect(Math.max(...huffmanLengths(counts, 99))).toBeGreaterThan(15);
    const back = await decode(encodePng(image));
    expect(back.data.equals(Buffer.from(image.data))).toBe(true);
  });

  it('writes into a spare buffer when it is large enough, and past it when not', async () => {
    const image = photo(200, 60, 5);
    const fresh = encodePngPiece(image.data, 200, 60);
    const large = new ArrayBuffer(fresh.chunks.length * 4);
    const intoLarge = encodePngPiece(image.data, 200, 60, large);
    expect(intoLarge.chunks.buffer).toBe(large);
    const intoSmall = encodePngPiece(image.data, 200, 60, new ArrayBuffer(16));
    for (const piece of [intoLarge, intoSmall]) {
      expect(Buffer.from(piece.chunks).equals(Buffer.from(fresh.chunks))).toBe(true);
      expect((await decode(join(assemblePng(200, 60, [piece])))).data.equals(Buffer.from(image.data))).toBe(true);
    }
  });

  it('codes rows handed over a few at a time, the row above each block kept in the buffer, as one piece', () => {
    const image = photo(33, 50, 9);
    const stride = 33 * 4;
    const whole = encodePngPiece(image.data, 33, 50);
    const writer = new PngPieceWriter(33, 50);
    const buffer = new Uint8ClampedArray(stride * 8);
    buffer.set(image.data.subarray(0, 5 * stride));
    writer.addRows(buffer, 0, 5);
    for (let y = 5; y < 50; y += 7) {
      const n = Math.min(7, 50 - y);
      buffer.set(image.data.subarray((y - 1) * stride, (y + n) * stride));
      writer.addRows(buffer, 1, 1 + n);
    }
    const piece = writer.finish();
    expect(piece.length).toBe(whole.length);
    expect(piece.adler).toBe(whole.adler);
    const inflate = (p: typeof piece) => inflateSync(Buffer.concat([Buffer.from([0x78, 0x01]), Buffer.from(p.chunks.subarray(8, -4)), Buffer.from([3, 0]), Buffer.from(Uint8Array.of(p.adler >>> 24, p.adler >>> 16, p.adler >>> 8, p.adler))]));
    expect(inflate(piece).equals(inflate(whole))).toBe(true);
  });

  it('refuses rows the buffer does not hold', () => {
    expect(() => encodePngPiece(new Uint8Array(40), 10, 2)).toThrow(RangeError);
    expect(() => new PngPieceWriter(10, 2).addRows(new Uint8Array(40), 0, 2)).toThrow(RangeError);
    expect(() => assemblePng(10, 3, [encodePngPiece(new Uint8Array(80), 10, 2)])).toThrow(RangeError);
  });
});

describe('the pieces of the encoder', () => {
  it('makes complete Huffman codes no longer than the limit', () => {
    const rand = random(11);
    const cases: number[][] = [
      [5, 0, 0, 0],
      [0, 0, 0, 0],
      [1, 1],
      Array.from({ length: 257 }, () => Math.floor(rand() * 1000)),
      Array.from({ length: 257 }, (_, i) => Math.floor(2 ** (i / 8))),
      Array.from({ length: 19 }, (_, i) => 2 ** i),
    ];
    for (const [i, freq] of cases.entries()) {
      for (const limit of [7, 15].filter((l) => freq.length <= 2 ** l)) {
        const lengths = huffmanLengths(freq, limit);
        const used = [...lengths].filter((l) => l > 0);
        expect(used.length, `case ${i}`).toBeGreaterThanOrEqual(2);
        expect(Math.max(...used), `case ${i}`).toBeLessThanOrEqual(limit);
        // Kraft: a complete code's lengths sum to exactly 1.
        expect(used.reduce((sum, l) => sum + 2 ** -l, 0), `case ${i}`).toBe(1);
        freq.forEach((f, s) => f > 0 && expect(lengths[s], `case ${i} symbol ${s}`).toBeGreaterThan(0));
      }
    }
    expect(() => huffmanLengths(cases[3]!, 7)).toThrow(RangeError);
  });

  it('computes CRC-32 as zlib does', () => {
    const rand = random(4);
    for (const length of [0, 1, 7, 8, 9, 1000, 4099]) {
      const bytes = Uint8Array.from({ length }, () => rand() * 256);
      expect(crc32(bytes), `${length} bytes`).toBe(zlibCrc32(bytes));
    }
  });

  it("combines two runs' Adler-32 into the Adler-32 of both", () => {
    const rand = random(6);
    for (const [n, m] of [[0, 5], [5, 0], [1, 1], [6000, 70000], [65521, 65522], [100_000, 3]]) {
      const bytes = Uint8Array.from({ length: n! + m! }, () => rand() * 256);
      expect(adler32Combine(adler32(bytes.subarray(0, n)), adler32(bytes.subarray(n)), m!), `${n} + ${m}`).toBe(adler32(bytes));
    }
  });
});
