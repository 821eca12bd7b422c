/** Spec section 8 texts used by the crop tool, and the plain words for a crop too small to print. */
import { ACCEPTABLE_DPI, dpiLevel, PRINT_DPI, type DpiLevel } from '../../../shared/print.ts';

export const INVALID_IMAGE_MESSAGE = 'Please select a valid image file';
export const CROP_FAILED_MESSAGE = 'Failed to crop image. Please try again.';
export const FEATHER_SUCCESS_MESSAGE = 'Feather effect applied and print quality image generated!';
export const featherErrorMessage = (message: string | undefined) => `Error applying feather effect: ${message || 'Unknown error'}`;
export const CROP_TOOL_TITLE = 'Simple Print Crop Tool';
/** The file name a downloaded print file gets. */
export const PRINT_DOWNLOAD_NAME = 'framemerch-print.png';

/** What a crop at this DPI is, said plainly, for a print of `sizeLabel`. */
export function lowResolutionMessage(sizeLabel: string, dpi: number): string {
  return `Too small to print well at ${sizeLabel}: this crop gives ${dpi} DPI, and a good print needs at least ${ACCEPTABLE_DPI} DPI (${PRINT_DPI} for the sharpest).`;
}

/** The way out of a crop too small for its size: the best smaller size, or a larger crop. */
export function smallerSizeHint(smaller: { label: string; dpi: number } | undefined): string {
  return smaller
    ? `It prints well at ${smaller.label} (${smaller.dpi} DPI).`
    : 'No print size suits this crop: zoom out to take a larger part of the image, or use a larger image.';
}

export type PrintOutcome = { generate: true; level: Exclude<DpiLevel, 'low'>; message: string } | { generate: false; level: 'low'; message: string };

/**
 * What pressing 'Apply Feather & Generate Print Quality' does at this DPI: the print file and the
 * spec's success message from 150 DPI (the badge tells ready from acceptable); below that no
 * file, scaled up many times over, but the plain words.
 */
export function printOutcome(dpi: number, sizeLabel: string): PrintOutcome {
  const level = dpiLevel(dpi);
  if (level === 'low') return { generate: false, level, message: lowResolutionMessage(sizeLabel, dpi) };
  return { generate: true, level, message: FEATHER_SUCCESS_MESSAGE };
}
