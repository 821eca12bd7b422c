/**
 * Shop arithmetic in integer cents: what one item costs in a size, what a cart adds up to, and
 * how good a screenshot will look on a product's print area. The server prices every order with
 * these functions from its own catalogue; the page uses them only to show the same figures.
 */
import type { Area, CatalogueProduct } from '../catalogue/parse.ts';
import { printAreaFor } from '../catalogue/parse.ts';
import type { Cents } from '../money.ts';
import { ACCEPTABLE_DPI, dpiLevel, effectiveDpi, type DpiLevel, type Size } from '../print.ts';

/** Below this many dots per inch print-on-demand providers hold an order for review. */
export const LOW_DPI_THRESHOLD = ACCEPTABLE_DPI;
export const MAX_ITEM_QUANTITY = 100;

export class PricingError extends Error {
  override name = 'PricingError';
}

type Priced = Pick<CatalogueProduct, 'sku' | 'priceCents' | 'sizes' | 'sizeSurchargesCents'>;

/** The size surcharge for a size the product comes in (0 for most); a size it does not come in is an error. */
export function sizeSurchargeCents(product: Priced, size: string | null): Cents {
  if (size === null || product.sizes.length === 0) return 0;
  if (!product.sizes.includes(size)) throw new PricingError(`${product.sku} does not come in size ${size}`);
  return product.sizeSurchargesCents[size] ?? 0;
}

/** One item's price in a size: the base price plus that size's surcharge. */
export function unitPriceCents(product: Priced, size: string | null): Cents {
  return product.priceCents + sizeSurchargeCents(product, size);
}

export interface CartLine {
  product: Priced;
  size: string | null;
  quantity: number;
}

/** The cart's subtotal: every line's unit price times its quantity, in whole cents. */
export function subtotalCents(lines: readonly CartLine[]): Cents {
  let total = 0;
  for (const line of lines) {
    if (!Number.isInteger(line.quantity) || line.quantity < 1 || line.quantity > MAX_ITEM_QUANTITY) {
      throw new PricingError(`quantity must be a whole number from 1 to ${MAX_ITEM_QUANTITY}`);
    }
    total += unitPriceCents(line.product, line.size) * line.quantity;
  }
  if (!Number.isSafeInteger(total)) throw new PricingError('total out of range');
  return total;
}

export type PrintQualityLevel = DpiLevel;

export interface PrintQuality {
  dpi: number;
  level: PrintQualityLevel;
  area: Area;
}

/** How a screenshot of this pixel size prints on the product's area for the size chosen, at the badge's three levels. */
export function printQuality(image: Size, product: Pick<CatalogueProduct, 'printAreas'>, size: string | null): PrintQuality {
  const area = printAreaFor(product, size);
  const dpi = effectiveDpi(image, area);
  return { dpi, area, level: dpiLevel(dpi) };
}
