import { describe, expect, it } from 'vitest';
import { catalogue, toReply } from './testCatalogue.ts';
import { firstChoice, lowDpiHint, mockupShapeOf, priceInSize, qualityInSize, variantOf } from './productOptions.ts';

const reply = toReply;
const find = (sku: string) => reply(catalogue.find((p) => p.sku === sku)!);

describe('prices from the API reply', () => {
  it('add the size surcharge in whole cents', () => {
    const tee = find('unisex-tshirt');
    expect(priceInSize(tee, 'M')).toBe(2169);
    expect(priceInSize(tee, '2XL')).toBe(2169 + 165);
    expect(priceInSize(tee, '5XL')).toBe(2169 + 660);
    const puzzle = find('jigsaw-puzzle');
    expect(priceInSize(puzzle, '2000pc')).toBe(2559 + 1491);
  });

  it('follow the catalogue for every product and size', () => {
    for (const p of catalogue) {
      for (const size of p.sizes) {
        const expected = p.priceCents + (p.sizeSurchargesCents[size] ?? 0);
        expect(priceInSize(reply(p), size), `${p.sku} ${size}`).toBe(expected);
        expect(Number.isInteger(priceInSize(reply(p), size))).toBe(true);
      }
    }
  });

  it('refuse a size the product does not come in', () => {
    expect(() => priceInSize(find('unisex-tshirt'), '11oz')).toThrow(/does not come in/);
  });
});

describe('print quality from the API reply', () => {
  it('uses the area of the size chosen', () => {
    const tee = find('unisex-tshirt');
    // 11.5 x 13.8 in for M, 15 x 18 in from L.
    expect(qualityInSize({ width: 3450, height: 4140 }, tee, 'M')).toMatchObject({ dpi: 300, level: 'ready' });
    expect(qualityInSize({ width: 3450, height: 4140 }, tee, 'L')).toMatchObject({ dpi: 230, level: 'acceptable' });
    expect(qualityInSize({ width: 1280, height: 720 }, tee, 'L')).toMatchObject({ dpi: 85, level: 'low' });
  });

  it('interpolates the sizes between a span', () => {
    const hoodie = find('youth-hoodie');
    const xs = qualityInSize({ width: 1000, height: 1000 }, hoodie, 'XS');
    const xl = qualityInSize({ width: 1000, height: 1000 }, hoodie, 'XL');
    expect(xs.area).toEqual({ widthIn: 10, heightIn: 7 });
    expect(xl.area).toEqual({ widthIn: 11.5, heightIn: 12 });
    expect(xs.dpi).toBeGreaterThan(xl.dpi);
  });

  it('hints only at a low DPI: a smaller size of the product when one prints acceptably, else a smaller product', () => {
    const tee = find('unisex-tshirt');
    // 1920 px across 15 in (L) is 128 DPI, across 11.5 in (XS to M) 166 DPI.
    expect(qualityInSize({ width: 1920, height: 1080 }, tee, 'L').level).toBe('low');
    expect(lowDpiHint({ width: 1920, height: 1080 }, tee, 'L')).toBe('Sharper in size XS, or on a smaller product.');
    expect(lowDpiHint({ width: 1920, height: 1080 }, tee, 'M')).toBeNull();
    expect(lowDpiHint({ width: 1280, height: 720 }, tee, 'M')).toBe('For a sharper print, choose a smaller product.');
    expect(lowDpiHint({ width: 4000, height: 4000 }, tee, 'L')).toBeNull();
  });

  it('the level is the badge level of the DPI shown, for every product and size', async () => {
    const { dpiLevel } = await import('../../../shared/print.ts');
    for (const p of catalogue) {
      for (const size of p.sizes.length > 0 ? p.sizes : [null]) {
        const q = qualityInSize({ width: 1280, height: 720 }, reply(p), size);
        expect(q.level, `${p.sku} ${size}`).toBe(dpiLevel(q.dpi));
      }
    }
  });
});

describe('variants and outlines from the API reply', () => {
  it('start on the first colour, the first handle colour of a mug, and M when sold', () => {
    expect(firstChoice(find('unisex-tshirt'))).toEqual({ sku: 'unisex-tshirt', colour: 'Black', handleColour: null, size: 'M' });
    const mug = firstChoice(find('colored-mug'));
    expect(mug).toEqual({ sku: 'colored-mug', colour: 'Black', handleColour: 'White', size: '11oz' });
    expect(variantOf(mug)).toBe('colored-mug|Black|White|11oz');
  });

  it('draw mugs as mugs and prints flat', () => {
    expect(mockupShapeOf(find('enamel-mug'))).toBe('mug');
    expect(mockupShapeOf(find('photo-print'))).toBe('flat');
    expect(mockupShapeOf({ ...find('bandana'), category: 'not-a-category' })).toBe('flat');
  });
});

describe('photo print sizes', () => {
  it('need both minimums of print-sizes.tsv, in the orientation of the image', async () => {
    const { photoPrintStatus } = await import('./productOptions.ts');
    expect(photoPrintStatus({ width: 1800, height: 1200 }, '4x6')).toEqual({ status: 'OK for Print', min: { width: 1200, height: 1800 } });
    expect(photoPrintStatus({ width: 1200, height: 1800 }, '4x6')?.status).toBe('OK for Print');
    expect(photoPrintStatus({ width: 1799, height: 1200 }, '4x6')?.status).toBe('Too Small for Print');
    expect(photoPrintStatus({ width: 1280, height: 720 }, '4x6')?.status).toBe('Too Small for Print');
    expect(photoPrintStatus({ width: 4200, height: 3300 }, '11x14')?.status).toBe('OK for Print');
    expect(photoPrintStatus({ width: 4200, height: 3299 }, '11x14')?.status).toBe('Too Small for Print');
    expect(photoPrintStatus({ width: 4000, height: 4000 }, 'M')).toBeNull();
  });
});
