import { describe, expect, it } from 'vitest';
import { createImage, resampleLanczos3Rows } from './image.ts';
import { PRINT_DPI, printFileSize } from '../print.ts';
import { MIN_ROWS_PER_BAND } from './bands.ts';
import { printFileOptions, runPrintPipeline, runPrintPipelineInBands } from './print-pipeline.ts';

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

  it('uses the print parameters the spec fixes', () => {
    const area = { widthIn: 12, heightIn: 16 };
    expect(printFileOptions(null, area)).toEqual({ crop: null, featherRadius: 12, printArea: area, dpi: PRINT_DPI });
    expect(PRINT_DPI).toBe(300);
  });
});
