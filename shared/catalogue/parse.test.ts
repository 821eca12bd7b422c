import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MERCH_CATEGORIES } from '../categories.ts';
import { CatalogueError, parseCatalogue, parsePrintAreas, printAreaFor } from './parse.ts';

const read = (f: string) => readFileSync(path.join(import.meta.dirname, f), 'utf8');
const catalogue = parseCatalogue({ products: read('products.tsv'), shipping: read('shipping.tsv'), printSizes: read('print-sizes.tsv') });
const bySku = (sku: string) => catalogue.products.find((p) => p.sku === sku)!;

describe('the shipped catalogue', () => {
  it('has 50 products in the 10 categories', () => {
    expect(catalogue.products).toHaveLength(50);
    expect(new Set(catalogue.products.map((p) => p.category))).toEqual(new Set(MERCH_CATEGORIES));
  });
  it('holds prices, base costs and surcharges in cents', () => {
    const tee = bySku('unisex-tshirt');
    expect(tee.priceCents).toBe(2169);
    expect(tee.baseCostCents).toBe(1169);
    expect(tee.sizeSurchargesCents).toEqual({ '2XL': 165, '3XL': 330, '4XL': 495, '5XL': 660 });
    expect(bySku('kiss-cut-stickers').priceCents).toBe(429);
    expect(bySku('unisex-champion-hoodie').priceCents).toBe(4500);
  });
  it('names colours by count and gives mugs handle colours', () => {
    expect(bySku('unisex-tshirt').colours).toHaveLength(20);
    expect(bySku('white-glossy-mug').colours).toEqual(['White']);
    expect(bySku('colored-mug').handleColours.length).toBeGreaterThan(0);
    expect(bySku('unisex-tshirt').handleColours).toEqual([]);
  });
  it('reads print areas, including size overrides, ranges and "same as size"', () => {
    const tee = bySku('unisex-tshirt');
    expect(printAreaFor(tee, 'M')).toEqual({ widthIn: 11.5, heightIn: 13.8 });
    expect(printAreaFor(tee, 'L')).toEqual({ widthIn: 15, heightIn: 18 });
    expect(printAreaFor(tee, '3XL')).toEqual({ widthIn: 15, heightIn: 18 });
    expect(printAreaFor(tee, '4XL')).toEqual({ widthIn: 11.5, heightIn: 13.8 });
    expect(tee.printAreas.back).toEqual({ widthIn: 12, heightIn: 16 });
    const champion = bySku('unisex-champion-hoodie');
    expect(printAreaFor(champion, 'XL')).toEqual({ widthIn: 13, heightIn: 13 });
    expect(printAreaFor(champion, '2XL')).toEqual({ widthIn: 14, heightIn: 14 });
    expect(printAreaFor(bySku('photo-print'), '8x10')).toEqual({ widthIn: 8, heightIn: 10 });
    expect(bySku('white-glossy-mug').printAreas.wrap).toEqual({ widthIn: 9, heightIn: 3.5 });
    const youth = bySku('youth-hoodie');
    expect(printAreaFor(youth, 'XS')).toEqual({ widthIn: 10, heightIn: 7 });
    expect(printAreaFor(youth, 'XL')).toEqual({ widthIn: 11.5, heightIn: 12 });
    expect(printAreaFor(youth, 'M').widthIn).toBeCloseTo(10.75);
  });
  it('links every product to a shipping bucket and reads the print targets', () => {
    expect(catalogue.shipping.find((s) => s.bucket === 'mugs')).toEqual({
      bucket: 'mugs', firstItemCents: 849, additionalItemCents: 250, packsSeparately: true,
    });
    expect(catalogue.printSizes.find((t) => t.target === '8x10')).toEqual({ target: '8x10', minWidthPx: 2400, minHeightPx: 3000 });
  });
});

describe('bad catalogue data', () => {
  const header = 'sku\tname\tcategory\tprice_usd\tbase_cost_usd\tsizes\tsize_surcharges_usd\tcolour_count\tprint_area_in\tback_print_area_in\tpod_catalog_id\tshipping_bucket';
  const shipping = 'bucket\tfirst_item_usd\tadditional_item_usd\tpacks_separately\nshirts\t4.75\t2.20\tno';
  const sizes = 'target\tmin_width_px\tmin_height_px\n4x6\t1200\t1800';
  const parse = (row: string) => parseCatalogue({ products: `${header}\n${row}`, shipping, printSizes: sizes });
  it('refuses an unknown category, a base cost above the price and an unknown bucket', () => {
    expect(() => parse('a\tA\tshoes\t1.00\t0.50\tS\t\t1\t1x1\t\t\tshirts')).toThrow(CatalogueError);
    expect(() => parse('a\tA\tmens\t1.00\t2.00\tS\t\t1\t1x1\t\t\tshirts')).toThrow(CatalogueError);
    expect(() => parse('a\tA\tmens\t1.00\t0.50\tS\t\t1\t1x1\t\t\tboxes')).toThrow(CatalogueError);
    expect(() => parse('a\tA\tmens\t1.00\t0.50\tS\tXL=1\t1\t1x1\t\t\tshirts')).toThrow(CatalogueError);
  });
  it('refuses an unreadable print area', () => {
    expect(() => parsePrintAreas('big', ['S'], '')).toThrow(CatalogueError);
    expect(() => parsePrintAreas('12x16 (Q-Z: 1x1)', ['S'], '')).toThrow(CatalogueError);
  });
});
