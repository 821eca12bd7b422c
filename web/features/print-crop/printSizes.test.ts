import { describe, expect, it } from 'vitest';
import {
  cropFromAreaPixels,
  DEFAULT_PRINT_SIZE_ID,
  defaultOrientation,
  PRINT_SIZES,
  printSize,
  sizeArea,
  sizeAspect,
  sizeRows,
  sizeStatus,
  smallerSizes,
} from './printSizes.ts';

const row = (rows: ReturnType<typeof sizeRows>, id: string) => {
  const found = rows.find((r) => r.size.id === id);
  if (!found) throw new Error(`no row ${id}`);
  return found;
};

describe('print sizes', () => {
  it('are the spec print sizes, with the print area each file fills', () => {
    expect(PRINT_SIZES.map((s) => s.label)).toEqual(['4x6 in', '5x7 in', '8x10 in', '11x14 in', 'Mug 4x4 in', 'T-Shirt 12x16 in', 'Phone Case 2x4 in']);
    expect(printSize(DEFAULT_PRINT_SIZE_ID)).toMatchObject({ id: 'T-Shirt', widthIn: 12, heightIn: 16, rotatable: false });
    expect(printSize('nope').id).toBe(DEFAULT_PRINT_SIZE_ID);
  });

  it('lock the crop to the print shape, turned for a landscape photo print only', () => {
    expect(sizeAspect(printSize('4x6'), 'portrait')).toBeCloseTo(4 / 6);
    expect(sizeAspect(printSize('4x6'), 'landscape')).toBeCloseTo(6 / 4);
    expect(sizeAspect(printSize('5x7'), 'landscape')).toBeCloseTo(7 / 5);
    expect(sizeAspect(printSize('8x10'), 'portrait')).toBeCloseTo(0.8);
    expect(sizeAspect(printSize('11x14'), 'landscape')).toBeCloseTo(14 / 11);
    expect(sizeAspect(printSize('Mug'), 'landscape')).toBe(1);
    // A shirt's and a phone case's print area have one way up.
    expect(sizeAspect(printSize('T-Shirt'), 'landscape')).toBeCloseTo(0.75);
    expect(sizeAspect(printSize('Phone Case'), 'landscape')).toBeCloseTo(0.5);
    expect(sizeArea(printSize('8x10'), 'landscape')).toEqual({ widthIn: 10, heightIn: 8 });
  });

  it('start landscape for a wide image', () => {
    expect(defaultOrientation({ width: 1920, height: 1080 })).toBe('landscape');
    expect(defaultOrientation({ width: 1080, height: 1920 })).toBe('portrait');
  });
});

describe('the crop from react-easy-crop', () => {
  it('is whole pixels inside the image', () => {
    expect(cropFromAreaPixels({ x: 10.4, y: 0.6, width: 539.6, height: 360 }, { width: 640, height: 360 })).toEqual({ x: 10, y: 1, width: 540, height: 359 });
    expect(cropFromAreaPixels({ x: -1, y: -2, width: 700, height: 400 }, { width: 640, height: 360 })).toEqual({ x: 0, y: 0, width: 640, height: 360 });
  });
});

describe('DPI per size for a crop', () => {
  it('is what the crop gives each print area it fills', () => {
    // croppedAreaPixels of a 6x4 crop of an 1800x1200 frame at zoom 1.
    const rows = sizeRows({ width: 1800, height: 1200 }, 'landscape', '4x6');
    expect(rows.map((r) => [r.size.id, r.dpi, r.level])).toEqual([
      ['4x6', 300, 'ready'],
      ['5x7', 240, 'acceptable'],
      ['8x10', 150, 'acceptable'],
      ['11x14', 109, 'low'],
      ['Mug', 300, 'ready'],
      ['T-Shirt', 75, 'low'],
      ['Phone Case', 300, 'ready'],
    ]);
  });

  it('is, for the chosen size, the DPI of its print file (the crop fitted inside the area)', () => {
    // A pixel short of 6x4 after rounding still makes the 1800 px wide file.
    expect(row(sizeRows({ width: 1800, height: 1199 }, 'landscape', '4x6'), '4x6')).toMatchObject({ dpi: 300, level: 'ready' });
    expect(row(sizeRows({ width: 1800, height: 1199 }, 'landscape', '8x10'), '4x6')).toMatchObject({ dpi: 299, level: 'acceptable' });
  });

  it('drops as the crop is zoomed in', () => {
    const wide = row(sizeRows({ width: 1250, height: 1000 }, 'landscape', '8x10'), '8x10');
    const tight = row(sizeRows({ width: 250, height: 200 }, 'landscape', '8x10'), '8x10');
    expect(wide).toMatchObject({ dpi: 125, level: 'low' });
    expect(tight).toMatchObject({ dpi: 25, level: 'low' });
  });

  it("keeps the spec's status, both minimums turned with the print", () => {
    expect(sizeStatus({ width: 1800, height: 1200 }, printSize('4x6'), 'landscape')).toBe('OK for Print');
    expect(sizeStatus({ width: 1800, height: 1200 }, printSize('4x6'), 'portrait')).toBe('Too Small for Print');
    expect(sizeStatus({ width: 1200, height: 1199 }, printSize('T-Shirt'), 'landscape')).toBe('Too Small for Print');
    expect(sizeStatus({ width: 800, height: 800 }, printSize('Mug'), 'portrait')).toBe('OK for Print');
  });
});

describe('smaller sizes to offer', () => {
  it('are those this crop prints at 150 DPI or more, the largest first', () => {
    const rows = sizeRows({ width: 1500, height: 1000 }, 'landscape');
    expect(smallerSizes(rows, printSize('11x14')).map((r) => [r.size.id, r.dpi])).toEqual([
      ['5x7', 200],
      ['4x6', 250],
      ['Mug', 250],
      ['Phone Case', 250],
    ]);
    expect(smallerSizes(rows, printSize('4x6')).map((r) => r.size.id)).toEqual(['Mug', 'Phone Case']);
    expect(smallerSizes(rows, printSize('8x10')).map((r) => r.size.id)).toEqual(['5x7', '4x6', 'Mug', 'Phone Case']);
  });

  it('are none for a crop too small for every size', () => {
    expect(smallerSizes(sizeRows({ width: 240, height: 160 }, 'landscape'), printSize('8x10'))).toEqual([]);
  });
});
