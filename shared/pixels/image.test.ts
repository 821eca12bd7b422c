import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { printFileSize } from '../print.ts';
import { crop, feather, Lanczos3Resampler, resampleLanczos3, resampleLanczos3Rows, type RgbaImage } from './image.ts';

let photo: RgbaImage;

/** A detailed test image: sharp's own rendering of a gradient, stripes and text-like edges. */
beforeAll(async () => {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360">
    <defs><linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="#1e3a8a"/><stop offset="1" stop-color="#f59e0b"/></linearGradient></defs>
    <rect width="640" height="360" fill="url(#g)"/>
    ${Array.from({ length: 20 }, (_, i) => `<rect x="${i * 32}" y="200" width="16" height="160" fill="#${(i * 12).toString(16).padStart(2, '0')}ff88"/>`).join('')}
    <circle cx="160" cy="110" r="80" fill="#e11d48"/><circle cx="460" cy="110" r="60" fill="none" stroke="#fff" stroke-width="6"/>
  </svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  photo = { width: info.width, height: info.height, data: new Uint8ClampedArray(data) };
});

function psnr(a: Uint8ClampedArray | Buffer, b: Uint8ClampedArray | Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    if (i % 4 === 3) continue;
    const d = a[i]! - b[i]!;
    sum += d * d;
  }
  const mse = sum / ((a.length / 4) * 3);
  return mse === 0 ? 99 : 10 * Math.log10((255 * 255) / mse);
}

describe('crop', () => {
  it("is pixel-exact against sharp's extract of the same rectangle", async () => {
    const rect = { x: 101, y: 37, width: 333, height: 211 };
    const ours = crop(photo, rect);
    const theirs = await sharp(Buffer.from(photo.data.buffer), { raw: { width: photo.width, height: photo.height, channels: 4 } })
      .extract({ left: rect.x, top: rect.y, width: rect.width, height: rect.height })
      .raw()
      .toBuffer();
    expect(ours.width).toBe(333);
    expect(Buffer.compare(Buffer.from(ours.data.buffer), theirs)).toBe(0);
  });

  it('refuses a rectangle outside the image or of fractional pixels', () => {
    expect(() => crop(photo, { x: 600, y: 0, width: 100, height: 10 })).toThrow(RangeError);
    expect(() => crop(photo, { x: 0.5, y: 0, width: 100, height: 10 })).toThrow(RangeError);
  });
});

describe('feather', () => {
  it('fades the alpha to 0 at the border over the radius and leaves the inside opaque', () => {
    const img = crop(photo, { x: 0, y: 0, width: 100, height: 100 });
    feather(img, 12);
    const alpha = (x: number, y: number) => img.data[(y * 100 + x) * 4 + 3]!;
    expect(alpha(0, 50)).toBeLessThan(10);
    expect(alpha(6, 50)).toBeGreaterThan(alpha(2, 50));
    expect(alpha(12, 50)).toBe(255);
    expect(alpha(50, 50)).toBe(255);
    expect(alpha(99, 99)).toBeLessThan(10);
  });

  it('gives every pixel the alpha of the distance rule, in images narrower than two radii too', () => {
    // The rule, pixel by pixel over the whole image: smoothstep of the distance to the nearest edge.
    const reference = (img: RgbaImage, radius: number) => {
      for (let y = 0; y < img.height; y++) {
        for (let x = 0; x < img.width; x++) {
          const d = Math.min(y + 0.5, img.height - y - 0.5, x + 0.5, img.width - x - 0.5);
          if (d >= radius) continue;
          const t = d / radius;
          const i = (y * img.width + x) * 4 + 3;
          img.data[i] = Math.round(img.data[i]! * t * t * (3 - 2 * t));
        }
      }
    };
    for (const [w, h, radius] of [[100, 80, 12], [61, 47, 7.5], [15, 40, 12], [9, 9, 30], [200, 3, 2.2]] as const) {
      const ours = crop(photo, { x: 10, y: 10, width: w, height: h });
      for (let i = 3; i < ours.data.length; i += 16) ours.data[i] = 200;
      const theirs = { ...ours, data: new Uint8ClampedArray(ours.data) };
      feather(ours, radius);
      reference(theirs, radius);
      expect(Buffer.compare(Buffer.from(ours.data.buffer), Buffer.from(theirs.data.buffer)), `${w}x${h} r=${radius}`).toBe(0);
    }
  });
});

describe('resampleLanczos3', () => {
  it("matches sharp's Lanczos-3 within 35 dB when enlarging for print", async () => {
    const size = printFileSize(photo, { widthIn: 6, heightIn: 4 });
    const ours = resampleLanczos3(photo, size.width, size.height);
    const theirs = await sharp(Buffer.from(photo.data.buffer), { raw: { width: photo.width, height: photo.height, channels: 4 } })
      .resize(size.width, size.height, { kernel: 'lanczos3', fit: 'fill' })
      .raw()
      .toBuffer();
    expect(psnr(ours.data, theirs)).toBeGreaterThanOrEqual(35);
  });

  it("matches sharp's Lanczos-3 within 35 dB when shrinking", async () => {
    const ours = resampleLanczos3(photo, 213, 120);
    const theirs = await sharp(Buffer.from(photo.data.buffer), { raw: { width: photo.width, height: photo.height, channels: 4 } })
      .resize(213, 120, { kernel: 'lanczos3', fit: 'fill' })
      .raw()
      .toBuffer();
    expect(psnr(ours.data, theirs)).toBeGreaterThanOrEqual(35);
  });

  it('gives the same bytes when computed in bands of rows, for enlarging and shrinking', () => {
    for (const [w, h, cuts] of [[900, 700, [1, 233, 350, 699]], [213, 120, [60]], [640, 1001, [500, 501]]] as const) {
      const whole = resampleLanczos3(photo, w, h);
      const edges = [0, ...cuts, h];
      const joined = new Uint8ClampedArray(w * h * 4);
      for (let i = 0; i + 1 < edges.length; i++) {
        const band = resampleLanczos3Rows(photo, w, h, edges[i]!, edges[i + 1]!);
        expect(band.height).toBe(edges[i + 1]! - edges[i]!);
        joined.set(band.data, edges[i]! * w * 4);
      }
      expect(Buffer.compare(Buffer.from(joined.buffer), Buffer.from(whole.data.buffer)), `${w}x${h}`).toBe(0);
    }
    expect(() => resampleLanczos3Rows(photo, 10, 10, 5, 5)).toThrow(RangeError);
  });

  it('gives the same bytes a few rows at a time, carrying on down or starting again further up', () => {
    for (const [w, h] of [[900, 700], [213, 120]] as const) {
      const whole = resampleLanczos3(photo, w, h);
      const resampler = new Lanczos3Resampler(photo, w, h);
      // Down in uneven steps, skipping rows 300-349, then back up, then down to the end.
      const runs = [[0, 1], [1, 17], [17, 40], [40, 300], [350, 351], [351, 500], [100, 116], [116, 700]].filter(([, y1]) => y1! <= h);
      for (const [y0, y1] of runs) {
        const rows = new Uint8ClampedArray(w * 4 * (y1! - y0!)).fill(7);
        resampler.rows(y0!, y1!, rows);
        expect(Buffer.from(rows).equals(Buffer.from(whole.data.subarray(y0! * w * 4, y1! * w * 4))), `${w}x${h} rows ${y0}-${y1}`).toBe(true);
      }
    }
    expect(() => new Lanczos3Resampler(photo, 10, 10).rows(0, 2, new Uint8ClampedArray(10 * 4))).toThrow(RangeError);
  });

  it('writes every byte of a band into a reused buffer, transparent pixels included', () => {
    // A picture whose outer part is fully transparent (as a feathered print's corners are).
    const clear = { width: 40, height: 30, data: new Uint8ClampedArray(40 * 30 * 4) };
    for (let y = 10; y < 20; y++) for (let x = 10; x < 30; x++) clear.data.set([200, 40, 90, 255], (y * 40 + x) * 4);
    const fresh = resampleLanczos3Rows(clear, 120, 90, 20, 70);
    const dirty = new Uint8ClampedArray(120 * 60 * 4).fill(77);
    const reused = resampleLanczos3Rows(clear, 120, 90, 20, 70, dirty);
    expect(reused.data.buffer).toBe(dirty.buffer);
    expect(Buffer.compare(Buffer.from(reused.data), Buffer.from(fresh.data))).toBe(0);
    expect(fresh.data.some((v, i) => i % 4 === 3 && v === 0)).toBe(true);
    // Too small a buffer is left alone and a new one made.
    const small = new Uint8ClampedArray(16);
    expect(resampleLanczos3Rows(clear, 120, 90, 20, 70, small).data.buffer).not.toBe(small.buffer);
  });

  it('never stretches: the print size keeps the aspect ratio of any crop', () => {
    for (const [w, h] of [[640, 360], [360, 640], [333, 211], [50, 900]] as const) {
      const size = printFileSize({ width: w, height: h }, { widthIn: 12, heightIn: 16 });
      expect(Math.abs(size.width / size.height - w / h) / (w / h)).toBeLessThanOrEqual(0.5 / Math.min(size.width, size.height) + 1e-9);
      expect(size.width <= 3600 && size.height <= 4800).toBe(true);
    }
  });

  it('keeps fully transparent pixels from darkening the edge (premultiplied alpha)', () => {
    const img = { width: 4, height: 1, data: new Uint8ClampedArray([255, 255, 255, 255, 255, 255, 255, 255, 0, 0, 0, 0, 0, 0, 0, 0]) };
    const out = resampleLanczos3(img, 8, 1);
    for (let x = 0; x < 8; x++) {
      if (out.data[x * 4 + 3]! > 16) expect(out.data[x * 4], `pixel ${x}`).toBeGreaterThan(240);
    }
  });
});
