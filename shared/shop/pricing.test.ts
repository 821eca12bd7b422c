import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCatalogue } from '../catalogue/parse.ts';
import { PRINT_DPI } from '../print.ts';
import { LOW_DPI_THRESHOLD, PricingError, printQuality, subtotalCents, unitPriceCents } from './pricing.ts';

const read = (f: string) => readFileSync(path.join(import.meta.dirname, '../catalogue', f), 'utf8');
const { products } = parseCatalogue({ products: read('products.tsv'), shipping: read('shipping.tsv'), printSizes: read('print-sizes.tsv') });
const bySku = (sku: string) => products.find((p) => p.sku === sku)!;

describe('unit prices', () => {
  it('add the size surcharge to the base price, in cents', () => {
    const tee = bySku('unisex-tshirt');
    expect(unitPriceCents(tee, 'M')).toBe(2169);
    expect(unitPriceCents(tee, '2XL')).toBe(2169 + 165);
    expect(unitPriceCents(tee, '5XL')).toBe(2169 + 660);
    expect(() => unitPriceCents(tee, '9XL')).toThrow(PricingError);
  });

  it('are whole cents for every size of every product', () => {
    for (const p of products) {
      for (const size of p.sizes.length > 0 ? p.sizes : [null]) {
        const cents = unitPriceCents(p, size);
        expect(Number.isInteger(cents), `${p.sku} ${size}`).toBe(true);
        expect(cents).toBeGreaterThanOrEqual(p.priceCents);
      }
    }
  });
});

describe('cart subtotal', () => {
  it('sums unit price times quantity in integer cents, where float dollars would drift', () => {
    const tee = bySku('unisex-tshirt');
    const lines = [
      { product: tee, size: '2XL', quantity: 3 },
      { product: tee, size: 'S', quantity: 1 },
      ...products.slice(0, 10).map((p) => ({ product: p, size: p.sizes[0] ?? null, quantity: 7 })),
    ];
    const expected = lines.reduce((sum, l) => sum + unitPriceCents(l.product, l.size) * l.quantity, 0);
    expect(subtotalCents(lines)).toBe(expected);
    expect((2169 + 165) * 3 + 2169).toBe(subtotalCents(lines.slice(0, 2)));
    // The same sum in dollars as floats is not exact; in cents it is.
    const dollars = lines.reduce((sum, l) => sum + (unitPriceCents(l.product, l.size) / 100) * l.quantity, 0);
    expect(Math.round(dollars * 100)).toBe(expected);
    expect(subtotalCents([])).toBe(0);
  });

  it('refuses quantities that are not whole numbers from 1 to 100', () => {
    const tee = bySku('unisex-tshirt');
    for (const quantity of [0, -1, 1.5, 101, Number.NaN]) {
      expect(() => subtotalCents([{ product: tee, size: 'M', quantity }]), String(quantity)).toThrow(PricingError);
    }
  });
});

describe('print quality on every product', () => {
  it('gives the effective DPI of the area for the size, with 150 and 300 as the thresholds', () => {
    for (const p of products) {
      for (const size of p.sizes.length > 0 ? p.sizes : [null]) {
        const area = size && p.printAreas.bySize[size] ? p.printAreas.bySize[size]! : p.printAreas.front;
        // An image exactly filling the area at a DPI prints at that DPI.
        const at = (dpi: number) => ({ width: Math.round(area.widthIn * dpi), height: Math.round(area.heightIn * dpi) });
        const label = `${p.sku} ${size ?? ''}`;
        expect(printQuality(at(PRINT_DPI), p, size), label).toMatchObject({ level: 'ready', area });
        expect(printQuality(at(PRINT_DPI), p, size).dpi, label).toBeGreaterThanOrEqual(PRINT_DPI - 1);
        expect(printQuality(at(PRINT_DPI + 20), p, size).level, label).toBe('ready');
        expect(printQuality(at(200), p, size).level, label).toBe('acceptable');
        expect(printQuality(at(LOW_DPI_THRESHOLD + 2), p, size).level, label).toBe('acceptable');
        expect(printQuality(at(LOW_DPI_THRESHOLD - 2), p, size).level, label).toBe('low');
        expect(printQuality(at(72), p, size).level, label).toBe('low');
      }
    }
  });

  it("uses the size's own area where the catalogue gives one (larger shirts print larger)", () => {
    const tee = bySku('unisex-tshirt');
    const frame = { width: 1920, height: 1080 };
    const m = printQuality(frame, tee, 'M');
    const l = printQuality(frame, tee, 'L');
    expect(l.area.widthIn).toBeGreaterThan(m.area.widthIn);
    expect(l.dpi).toBeLessThan(m.dpi);
    // A 1080p frame on a shirt is well short of 300 DPI: the page warns or notes accordingly.
    expect(m.dpi).toBe(Math.floor(Math.min(1920 / 11.5, 1080 / ((1080 / 1920) * 11.5))));
  });
});

describe('variant ids', () => {
  it('name a real choice of every product, and nothing else', async () => {
    const { checkVariant, defaultVariant, parseVariantId, variantId } = await import('./variants.ts');
    for (const p of products) {
      const v = defaultVariant(p);
      expect(checkVariant(p, v), p.sku).toEqual(v);
      expect(parseVariantId(variantId(v)), p.sku).toEqual(v);
      expect(checkVariant(p, { ...v, colour: 'Invisible' }), p.sku).toBeNull();
      expect(checkVariant(p, { ...v, size: 'XXXXL' }), p.sku).toBeNull();
      if (p.handleColours.length > 0) expect(checkVariant(p, { ...v, handleColour: null }), p.sku).toBeNull();
      else expect(checkVariant(p, { ...v, handleColour: 'Red' }), p.sku).toBeNull();
    }
    expect(parseVariantId('nonsense')).toBeNull();
  });
});
