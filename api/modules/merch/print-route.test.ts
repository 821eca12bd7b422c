import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../test/harness.ts';
import { testMedia } from '../../test/upload-helpers.ts';

let t: TestApp;
let jpegUrl: string;
beforeAll(async () => {
  t = await testApp();
  jpegUrl = `data:image/jpeg;base64,${(await testMedia('thumbnail.jpg')).toString('base64')}`;
});
afterAll(async () => t?.close());

const decode = async (dataUrl: string) => {
  const png = Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64');
  return { meta: await sharp(png).metadata(), raw: await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true }) };
};

describe('POST /api/process-shirt-image', () => {
  it('answers a PNG with a soft alpha edge of the given radius', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/process-shirt-image', payload: { image_data: jpegUrl, feather_radius: 12 } });
    expect(res.statusCode, res.body).toBe(200);
    const { meta, raw } = await decode(res.json().processed_image);
    expect(meta).toMatchObject({ format: 'png', width: 640, height: 360, hasAlpha: true });
    const alpha = (x: number, y: number) => raw.data[(y * raw.info.width + x) * 4 + 3]!;
    expect(alpha(0, 180)).toBeLessThan(10);
    expect(alpha(320, 180)).toBe(255);
  });
});

describe('POST /api/process-thumbnail-print-quality', () => {
  it('fills a 12x16 inch area at 300 DPI with the image, never stretched', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/process-thumbnail-print-quality', payload: { thumbnail_data: jpegUrl, print_dpi: 300, soft_corners: false, edge_feather: true } });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ width: 3600, height: 2025, dpi: 300 });
    const { meta } = await decode(body.screenshot);
    expect([meta.width, meta.height]).toEqual([3600, 2025]);
  });

  it('uses the print area it is given', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/process-thumbnail-print-quality', payload: { thumbnail_data: jpegUrl, print_area_in: { width_in: 4, height_in: 4 }, edge_feather: false } });
    expect(res.json()).toMatchObject({ width: 1200, height: 675 });
  });

  it('refuses data that is not an image, whatever its declared type', async () => {
    for (const data of [
      `data:image/png;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64')}`,
      `data:image/jpeg;base64,${Buffer.from('<html><script>alert(1)</script></html>').toString('base64')}`,
      'data:text/html;base64,PGh0bWw+',
      'not a data url',
    ]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/process-thumbnail-print-quality', payload: { thumbnail_data: data } });
      expect([400, 415], data.slice(0, 30)).toContain(res.statusCode);
    }
  });
});
