import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createImage, Lanczos3Resampler, resampleLanczos3Rows } from './image.ts';
import { PRINT_DPI, printFileSize } from '../print.ts';
import { bandEdges, MIN_ROWS_PER_BAND } from './bands.ts';
import { assemblePng } from './png.ts';
import { cropAndFeather, printFileOptions, printSizeOf, resampleBandToPng, runPrintPipeline, runPrintPipelineInBands, type BandScratch } from './print-pipeline.ts';

function pattern(width: number, height: number) {
  const img = createImage(width, height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      img.data.set([x % 256, y % 256, (x * y) % 256, 255], i);
    }
  }
  return img;
}

describe('the print pipeline', () => {
  it('crops, feathers at the source resolution and fills the print area without stretching', () => {
    const source = pattern(400, 300);
    const crop = { x: 50, y: 40, width: 240, height: 180 };
    const out = runPrintPipeline(source, { crop, featherRadius: 12, printArea: { widthIn: 12, heightIn: 16 } });
    expect({ width: out.width, height: out.height }).toEqual(printFileSize(crop, { widthIn: 12, heightIn: 16 }));
    expect(out.width / out.height).toBeCloseTo(240 / 180, 2);
    expect(out.data[3]).toBeLessThan(10);
    const centre = ((out.height >> 1) * out.width + (out.width >> 1)) * 4;
    expect(out.data[centre + 3]).toBe(255);
    expect(source.data[3]).toBe(255);
  });

  it('leaves the input untouched when it only feathers', () => {
    const source = pattern(100, 100);
    const out = runPrintPipeline(source, { crop: null, featherRadius: 12, printArea: null });
    expect(source.data[3]).toBe(255);
    expect(out.data[3]).toBeLessThan(10);
  });

  it('makes the same image, byte for byte, when the resample is split into bands', async () => {
    const source = pattern(120, 90);
    const opts = { crop: { x: 10, y: 5, width: 90, height: 80 }, featherRadius: 12, printArea: { widthIn: 4, heightIn: 4 } };
    const whole = runPrintPipeline(source, opts);
    expect(whole.height).toBeGreaterThanOrEqual(MIN_ROWS_PER_BAND * 2);
    const bands = await runPrintPipelineInBands(source, opts, 3, (img, w, h, y0, y1) => resampleLanczos3Rows(img, w, h, y0, y1));
    expect(bands.length).toBeGreaterThan(1);
    const joined = new Uint8ClampedArray(whole.data.length);
    let at = 0;
    for (const band of bands) {
      joined.set(band.data, at);
      at += band.data.length;
    }
    expect(at).toBe(whole.data.length);
    expect(Buffer.from(joined).equals(Buffer.from(whole.data))).toBe(true);
  });

  it("makes the print file as PNG in bands, the worker's way, with the pipeline's pixels exactly and its DPI", async () => {
    const source = pattern(300, 200);
    const opts = printFileOptions({ x: 20, y: 10, width: 120, height: 180 }, { widthIn: 4, heightIn: 6 });
    const whole = runPrintPipeline(source, opts);
    const cropped = cropAndFeather(source, opts);
    const size = printSizeOf(cropped, opts)!;
    expect(size).toEqual({ width: whole.width, height: whole.height });
    const edges = bandEdges(size.height, 3);
    expect(edges.length).toBe(4);
    // Two helpers: one takes bands 0 and 2 with one resampler, the other band 1; both keep their
    // scratch rows, and each print's pieces are written into the last print's buffers.
    const scratch: BandScratch[] = [{}, {}];
    let spare: ArrayBuffer[] = [];
    for (let print = 0; print < 2; print++) {
      const resamplers = [new Lanczos3Resampler(cropped, size.width, size.height), new Lanczos3Resampler(cropped, size.width, size.height)];
      const bands = [0, 1, 2].map((i) => resampleBandToPng(resamplers[i % 2]!, edges[i]!, edges[i + 1]!, scratch[i % 2]!, spare[i], () => performance.now()));
      if (print === 1) expect(bands.map((b) => b.piece.chunks.buffer)).toEqual(spare);
      for (const band of bands) expect(band.resampleMs + band.encodeMs).toBeGreaterThan(0);
      const png = Buffer.concat(assemblePng(size.width, size.height, bands.map((b) => b.piece), { dpi: opts.dpi }));
      const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
      expect({ width: info.width, height: info.height, channels: info.channels }).toEqual({ width: size.width, height: size.height, channels: 4 });
      expect(data.equals(Buffer.from(whole.data)), `print ${print}`).toBe(true);
      expect((await sharp(png).metadata()).density).toBe(300);
      spare = bands.map((b) => b.piece.chunks.buffer as ArrayBuffer);
    }
  });

  it('uses the print parameters the spec fixes', () => {
    const area = { widthIn: 12, heightIn: 16 };
    expect(printFileOptions(null, area)).toEqual({ crop: null, featherRadius: 12, printArea: area, dpi: PRINT_DPI });
    expect(PRINT_DPI).toBe(300);
  });
});
