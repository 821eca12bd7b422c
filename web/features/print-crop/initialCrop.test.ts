import { describe, expect, it } from 'vitest';
import { initialCrop } from './initialCrop.ts';

describe('initialCrop', () => {
  it('is a centred square of at most 300 px', () => {
    expect(initialCrop({ width: 3840, height: 2160 })).toEqual({ x: 1770, y: 930, width: 300, height: 300 });
  });
  it('is 80 % of the smaller side when that is under 300 px', () => {
    expect(initialCrop({ width: 640, height: 360 })).toEqual({ x: 176, y: 36, width: 288, height: 288 });
    expect(initialCrop({ width: 200, height: 300 })).toEqual({ x: 20, y: 70, width: 160, height: 160 });
  });
  it('fits a tiny image', () => {
    expect(initialCrop({ width: 20, height: 10 })).toEqual({ x: 0, y: 0, width: 20, height: 10 });
  });
});
