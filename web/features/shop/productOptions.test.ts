import { describe, expect, it } from 'vitest';
import { catalogue, toReply } from './testCatalogue.ts';
import { firstChoice, mockupShapeOf, priceInSize, printQualityNote, qualityInSize, variantOf } from './productOptions.ts';

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
    expect(qualityInSize({ width: 3450, height: 4140 }, tee, 'M')).toMatchObject({ dpi: 300, level: 'excellent' });
    expect(qualityInSize({ width: 3450, height: 4140 }, tee, 'L')).toMatchObject({ dpi: 230, level: 'good' });
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

  it('notes low resolution below 150 DPI and the DPI otherwise', () => {
    expect(printQualityNote({ dpi: 149, level: 'low' })).toEqual({
      tone: 'warning',
      text: 'Low resolution: 149 DPI. Print-on-demand providers hold orders below 150 DPI; choose a larger screenshot or a smaller product.',
    });
    expect(printQualityNote({ dpi: 150, level: 'good' })).toEqual({ tone: 'ok', text: 'Print quality: 150 DPI (good)' });
    expect(printQualityNote({ dpi: 300, level: 'excellent' })).toEqual({ tone: 'ok', text: 'Print quality: 300 DPI' });
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
