import { describe, expect, it } from 'vitest';
import { clampZoom, keyMove, keyZoom, KEY_MOVE_LARGE_PX, KEY_MOVE_PX, restrictOffset, ZOOM_MAX, ZOOM_MIN } from './cropperKeys.ts';

describe('arrow keys', () => {
  it('move the crop the arrow way over the image (the image slides the other way)', () => {
    expect(keyMove({ x: 0, y: 0 }, 'ArrowRight', false)).toEqual({ x: -KEY_MOVE_PX, y: 0 });
    expect(keyMove({ x: 0, y: 0 }, 'ArrowUp', false)).toEqual({ x: 0, y: KEY_MOVE_PX });
    expect(keyMove({ x: 5, y: 5 }, 'ArrowLeft', true)).toEqual({ x: 5 + KEY_MOVE_LARGE_PX, y: 5 });
    expect(keyMove({ x: 0, y: 0 }, 'Enter', false)).toBeNull();
  });

  it('stop where the image would no longer cover the crop', () => {
    // A 600x338 image under a 225x338 crop box at zoom 1: 187.5 px of play each way, none up or down.
    expect(restrictOffset({ x: -400, y: 30 }, { width: 600, height: 338 }, { width: 225, height: 338 }, 1)).toEqual({ x: -187.5, y: 0 });
    expect(restrictOffset({ x: 0, y: 30 }, { width: 600, height: 338 }, { width: 225, height: 338 }, 2)).toEqual({ x: 0, y: 30 });
  });
});

describe('+ and - keys', () => {
  it('zoom in steps, within the limits', () => {
    expect(keyZoom(1, '+')).toBe(1.1);
    expect(keyZoom(1, '=')).toBe(1.1);
    expect(keyZoom(1.5, '-')).toBe(1.4);
    expect(keyZoom(ZOOM_MIN, '-')).toBe(ZOOM_MIN);
    expect(keyZoom(ZOOM_MAX, '+')).toBe(ZOOM_MAX);
    expect(keyZoom(1, 'a')).toBeNull();
    expect(clampZoom(9)).toBe(ZOOM_MAX);
  });
});
