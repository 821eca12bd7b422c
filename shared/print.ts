/**
 * Print geometry: how many pixels a print needs, what DPI an image gives a print area, and the
 * size of a print file that fills an area without ever stretching the image.
 */
import type { PrintTarget } from './catalogue/parse.ts';

export const PRINT_DPI = 300;

export interface Size {
  width: number;
  height: number;
}

export interface CropRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The DPI an image of this pixel size gives when printed to fill the area (the smaller of the two axes). */
export function effectiveDpi(image: Size, areaInches: { widthIn: number; heightIn: number }): number {
  // Fitted inside the area the image is scaled by min(area / image) on both axes, so its DPI is
  // the larger of the two pixel-per-inch ratios. The epsilon keeps 4500 px over 15 in at 300, not 299.
  return Math.floor(Math.max(image.width / areaInches.widthIn, image.height / areaInches.heightIn) + 1e-9);
}

/** The largest size with the image's aspect ratio that fits inside the box (never stretched). */
export function fitInside(image: Size, box: Size): Size {
  const scale = Math.min(box.width / image.width, box.height / image.height);
  return { width: image.width * scale, height: image.height * scale };
}

/** Pixel size of a print file for an area at a DPI, keeping the image's aspect ratio. */
export function printFileSize(image: Size, areaInches: { widthIn: number; heightIn: number }, dpi = PRINT_DPI): Size {
  const box = { width: Math.round(areaInches.widthIn * dpi), height: Math.round(areaInches.heightIn * dpi) };
  const fitted = fitInside(image, box);
  return { width: Math.max(1, Math.round(fitted.width)), height: Math.max(1, Math.round(fitted.height)) };
}

/** Below this DPI a print looks soft: print-on-demand providers hold such orders. */
export const ACCEPTABLE_DPI = 150;

/** The three print-quality levels every DPI badge shows: ready at 300 DPI and above, acceptable from 150, low below. */
export type DpiLevel = 'ready' | 'acceptable' | 'low';

export const DPI_LEVEL_LABELS: Record<DpiLevel, string> = {
  ready: 'Print ready',
  acceptable: 'Acceptable',
  low: 'Low resolution',
};

export function dpiLevel(dpi: number): DpiLevel {
  return dpi >= PRINT_DPI ? 'ready' : dpi >= ACCEPTABLE_DPI ? 'acceptable' : 'low';
}

export type PrintStatus = 'OK for Print' | 'Too Small for Print';

/** Spec: a crop is fit for a print target only when it meets both the width and the height minimum. */
export function printStatus(crop: Size, target: PrintTarget): PrintStatus {
  return crop.width >= target.minWidthPx && crop.height >= target.minHeightPx ? 'OK for Print' : 'Too Small for Print';
}

/** Keeps a crop inside the image, at least `min` pixels a side, in whole pixels. */
export function clampCrop(crop: CropRect, image: Size, min = 50): CropRect {
  const width = Math.round(Math.min(Math.max(crop.width, Math.min(min, image.width)), image.width));
  const height = Math.round(Math.min(Math.max(crop.height, Math.min(min, image.height)), image.height));
  const x = Math.round(Math.min(Math.max(crop.x, 0), image.width - width));
  const y = Math.round(Math.min(Math.max(crop.y, 0), image.height - height));
  return { x, y, width, height };
}
