import { describe, expect, it } from 'vitest';
import { cropsToDrop, restoredCrop } from './savedCrop.ts';

const video = { width: 1280, height: 720 };

describe('the kept crop box', () => {
  it('comes back as it was kept, for the video size it was drawn on', () => {
    const rect = { x: 100, y: 50, width: 640, height: 360 };
    expect(restoredCrop({ rect, video, savedAt: 1 }, video)).toEqual(rect);
  });

  it('is kept inside the video, and dropped when damaged or drawn on another size', () => {
    expect(restoredCrop({ rect: { x: 1200, y: -5, width: 200, height: 100 }, video, savedAt: 1 }, video)).toEqual({ x: 1080, y: 0, width: 200, height: 100 });
    expect(restoredCrop({ rect: { x: 0, y: 0, width: 10, height: 10 }, video: { width: 1920, height: 1080 } }, video)).toBeNull();
    expect(restoredCrop({ rect: { x: 'a', y: 0, width: 10, height: 10 }, video }, video)).toBeNull();
    expect(restoredCrop({ rect: { x: 0, y: 0, width: 0, height: 10 }, video }, video)).toBeNull();
    expect(restoredCrop(null, video)).toBeNull();
    expect(restoredCrop('x', video)).toBeNull();
  });

  it('keeps the newest boxes only', () => {
    const saved = [
      ['a', { savedAt: 3 }],
      ['b', { savedAt: 1 }],
      ['c', { savedAt: 2 }],
      ['d', 'junk'],
    ] as const;
    expect(cropsToDrop(saved, 2).sort()).toEqual(['b', 'd']);
    expect(cropsToDrop(saved, 10)).toEqual([]);
  });
});
