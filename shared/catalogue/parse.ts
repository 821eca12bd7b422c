/**
 * Parses the shop's catalogue (products.tsv, shipping.tsv, print-sizes.tsv). The TSV files
 * beside this module are the one place the catalogue lives; the server loads them into the
 * database at start and everything else (prices, print areas, shipping) derives from them.
 */
import { isMerchCategory, type MerchCategory } from '../categories.ts';
import { parseUsdToCents, type Cents } from '../money.ts';

export interface Area {
  widthIn: number;
  heightIn: number;
}

export interface PrintAreas {
  /** The front print area of the base size. */
  front: Area;
  /** Sizes whose front print area differs from `front`. */
  bySize: Record<string, Area>;
  /** An alternative full-wrap print area (mugs). */
  wrap: Area | null;
  back: Area | null;
}

export interface CatalogueProduct {
  sku: string;
  name: string;
  category: MerchCategory;
  priceCents: Cents;
  baseCostCents: Cents;
  sizes: string[];
  sizeSurchargesCents: Record<string, Cents>;
  colours: string[];
  /** Mugs carry a handle colour choice as well as a colour. */
  handleColours: string[];
  printAreaText: string;
  printAreas: PrintAreas;
  podCatalogId: number | null;
  shippingBucket: string;
}

export interface ShippingBucket {
  bucket: string;
  firstItemCents: Cents;
  additionalItemCents: Cents;
  packsSeparately: boolean;
}

export interface PrintTarget {
  target: string;
  minWidthPx: number;
  minHeightPx: number;
}

export class CatalogueError extends Error {
  override name = 'CatalogueError';
}

/**
 * Colour names in the order products take them: a product with N colours offers the first N.
 * A single-colour product (white mugs, stickers, prints) is White.
 */
export const COLOUR_PALETTE = [
  'Black', 'White', 'Navy', 'Heather Grey', 'Red', 'Royal Blue', 'Forest Green', 'Maroon',
  'Sport Grey', 'Charcoal', 'Pink', 'Gold', 'Purple', 'Orange', 'Light Blue', 'Military Green',
  'Ash', 'Sand', 'Brown', 'Natural',
] as const;

export const HANDLE_COLOURS = ['White', 'Black', 'Red', 'Navy'] as const;

export function colourNames(count: number): string[] {
  if (!Number.isInteger(count) || count < 1 || count > COLOUR_PALETTE.length) {
    throw new CatalogueError(`colour_count must be 1..${COLOUR_PALETTE.length}, got ${count}`);
  }
  return count === 1 ? ['White'] : COLOUR_PALETTE.slice(0, count);
}

function rows(text: string): Array<Record<string, string>> {
  const lines = text.replace(/\r/g, '').split('\n').filter((l) => l.trim() !== '');
  const header = (lines.shift() ?? '').split('\t');
  return lines.map((line, i) => {
    const cells = line.split('\t');
    if (cells.length > header.length) throw new CatalogueError(`line ${i + 2}: too many columns`);
    return Object.fromEntries(header.map((h, j) => [h, (cells[j] ?? '').trim()]));
  });
}

function need(row: Record<string, string>, key: string): string {
  const v = row[key];
  if (v === undefined || v === '') throw new CatalogueError(`${row.sku ?? '?'}: missing ${key}`);
  return v;
}

const AREA = /(\d+(?:\.\d+)?)x(\d+(?:\.\d+)?)/;

export function parseArea(text: string): Area {
  const m = AREA.exec(text);
  if (!m) throw new CatalogueError(`not an area: "${text}"`);
  return { widthIn: Number(m[1]), heightIn: Number(m[2]) };
}

function sizeRange(sizes: string[], range: string): string[] {
  const [from, to] = range.split('-').map((s) => s.trim());
  const a = sizes.indexOf(from ?? '');
  const b = to === undefined ? a : sizes.indexOf(to);
  if (a < 0 || b < 0 || b < a) throw new CatalogueError(`unknown size range "${range}"`);
  return sizes.slice(a, b + 1);
}

/**
 * Reads the print-area column. Forms used by the catalogue:
 *   "12x16"                                 one area for every size
 *   "11.5x13.8 (L-3XL: 15x18)"              overrides for a range of sizes (several, comma separated)
 *   "4x4 (wrap: 9x3.5)"                     an alternative wrap area
 *   "10x7 (XS) up to 11.5x12 (XL)"          the smallest and largest size; sizes between are
 *                                           interpolated linearly by their position in the size list
 *   "same as size"                          the size name is the area ("4x6")
 */
export function parsePrintAreas(text: string, sizes: string[], back: string): PrintAreas {
  const backArea = back ? parseArea(back) : null;
  const bySize: Record<string, Area> = {};

  if (text === 'same as size') {
    const areas = sizes.map((s) => parseArea(s));
    sizes.forEach((s, i) => (bySize[s] = areas[i]!));
    return { front: areas[0]!, bySize, wrap: null, back: backArea };
  }

  const upTo = /^(\S+) \(([^)]+)\) up to (\S+) \(([^)]+)\)$/.exec(text);
  if (upTo) {
    const low = parseArea(upTo[1]!);
    const high = parseArea(upTo[3]!);
    const i0 = sizes.indexOf(upTo[2]!);
    const i1 = sizes.indexOf(upTo[4]!);
    if (i0 < 0 || i1 <= i0) throw new CatalogueError(`bad size span in "${text}"`);
    for (let i = i0; i <= i1; i++) {
      const t = (i - i0) / (i1 - i0);
      const round = (v: number) => Math.round(v * 100) / 100;
      bySize[sizes[i]!] = {
        widthIn: round(low.widthIn + (high.widthIn - low.widthIn) * t),
        heightIn: round(low.heightIn + (high.heightIn - low.heightIn) * t),
      };
    }
    return { front: low, bySize, wrap: null, back: backArea };
  }

  const m = /^(\S+)(?: \((.+)\))?$/.exec(text);
  if (!m) throw new CatalogueError(`unreadable print area "${text}"`);
  const front = parseArea(m[1]!);
  let wrap: Area | null = null;
  for (const part of (m[2] ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
    const [label, area] = part.split(':').map((p) => p.trim());
    if (!label || !area) throw new CatalogueError(`unreadable print area part "${part}"`);
    if (label === 'wrap') wrap = parseArea(area);
    else for (const s of sizeRange(sizes, label)) bySize[s] = parseArea(area);
  }
  return { front, bySize, wrap, back: backArea };
}

/** The front print area for a size (the base area when the size has no override). */
export function printAreaFor(product: Pick<CatalogueProduct, 'printAreas'>, size: string | null): Area {
  return (size && product.printAreas.bySize[size]) || product.printAreas.front;
}

export function parseProducts(text: string): CatalogueProduct[] {
  const seen = new Set<string>();
  return rows(text).map((row) => {
    const sku = need(row, 'sku');
    if (seen.has(sku)) throw new CatalogueError(`duplicate sku ${sku}`);
    seen.add(sku);
    const category = need(row, 'category');
    if (!isMerchCategory(category)) throw new CatalogueError(`${sku}: unknown category ${category}`);
    const sizes = need(row, 'sizes') === 'One size' ? ['One size'] : need(row, 'sizes').split(/\s+/);
    const sizeSurchargesCents: Record<string, Cents> = {};
    for (const pair of (row.size_surcharges_usd ?? '').split(/\s+/).filter(Boolean)) {
      const [size, usd] = pair.split('=');
      if (!size || !usd || !sizes.includes(size)) throw new CatalogueError(`${sku}: bad surcharge "${pair}"`);
      sizeSurchargesCents[size] = parseUsdToCents(usd);
    }
    const priceCents = parseUsdToCents(need(row, 'price_usd'));
    const baseCostCents = parseUsdToCents(need(row, 'base_cost_usd'));
    if (baseCostCents > priceCents) throw new CatalogueError(`${sku}: base cost above price`);
    const printAreaText = need(row, 'print_area_in');
    const pod = row.pod_catalog_id ?? '';
    return {
      sku,
      name: need(row, 'name'),
      category,
      priceCents,
      baseCostCents,
      sizes,
      sizeSurchargesCents,
      colours: colourNames(Number(need(row, 'colour_count'))),
      handleColours: category === 'mugs' ? [...HANDLE_COLOURS] : [],
      printAreaText,
      printAreas: parsePrintAreas(printAreaText, sizes, row.back_print_area_in ?? ''),
      podCatalogId: pod === '' ? null : Number(pod),
      shippingBucket: need(row, 'shipping_bucket'),
    };
  });
}

export function parseShipping(text: string): ShippingBucket[] {
  return rows(text).map((row) => {
    const flag = need(row, 'packs_separately');
    if (flag !== 'yes' && flag !== 'no') throw new CatalogueError(`${row.bucket}: packs_separately must be yes or no`);
    return {
      bucket: need(row, 'bucket'),
      firstItemCents: parseUsdToCents(need(row, 'first_item_usd')),
      additionalItemCents: parseUsdToCents(need(row, 'additional_item_usd')),
      packsSeparately: flag === 'yes',
    };
  });
}

export function parsePrintSizes(text: string): PrintTarget[] {
  return rows(text).map((row) => ({
    target: need(row, 'target'),
    minWidthPx: Number(need(row, 'min_width_px')),
    minHeightPx: Number(need(row, 'min_height_px')),
  }));
}

export interface Catalogue {
  products: CatalogueProduct[];
  shipping: ShippingBucket[];
  printSizes: PrintTarget[];
}

/** Parses all three files and checks that every product's shipping bucket exists. */
export function parseCatalogue(files: { products: string; shipping: string; printSizes: string }): Catalogue {
  const products = parseProducts(files.products);
  const shipping = parseShipping(files.shipping);
  const buckets = new Set(shipping.map((s) => s.bucket));
  for (const p of products) {
    if (!buckets.has(p.shippingBucket)) throw new CatalogueError(`${p.sku}: unknown shipping bucket ${p.shippingBucket}`);
  }
  return { products, shipping, printSizes: parsePrintSizes(files.printSizes) };
}
