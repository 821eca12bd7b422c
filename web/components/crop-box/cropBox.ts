/**
 * Crop box geometry, all in image pixels (the print crop tool's image, the player's video). The
 * page shows the image scaled to fit; pointer positions are converted to image pixels first, so
 * the box, its minimum and its limits never depend on how large the image happens to be drawn.
 */
import { clampCrop, type CropRect, type Size } from '../../../shared/print.ts';
import { CROP_MIN_PX } from '../../../shared/constants.ts';

export { CROP_MIN_PX };
/** Arrow keys move the box this far; with Shift, `CROP_NUDGE_LARGE_PX`. */
export const CROP_NUDGE_PX = 1;
export const CROP_NUDGE_LARGE_PX = 10;

export type CropHandle = 'move' | 'nw' | 'ne' | 'sw' | 'se';
export const CORNER_HANDLES = ['nw', 'ne', 'sw', 'se'] as const;

/** Image pixels per display pixel for an image drawn `displayWidth` wide (aspect ratio kept). */
export function imageScale(image: Size, displayWidth: number): number {
  return displayWidth > 0 ? image.width / displayWidth : 1;
}

/** A point relative to the drawn image's top-left corner, in image pixels, kept inside the image. */
export function displayToImage(point: { x: number; y: number }, image: Size, displayWidth: number): { x: number; y: number } {
  const scale = imageScale(image, displayWidth);
  return {
    x: Math.min(Math.max(point.x * scale, 0), image.width),
    y: Math.min(Math.max(point.y * scale, 0), image.height),
  };
}

/** A rect in image pixels as it is drawn, in display pixels. */
export function imageToDisplay(rect: CropRect, image: Size, displayWidth: number): CropRect {
  const scale = imageScale(image, displayWidth);
  return { x: rect.x / scale, y: rect.y / scale, width: rect.width / scale, height: rect.height / scale };
}

/** The rect as CSS percentages of the drawn image, so it needs no measuring to render. */
export function cropToPercent(rect: CropRect, image: Size): { left: string; top: string; width: string; height: string } {
  const pct = (value: number, total: number) => `${(value / total) * 100}%`;
  return { left: pct(rect.x, image.width), top: pct(rect.y, image.height), width: pct(rect.width, image.width), height: pct(rect.height, image.height) };
}

const clamp = (value: number, low: number, high: number) => Math.min(Math.max(value, low), high);

/**
 * The box after dragging `handle` by (dx, dy) image pixels from where the drag started.
 * 'move' keeps the size and stops at the image's edges; a corner moves only its own two
 * edges, the opposite corner stays put, and each side stays at least `min` pixels.
 */
export function dragCrop(start: CropRect, handle: CropHandle, dx: number, dy: number, image: Size, min = CROP_MIN_PX): CropRect {
  if (handle === 'move') return clampCrop({ ...start, x: start.x + dx, y: start.y + dy }, image, min);
  const minW = Math.min(min, image.width);
  const minH = Math.min(min, image.height);
  let left = start.x;
  let top = start.y;
  let right = start.x + start.width;
  let bottom = start.y + start.height;
  if (handle === 'nw' || handle === 'sw') left = clamp(left + dx, 0, right - minW);
  else right = clamp(right + dx, left + minW, image.width);
  if (handle === 'nw' || handle === 'ne') top = clamp(top + dy, 0, bottom - minH);
  else bottom = clamp(bottom + dy, top + minH, image.height);
  const x = Math.round(left);
  const y = Math.round(top);
  return clampCrop({ x, y, width: Math.round(right) - x, height: Math.round(bottom) - y }, image, min);
}

const ARROWS: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/** The box after an arrow key (1 px, Shift 10 px), or null for any other key. */
export function nudgeCrop(rect: CropRect, key: string, shift: boolean, image: Size): CropRect | null {
  const arrow = ARROWS[key];
  if (!arrow) return null;
  const step = shift ? CROP_NUDGE_LARGE_PX : CROP_NUDGE_PX;
  return dragCrop(rect, 'move', arrow[0] * step, arrow[1] * step, image);
}

/**
 * The box after Alt and an arrow key, which resize it from its bottom-right corner (1 px, Shift
 * 10 px; the top-left corner stays put), or null for any other key: resizing without a pointer.
 */
export function resizeCropByKey(rect: CropRect, key: string, shift: boolean, image: Size, min = CROP_MIN_PX): CropRect | null {
  const arrow = ARROWS[key];
  if (!arrow) return null;
  const step = shift ? CROP_NUDGE_LARGE_PX : CROP_NUDGE_PX;
  return dragCrop(rect, 'se', arrow[0] * step, arrow[1] * step, image, min);
}

/** "3600 × 2025 px". */
export function formatPixelSize(size: Size): string {
  return `${size.width} × ${size.height} px`;
}
