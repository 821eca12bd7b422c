/**
 * The print sizes the crop tool offers, each with the print area its file fills: the aspect the
 * crop is locked to, the effective DPI a crop gives it, the spec's status against the minimums of
 * shared/catalogue/print-sizes.tsv, and the smaller sizes to suggest when a crop is too small.
 */
import { dpiLevel, effectiveDpi, PRINT_DPI, type CropRect, type DpiLevel, type PrintStatus, type Size } from '../../../shared/print.ts';
import { DEFAULT_PRINT_AREA_IN } from '../../../shared/schemas/print.ts';
import { PRINT_TARGETS, targetInches } from './printTargets.ts';

export type Orientation = 'portrait' | 'landscape';

export interface PrintSize {
  /** The print-sizes.tsv target this size is judged against. */
  id: string;
  label: string;
  /** The print area as listed (portrait). */
  widthIn: number;
  heightIn: number;
  /** Photo prints turn to suit the picture; a product's print area has one way up. */
  rotatable: boolean;
}

/** Print area of a product target without inches in its name. */
function productArea(target: string): { widthIn: number; heightIn: number } {
  if (target === 'T-Shirt') return { widthIn: DEFAULT_PRINT_AREA_IN.width_in, heightIn: DEFAULT_PRINT_AREA_IN.height_in };
  // The mugs' front print area in products.tsv.
  if (target === 'Mug') return { widthIn: 4, heightIn: 4 };
  // No catalogue product gives one: the area the target's minimum fills at print DPI.
  const row = PRINT_TARGETS.find((t) => t.target === target);
  if (!row) throw new Error(`Unknown print target ${target}`);
  return { widthIn: row.minWidthPx / PRINT_DPI, heightIn: row.minHeightPx / PRINT_DPI };
}

export const PRINT_SIZES: readonly PrintSize[] = PRINT_TARGETS.map((t) => {
  const inches = targetInches(t.target);
  if (inches) return { id: t.target, label: `${t.target} in`, ...inches, rotatable: true };
  const area = productArea(t.target);
  return { id: t.target, label: `${t.target} ${formatInches(area.widthIn)}x${formatInches(area.heightIn)} in`, ...area, rotatable: false };
});

export const DEFAULT_PRINT_SIZE_ID = 'T-Shirt';

function formatInches(value: number): string {
  return String(Math.round(value * 100) / 100);
}

/** The size with this id; the default size for an unknown one. */
export function printSize(id: string): PrintSize {
  const found = PRINT_SIZES.find((s) => s.id === id) ?? PRINT_SIZES.find((s) => s.id === DEFAULT_PRINT_SIZE_ID);
  if (!found) throw new Error('No default print size');
  return found;
}

/** Landscape for a wider image, so a photo print starts the way the picture is. */
export function defaultOrientation(image: Size): Orientation {
  return image.width > image.height ? 'landscape' : 'portrait';
}

/** The print area in inches, turned for a landscape photo print. */
export function sizeArea(size: PrintSize, orientation: Orientation): { widthIn: number; heightIn: number } {
  const turn = size.rotatable && orientation === 'landscape' && size.heightIn > size.widthIn;
  return turn ? { widthIn: size.heightIn, heightIn: size.widthIn } : { widthIn: size.widthIn, heightIn: size.heightIn };
}

/** Width over height of the crop box for this size: the print area's own shape. */
export function sizeAspect(size: PrintSize, orientation: Orientation): number {
  const area = sizeArea(size, orientation);
  return area.widthIn / area.heightIn;
}

/**
 * The crop in whole image pixels from react-easy-crop's croppedAreaPixels (which may carry
 * fractions and, at the edges, a pixel too many), kept inside the image.
 */
export function cropFromAreaPixels(area: CropRect, image: Size): CropRect {
  const x = Math.min(Math.max(Math.round(area.x), 0), Math.max(0, image.width - 1));
  const y = Math.min(Math.max(Math.round(area.y), 0), Math.max(0, image.height - 1));
  const width = Math.max(1, Math.min(Math.round(area.width), image.width - x));
  const height = Math.max(1, Math.min(Math.round(area.height), image.height - y));
  return { x, y, width, height };
}

/** The spec's status: both minimums met, the minimums turned with a landscape photo print. */
export function sizeStatus(crop: Size, size: PrintSize, orientation: Orientation): PrintStatus {
  const target = PRINT_TARGETS.find((t) => t.target === size.id);
  if (!target) return 'Too Small for Print';
  const turn = size.rotatable && orientation === 'landscape' && target.minHeightPx > target.minWidthPx;
  const [minW, minH] = turn ? [target.minHeightPx, target.minWidthPx] : [target.minWidthPx, target.minHeightPx];
  return crop.width >= minW && crop.height >= minH ? 'OK for Print' : 'Too Small for Print';
}

export interface SizeRow {
  size: PrintSize;
  status: PrintStatus;
  /** The DPI this crop gives the size's print area. */
  dpi: number;
  level: DpiLevel;
}

/**
 * The DPI a crop gives a print area it must fill: cut to the area's shape, the crop keeps the
 * smaller of its two pixel-per-inch ratios. For the chosen size the crop already has that shape.
 */
export function fillDpi(crop: Size, area: { widthIn: number; heightIn: number }): number {
  return Math.floor(Math.min(crop.width / area.widthIn, crop.height / area.heightIn) + 1e-9);
}

/**
 * Every size judged for this crop, in the catalogue's order: the chosen size as its print file
 * is made (shared/print.ts effectiveDpi), each other as the crop would fill it.
 */
export function sizeRows(crop: Size, orientation: Orientation, chosenId?: string): SizeRow[] {
  return PRINT_SIZES.map((size) => {
    const area = sizeArea(size, orientation);
    const dpi = size.id === chosenId ? effectiveDpi(crop, area) : fillDpi(crop, area);
    return { size, status: sizeStatus(crop, size, orientation), dpi, level: dpiLevel(dpi) };
  });
}

const areaOf = (size: PrintSize) => size.widthIn * size.heightIn;

/**
 * Sizes smaller than `chosen` that this crop prints well enough (150 DPI or more), the largest
 * first: what to offer when the chosen size is too big for the crop.
 */
export function smallerSizes(rows: readonly SizeRow[], chosen: PrintSize): SizeRow[] {
  return rows.filter((row) => row.level !== 'low' && areaOf(row.size) < areaOf(chosen)).sort((a, b) => areaOf(b.size) - areaOf(a.size));
}
