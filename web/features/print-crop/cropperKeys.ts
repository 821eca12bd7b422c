/**
 * Keyboard control of the print cropper (react-easy-crop), in display pixels: arrow keys move
 * the crop over the image the arrow's way (the picture under it slides the other way), Shift
 * moves further, + and - zoom. Pure, so the rules are tested without a browser.
 */
export interface Point {
  x: number;
  y: number;
}
export interface Extent {
  width: number;
  height: number;
}

export const ZOOM_MIN = 1;
export const ZOOM_MAX = 5;
export const ZOOM_STEP = 0.1;
export const KEY_MOVE_PX = 4;
export const KEY_MOVE_LARGE_PX = 20;

const ARROWS: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/** The image's offset after an arrow key, or null for any other key. */
export function keyMove(offset: Point, key: string, shift: boolean): Point | null {
  const arrow = ARROWS[key];
  if (!arrow) return null;
  const step = shift ? KEY_MOVE_LARGE_PX : KEY_MOVE_PX;
  // The crop area stays put on screen: moving it right over the image slides the image left.
  return { x: offset.x - arrow[0] * step, y: offset.y - arrow[1] * step };
}

export const clampZoom = (zoom: number) => Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, Math.round(zoom * 100) / 100));

/** The zoom after + (or =, as on keyboards where + needs Shift) and -, or null for any other key. */
export function keyZoom(zoom: number, key: string): number | null {
  if (key === '+' || key === '=' || key === 'Add') return clampZoom(zoom + ZOOM_STEP);
  if (key === '-' || key === '_' || key === 'Subtract') return clampZoom(zoom - ZOOM_STEP);
  return null;
}

/** The offset kept so the image (drawn `media` big, at `zoom`) still covers the whole crop area. */
export function restrictOffset(offset: Point, media: Extent, cropArea: Extent, zoom: number): Point {
  const limit = (position: number, mediaSide: number, cropSide: number) => {
    const max = Math.max(0, (mediaSide * zoom - cropSide) / 2);
    return Math.min(max, Math.max(-max, position));
  };
  return { x: limit(offset.x, media.width, cropArea.width), y: limit(offset.y, media.height, cropArea.height) };
}
