import { describe, expect, it } from 'vitest';
import {
  CROP_MIN_PX,
  cropToPercent,
  displayToImage,
  dragCrop,
  formatPixelSize,
  imageScale,
  imageToDisplay,
  nudgeCrop,
  resizeCropByKey,
} from './cropBox.ts';

const image = { width: 1280, height: 720 };

describe('display and image pixels', () => {
  it('scales by the drawn width', () => {
    expect(imageScale(image, 640)).toBe(2);
    expect(displayToImage({ x: 100, y: 50 }, image, 640)).toEqual({ x: 200, y: 100 });
  });
  it('keeps converted points inside the image', () => {
    expect(displayToImage({ x: -10, y: 900 }, image, 640)).toEqual({ x: 0, y: 720 });
  });
  it('converts a rect back to display pixels', () => {
    expect(imageToDisplay({ x: 200, y: 100, width: 400, height: 300 }, image, 640)).toEqual({ x: 100, y: 50, width: 200, height: 150 });
  });
  it('draws the box as percentages of the image', () => {
    expect(cropToPercent({ x: 320, y: 180, width: 640, height: 360 }, image)).toEqual({ left: '25%', top: '25%', width: '50%', height: '50%' });
  });
});

describe('dragCrop', () => {
  const start = { x: 100, y: 100, width: 200, height: 200 };

  it('moves the box without resizing it', () => {
    expect(dragCrop(start, 'move', 30.4, -20.6, image)).toEqual({ x: 130, y: 79, width: 200, height: 200 });
  });
  it('stops a moved box at the image edges', () => {
    expect(dragCrop(start, 'move', -500, 5000, image)).toEqual({ x: 0, y: 520, width: 200, height: 200 });
  });
  it('resizes from the south-east corner, the north-west corner staying put', () => {
    expect(dragCrop(start, 'se', 50, 10, image)).toEqual({ x: 100, y: 100, width: 250, height: 210 });
  });
  it('resizes from the north-west corner, the south-east corner staying put', () => {
    expect(dragCrop(start, 'nw', -40, 60, image)).toEqual({ x: 60, y: 160, width: 240, height: 140 });
  });
  it('resizes from the other two corners', () => {
    expect(dragCrop(start, 'ne', 20, -30, image)).toEqual({ x: 100, y: 70, width: 220, height: 230 });
    expect(dragCrop(start, 'sw', -20, 30, image)).toEqual({ x: 80, y: 100, width: 220, height: 230 });
  });
  it('never goes under the minimum', () => {
    expect(dragCrop(start, 'se', -1000, -1000, image)).toEqual({ x: 100, y: 100, width: CROP_MIN_PX, height: CROP_MIN_PX });
    expect(dragCrop(start, 'nw', 1000, 1000, image)).toEqual({ x: 250, y: 250, width: CROP_MIN_PX, height: CROP_MIN_PX });
  });
  it('never leaves the image when resizing', () => {
    expect(dragCrop(start, 'nw', -1000, -1000, image)).toEqual({ x: 0, y: 0, width: 300, height: 300 });
    expect(dragCrop(start, 'se', 5000, 5000, image)).toEqual({ x: 100, y: 100, width: 1180, height: 620 });
  });
  it('works from display deltas converted with the scale', () => {
    const scale = imageScale(image, 320);
    expect(dragCrop(start, 'move', 10 * scale, 5 * scale, image)).toEqual({ x: 140, y: 120, width: 200, height: 200 });
  });
});

describe('nudgeCrop', () => {
  const rect = { x: 10, y: 10, width: 100, height: 100 };
  it('moves 1 px per arrow key, 10 with Shift', () => {
    expect(nudgeCrop(rect, 'ArrowRight', false, image)).toEqual({ ...rect, x: 11 });
    expect(nudgeCrop(rect, 'ArrowUp', true, image)).toEqual({ ...rect, y: 0 });
    expect(nudgeCrop(rect, 'ArrowLeft', true, image)).toEqual({ ...rect, x: 0 });
    expect(nudgeCrop(rect, 'ArrowDown', true, image)).toEqual({ ...rect, y: 20 });
  });
  it('ignores other keys', () => {
    expect(nudgeCrop(rect, 'Enter', false, image)).toBeNull();
  });
});

describe('resizeCropByKey', () => {
  const rect = { x: 10, y: 10, width: 100, height: 100 };
  it('moves the bottom-right corner 1 px per arrow key, 10 with Shift; the top-left stays', () => {
    expect(resizeCropByKey(rect, 'ArrowRight', false, image)).toEqual({ ...rect, width: 101 });
    expect(resizeCropByKey(rect, 'ArrowDown', true, image)).toEqual({ ...rect, height: 110 });
    expect(resizeCropByKey(rect, 'ArrowLeft', true, image, 50)).toEqual({ ...rect, width: 90 });
  });
  it('keeps the minimum side and ignores other keys', () => {
    expect(resizeCropByKey(rect, 'ArrowUp', true, image, 100)).toEqual(rect);
    expect(resizeCropByKey(rect, 'Enter', false, image)).toBeNull();
  });
});

it('formats a pixel size', () => {
  expect(formatPixelSize({ width: 3600, height: 2025 })).toBe('3600 × 2025 px');
});
