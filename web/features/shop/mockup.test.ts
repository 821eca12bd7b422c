import { describe, expect, it } from 'vitest';
import { parseProducts, printAreaFor } from '../../../shared/catalogue/parse.ts';
import productsText from '../../../shared/catalogue/products.tsv?raw';
import { mockupLayout } from './mockup.ts';
import { SHAPES, shapeOf } from './mockupShapes.ts';

const products = parseProducts(productsText);
const close = (a: number, b: number) => Math.abs(a - b) < 1e-6;

describe('mockup layout', () => {
  it('keeps the print area and the image inside the shape, never stretched, for every product and size', () => {
    for (const p of products) {
      const shape = shapeOf(p);
      for (const size of p.sizes.length > 0 ? p.sizes : [null]) {
        const area = printAreaFor(p, size);
        for (const image of [{ width: 1920, height: 1080 }, { width: 720, height: 1280 }, { width: 300, height: 300 }]) {
          const { printRect, imageRect } = mockupLayout(shape, area, image);
          const box = SHAPES[shape].printBox;
          const label = `${p.sku} ${size} ${image.width}x${image.height}`;
          expect(printRect.x >= box.x - 1e-6 && printRect.x + printRect.width <= box.x + box.width + 1e-6, label).toBe(true);
          expect(printRect.y >= box.y - 1e-6 && printRect.y + printRect.height <= box.y + box.height + 1e-6, label).toBe(true);
          expect(close(printRect.width / printRect.height, area.widthIn / area.heightIn), label).toBe(true);
          expect(imageRect.x >= printRect.x - 1e-6 && imageRect.x + imageRect.width <= printRect.x + printRect.width + 1e-6, label).toBe(true);
          expect(imageRect.y >= printRect.y - 1e-6 && imageRect.y + imageRect.height <= printRect.y + printRect.height + 1e-6, label).toBe(true);
          expect(close(imageRect.width / imageRect.height, image.width / image.height), label).toBe(true);
          // It fills the area on one axis.
          expect(close(imageRect.width, printRect.width) || close(imageRect.height, printRect.height), label).toBe(true);
        }
      }
    }
  });

  it('gives garments, mugs and hats their own outlines', () => {
    const shape = (sku: string) => shapeOf(products.find((p) => p.sku === sku)!);
    expect(shape('unisex-tshirt')).toBe('tshirt');
    expect(shape('mens-tank-top')).toBe('tank');
    expect(shape('unisex-hoodie')).toBe('hoodie');
    expect(shape('kids-long-sleeve')).toBe('longsleeve');
    expect(shape('white-glossy-mug')).toBe('mug');
    expect(shape('trucker-hat')).toBe('hat');
    expect(shape('laptop-sleeve')).toBe('bag');
    expect(shape('photo-print')).toBe('flat');
  });
});
