/** The print targets of shared/catalogue/print-sizes.tsv, judged for a crop, and the print areas to choose from. */
import printSizesText from '../../../shared/catalogue/print-sizes.tsv?raw';
import { parsePrintSizes, type PrintTarget } from '../../../shared/catalogue/parse.ts';
import { effectiveDpi, printStatus, type PrintStatus, type Size } from '../../../shared/print.ts';
import { DEFAULT_PRINT_AREA_IN } from '../../../shared/schemas/print.ts';

export const PRINT_TARGETS: readonly PrintTarget[] = parsePrintSizes(printSizesText);

export interface PrintArea {
  id: string;
  label: string;
  widthIn: number;
  heightIn: number;
}

export const PRINT_AREAS: readonly PrintArea[] = [
  { id: '4x6', label: '4x6 in', widthIn: 4, heightIn: 6 },
  { id: '5x7', label: '5x7 in', widthIn: 5, heightIn: 7 },
  { id: '8x10', label: '8x10 in', widthIn: 8, heightIn: 10 },
  { id: '11x14', label: '11x14 in', widthIn: 11, heightIn: 14 },
  {
    id: 'tshirt',
    label: `T-Shirt ${DEFAULT_PRINT_AREA_IN.width_in}x${DEFAULT_PRINT_AREA_IN.height_in} in`,
    widthIn: DEFAULT_PRINT_AREA_IN.width_in,
    heightIn: DEFAULT_PRINT_AREA_IN.height_in,
  },
];
export const DEFAULT_PRINT_AREA_ID = 'tshirt';

/** The area with this id; the T-shirt area for an unknown one. */
export function printArea(id: string): PrintArea {
  const found = PRINT_AREAS.find((a) => a.id === id) ?? PRINT_AREAS.find((a) => a.id === DEFAULT_PRINT_AREA_ID);
  if (!found) throw new Error('No default print area');
  return found;
}

/** The inches of a photo target named like "8x10"; null for named products (Mug, T-Shirt...). */
export function targetInches(name: string): { widthIn: number; heightIn: number } | null {
  const match = /^(\d+(?:\.\d+)?)x(\d+(?:\.\d+)?)$/.exec(name.trim());
  return match ? { widthIn: Number(match[1]), heightIn: Number(match[2]) } : null;
}

export interface TargetRow {
  target: string;
  status: PrintStatus;
  /** Effective DPI of the crop on a photo target; null for the others. */
  dpi: number | null;
}

export function targetRows(crop: Size, targets: readonly PrintTarget[] = PRINT_TARGETS): TargetRow[] {
  return targets.map((t) => {
    const inches = targetInches(t.target);
    return { target: t.target, status: printStatus(crop, t), dpi: inches ? effectiveDpi(crop, inches) : null };
  });
}
