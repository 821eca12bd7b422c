/**
 * What the buyer saw is what is printed: for one crop of a frame, the print preview the browser's
 * print worker makes (its pipeline run here in Node, its bands resampled as its helper threads
 * do) and the print file the fulfil job makes for the order of that crop agree within 40 dB PSNR.
 * The crop reaches the order as the app sends it: stored by create-product as a JPEG (quality 95,
 * 4:4:4), then rendered by the job.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printAreaFor } from '../../../shared/catalogue/parse.ts';
import { createImage, resampleLanczos3Rows, type RgbaImage } from '../../../shared/pixels/image.ts';
import { runPrintPipelineInBands } from '../../../shared/pixels/print-pipeline.ts';
import { PRINT_DPI, type CropRect } from '../../../shared/print.ts';
import { FEATHER_RADIUS } from '../../../shared/schemas/print.ts';
import { JOB_KINDS, enqueueJob } from '../../platform/jobs/enqueue.ts';
import { reencodeImage } from '../../platform/media/images.ts';
import { merchProduct, shopOrder } from '../../test/fulfilment-helpers.ts';
import { testApp, type TestApp } from '../../test/harness.ts';

const MIN_PSNR_DB = 40;

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => t?.close());

/** A 1280x720 frame: smooth colour fields with hard-edged blocks, opaque. */
function frame(width = 1280, height = 720): RgbaImage {
  const img = createImage(width, height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const block = ((x >> 6) + (y >> 6)) % 5 === 0;
      const i = (y * width + x) * 4;
      img.data[i] = block ? 30 : 40 + (180 * x) / width;
      img.data[i + 1] = block ? 200 : 60 + (150 * y) / height;
      img.data[i + 2] = 128 + 90 * Math.sin(x / 47) * Math.cos(y / 31);
      img.data[i + 3] = 255;
    }
  }
  return img;
}

const raw = (img: RgbaImage) => sharp(Buffer.from(img.data.buffer, img.data.byteOffset, img.data.length), { raw: { width: img.width, height: img.height, channels: 4 } });

async function decode(png: Buffer): Promise<RgbaImage> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length) };
}

/** The worker's preview: its pipeline with the options the page gives it, the resample in bands as its helpers make them. */
async function preview(source: RgbaImage, crop: CropRect, area: { widthIn: number; heightIn: number }): Promise<RgbaImage> {
  const options = { crop, featherRadius: FEATHER_RADIUS, printArea: area, dpi: PRINT_DPI };
  const bands = await runPrintPipelineInBands(source, options, 4, (img, w, h, y0, y1) => resampleLanczos3Rows(img, w, h, y0, y1));
  const out = createImage(bands[0]!.width, bands.reduce((sum, b) => sum + b.height, 0));
  let at = 0;
  for (const band of bands) {
    out.data.set(band.data, at);
    at += band.data.length;
  }
  return out;
}

/** PSNR over premultiplied RGBA, so a difference in the soft edge counts whatever it is printed on. */
function psnr(a: RgbaImage, b: RgbaImage): number {
  let sum = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    const aa = a.data[i + 3]! / 255;
    const ba = b.data[i + 3]! / 255;
    for (let c = 0; c < 3; c++) {
      const d = a.data[i + c]! * aa - b.data[i + c]! * ba;
      sum += d * d;
    }
    const d = a.data[i + 3]! - b.data[i + 3]!;
    sum += d * d;
  }
  const mse = sum / a.data.length;
  return mse === 0 ? Infinity : 10 * Math.log10((255 * 255) / mse);
}

describe('the order print file and the print preview', () => {
  it(`agree within ${MIN_PSNR_DB} dB PSNR for the same crop, feathered edge included`, async () => {
    const source = frame();
    const crop = { x: 340, y: 40, width: 510, height: 660 };
    const shirt = t.app.catalogue.products.find((p) => p.sku === 'unisex-tshirt')!;
    const size = shirt.sizes[0]!;
    const area = printAreaFor(shirt, size);

    // The crop as the page sends it (PNG), stored as create-product stores screenshots.
    const cropped = createImage(crop.width, crop.height);
    for (let row = 0; row < crop.height; row++) {
      const from = ((crop.y + row) * source.width + crop.x) * 4;
      cropped.data.set(source.data.subarray(from, from + crop.width * 4), row * crop.width * 4);
    }
    const stored = await reencodeImage(await raw(cropped).png().toBuffer(), { maxSide: 4096, quality: 95, chroma444: true });
    const product = await merchProduct({ db: t.db, storage: t.storage, catalogue: t.app.catalogue }, crop);
    const shot = await t.db.selectFrom('merch_screenshots').select('storage_key').where('id', '=', product.screenshotId).executeTakeFirstOrThrow();
    await t.storage.put('screenshots', shot.storage_key, stored.data);

    const orderId = await shopOrder({ db: t.db, storage: t.storage, catalogue: t.app.catalogue }, product, [{ sku: shirt.sku, colour: shirt.colours[0]!, size }]);
    await enqueueJob(t.db, JOB_KINDS.fulfilOrder, { orderId }, { dedupeKey: `fulfil:${orderId}` });
    await t.app.jobs.runDue();
    const item = await t.db.selectFrom('order_items').select('print_file_key').where('order_id', '=', orderId).executeTakeFirstOrThrow();
    expect(item.print_file_key).toBeTruthy();
    const chunks: Buffer[] = [];
    for await (const chunk of await t.storage.read('prints', item.print_file_key!)) chunks.push(chunk as Buffer);
    const printed = await decode(Buffer.concat(chunks));

    // Both are the print size for the crop, so they compare pixel for pixel with no scaling.
    const seen = await preview(source, crop, area);
    expect({ width: printed.width, height: printed.height }).toEqual({ width: seen.width, height: seen.height });
    expect(psnr(printed, seen)).toBeGreaterThanOrEqual(MIN_PSNR_DB);
    // The edge is soft in both: transparent at the border, opaque inside.
    expect(Math.max(printed.data[3]!, seen.data[3]!)).toBeLessThan(10);
    const centre = ((printed.height >> 1) * printed.width + (printed.width >> 1)) * 4 + 3;
    expect([printed.data[centre], seen.data[centre]]).toEqual([255, 255]);
  });
});
