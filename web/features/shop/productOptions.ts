/**
 * A catalogue product as the API sends it (snake_case, print areas in inches), made usable by
 * the shop arithmetic in shared/shop: its price in a size, how a screenshot prints on it, its
 * default variant and the outline its mockup takes. Prices stay integer cents throughout.
 */
import printSizesText from '../../../shared/catalogue/print-sizes.tsv?raw';
import { parsePrintSizes, printAreaFor, type Area, type CatalogueProduct } from '../../../shared/catalogue/parse.ts';
import { isMerchCategory } from '../../../shared/categories.ts';
import type { CatalogueProductReply } from '../../../shared/schemas/catalogue.ts';
import { dpiLevel, printStatus, type PrintStatus, type Size } from '../../../shared/print.ts';
import { printQuality, unitPriceCents, type PrintQuality } from '../../../shared/shop/pricing.ts';
import { defaultVariant, variantId, type VariantChoice } from '../../../shared/shop/variants.ts';
import { shapeOf, type MockupShape } from './mockupShapes.ts';

type ShopProduct = Pick<
  CatalogueProduct,
  'sku' | 'category' | 'priceCents' | 'sizes' | 'sizeSurchargesCents' | 'colours' | 'handleColours' | 'printAreas'
>;

/** The print targets of shared/catalogue/print-sizes.tsv, the sizes a product's print is judged against. */
const PRINT_TARGETS = parsePrintSizes(printSizesText);

const area = (a: { width_in: number; height_in: number }): Area => ({ widthIn: a.width_in, heightIn: a.height_in });

/** The reply in the catalogue's own shape. An unknown category is kept out of the outline choice as 'misc'. */
export function fromReply(reply: CatalogueProductReply): ShopProduct {
  return {
    sku: reply.sku,
    category: isMerchCategory(reply.category) ? reply.category : 'misc',
    priceCents: reply.price_cents,
    sizes: reply.sizes,
    sizeSurchargesCents: reply.size_surcharges_cents,
    colours: reply.colours,
    handleColours: reply.handle_colours,
    printAreas: {
      front: area(reply.print_area),
      bySize: Object.fromEntries(Object.entries(reply.print_area_by_size).map(([size, a]) => [size, area(a)])),
      wrap: null,
      back: null,
    },
  };
}

/** One item's price in the size chosen: the base price plus that size's surcharge. */
export function priceInSize(reply: CatalogueProductReply, size: string | null): number {
  return unitPriceCents(fromReply(reply), size);
}

/** The front print area in the size chosen (the base area when the size has no area of its own). */
export function areaInSize(reply: CatalogueProductReply, size: string | null): Area {
  return printAreaFor(fromReply(reply), size);
}

/** How a screenshot of this pixel size prints on the product's front area in the size chosen. */
export function qualityInSize(image: Size, reply: CatalogueProductReply, size: string | null): PrintQuality {
  return printQuality(image, fromReply(reply), size);
}

export function firstChoice(reply: CatalogueProductReply): VariantChoice {
  return defaultVariant(fromReply(reply));
}

export function variantOf(choice: VariantChoice): string {
  return variantId(choice);
}

export function mockupShapeOf(reply: CatalogueProductReply): MockupShape {
  return shapeOf(fromReply(reply));
}

/**
 * The short hint under a low DPI badge, and only there: the first size of this product that
 * prints at an acceptable DPI when there is one, else a smaller product. Null when not low.
 */
export function lowDpiHint(image: Size, reply: CatalogueProductReply, size: string | null): string | null {
  if (dpiLevel(qualityInSize(image, reply, size).dpi) !== 'low') return null;
  const better = reply.sizes.find((s) => s !== size && dpiLevel(qualityInSize(image, reply, s).dpi) !== 'low');
  return better ? `Sharper in size ${better}, or on a smaller product.` : 'For a sharper print, choose a smaller product.';
}

/**
 * A photo print size (4x6, 5x7, 8x10, 11x14) has the crop tool's minimum pixel size: the image
 * must meet both the width and the height minimum, in either orientation. Null for other sizes.
 */
export function photoPrintStatus(image: Size, size: string | null): { status: PrintStatus; min: Size } | null {
  const target = size ? PRINT_TARGETS.find((t) => t.target === size) : undefined;
  if (!target) return null;
  const min = { width: target.minWidthPx, height: target.minHeightPx };
  // A landscape thumbnail prints a landscape photo: compare the long side with the long minimum.
  const upright = image.width > image.height ? { width: image.height, height: image.width } : image;
  return { status: printStatus(upright, target), min };
}
