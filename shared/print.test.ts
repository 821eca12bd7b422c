import { describe, expect, it } from 'vitest';
import { clampCrop, dpiLevel, effectiveDpi, fitInside, printFileSize, printStatus } from './print.ts';

describe('print geometry', () => {
  it('sizes a 12x16 inch print at 300 DPI, fitted to the image and never stretched', () => {
    expect(printFileSize({ width: 1200, height: 1600 }, { widthIn: 12, heightIn: 16 })).toEqual({ width: 3600, height: 4800 });
    const wide = printFileSize({ width: 1920, height: 1080 }, { widthIn: 12, heightIn: 16 });
    expect(wide).toEqual({ width: 3600, height: 2025 });
    expect(wide.width / wide.height).toBeCloseTo(1920 / 1080, 2);
    for (const image of [{ width: 1, height: 1000 }, { width: 999, height: 7 }, { width: 640, height: 480 }]) {
      const out = printFileSize(image, { widthIn: 11.5, heightIn: 13.8 });
      expect(out.width).toBeLessThanOrEqual(3450);
      expect(out.height).toBeLessThanOrEqual(4140);
      // Only rounding to whole pixels may move the aspect ratio: at most half a pixel on the short side.
      expect(Math.abs(out.width / out.height - image.width / image.height) / (image.width / image.height)).toBeLessThanOrEqual(0.5 / Math.min(out.width, out.height) + 1e-9);
    }
  });

  it('gives the DPI an image reaches on a print area', () => {
    expect(effectiveDpi({ width: 3600, height: 4800 }, { widthIn: 12, heightIn: 16 })).toBe(300);
    expect(effectiveDpi({ width: 1920, height: 1080 }, { widthIn: 12, heightIn: 16 })).toBe(160);
    expect(effectiveDpi({ width: 1280, height: 720 }, { widthIn: 12, heightIn: 16 })).toBe(106);
    expect(fitInside({ width: 2, height: 1 }, { width: 10, height: 10 })).toEqual({ width: 10, height: 5 });
  });

  it('needs both minimums for OK for Print', () => {
    const target = { target: '4x6', minWidthPx: 1200, minHeightPx: 1800 };
    expect(printStatus({ width: 1200, height: 1800 }, target)).toBe('OK for Print');
    expect(printStatus({ width: 1199, height: 5000 }, target)).toBe('Too Small for Print');
    expect(printStatus({ width: 5000, height: 1799 }, target)).toBe('Too Small for Print');
  });

  it('keeps a crop inside the image and at least 50 px a side', () => {
    expect(clampCrop({ x: -10, y: 700, width: 20, height: 300 }, { width: 1280, height: 720 })).toEqual({ x: 0, y: 420, width: 50, height: 300 });
    expect(clampCrop({ x: 1200, y: 0, width: 5000, height: 10 }, { width: 1280, height: 720 })).toEqual({ x: 0, y: 0, width: 1280, height: 50 });
  });
});

describe('dpiLevel', () => {
  it('is ready from 300 DPI, acceptable from 150 and low below', () => {
    expect([1, 149, 150, 299, 300, 1200].map(dpiLevel)).toEqual(['low', 'low', 'acceptable', 'acceptable', 'ready', 'ready']);
  });
});
