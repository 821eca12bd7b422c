/** The print targets of shared/catalogue/print-sizes.tsv: their minimum pixel sizes, and the inches of the photo ones. */
import printSizesText from '../../../shared/catalogue/print-sizes.tsv?raw';
import { parsePrintSizes, type PrintTarget } from '../../../shared/catalogue/parse.ts';

export const PRINT_TARGETS: readonly PrintTarget[] = parsePrintSizes(printSizesText);

/** The inches of a photo target named like "8x10"; null for named products (Mug, T-Shirt...). */
export function targetInches(name: string): { widthIn: number; heightIn: number } | null {
  const match = /^(\d+(?:\.\d+)?)x(\d+(?:\.\d+)?)$/.exec(name.trim());
  return match ? { widthIn: Number(match[1]), heightIn: Number(match[2]) } : null;
}
