import { describe, expect, it } from 'vitest';
import { cropForFrame, defaultVideoCrop, minCropSide, pictureRect } from './videoCrop.ts';

describe('pictureRect', () => {
  it('fills a 16:9 frame with a 16:9 video', () => {
    expect(pictureRect({ width: 1280, height: 720 }, { width: 800, height: 450 })).toEqual({ x: 0, y: 0, width: 800, height: 450 });
  });

  it('centres a portrait video between bars on the left and right', () => {
    expect(pictureRect({ width: 720, height: 1280 }, { width: 800, height: 450 })).toEqual({ x: 273.4375, y: 0, width: 253.125, height: 450 });
  });

  it('centres a wide video between bars above and below', () => {
    const rect = pictureRect({ width: 2400, height: 800 }, { width: 800, height: 450 });
    expect(rect.x).toBe(0);
    expect(rect.width).toBe(800);
    expect(rect.height).toBeCloseTo(800 / 3, 9);
    expect(rect.y).toBeCloseTo((450 - 800 / 3) / 2, 9);
  });

  it('is empty before the video size is known', () => {
    expect(pictureRect({ width: 0, height: 0 }, { width: 800, height: 450 })).toEqual({ x: 0, y: 0, width: 0, height: 0 });
  });
});

describe('defaultVideoCrop', () => {
  it('is 200 display pixels square, centred, in video pixels', () => {
    // A 1280-wide video drawn 800 wide: 1.6 video pixels per display pixel.
    expect(defaultVideoCrop({ width: 1280, height: 720 }, 800)).toEqual({ x: 480, y: 200, width: 320, height: 320 });
  });

  it('stays inside a picture smaller than the box', () => {
    const crop = defaultVideoCrop({ width: 160, height: 90 }, 160);
    expect(crop).toEqual({ x: 0, y: 0, width: 160, height: 90 });
  });

  it('has a minimum of 50 display pixels', () => {
    expect(minCropSide({ width: 1280, height: 720 }, 640)).toBe(100);
  });
});

describe('cropForFrame', () => {
  it('keeps the box for a full-resolution frame', () => {
    const rect = { x: 10, y: 20, width: 300, height: 200 };
    expect(cropForFrame(rect, { width: 1280, height: 720 }, { width: 1280, height: 720 })).toBe(rect);
  });

  it('scales the box for a half-size frame', () => {
    expect(cropForFrame({ x: 100, y: 50, width: 300, height: 200 }, { width: 1280, height: 720 }, { width: 640, height: 360 })).toEqual({
      x: 50,
      y: 25,
      width: 150,
      height: 100,
    });
  });
});
