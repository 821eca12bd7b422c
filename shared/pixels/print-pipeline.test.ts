import { describe, expect, it } from 'vitest';
import { createImage } from '../../shared/pixels/image.ts';
import { printFileSize } from '../../shared/print.ts';
import { runPrintPipeline } from './pipeline.ts';

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
});
