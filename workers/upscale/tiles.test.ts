import { describe, expect, it } from 'vitest';
import { chooseFactor, MODEL_LOAD_SHARE, modelPath, planTiles, progressAfter, tileWork } from './tiles.ts';

describe('chooseFactor', () => {
  it('takes the smallest factor that reaches the target DPI', () => {
    expect(chooseFactor(150, 300)).toBe(2);
    expect(chooseFactor(200, 300)).toBe(2);
    expect(chooseFactor(149, 300)).toBe(4);
    expect(chooseFactor(75, 300)).toBe(4);
  });
  it('takes the largest factor when none reaches it', () => {
    expect(chooseFactor(20, 300)).toBe(4);
    expect(chooseFactor(0, 300)).toBe(4);
  });
});

describe('modelPath', () => {
  it('is a path of the app, never another host', () => {
    expect(modelPath(2)).toBe('/models/esrgan-slim/x2/model.json');
    expect(modelPath(4)).toBe('/models/esrgan-slim/x4/model.json');
  });
});

describe('planTiles', () => {
  it('keeps every pixel exactly once', () => {
    for (const [w, h, size, pad] of [[300, 200, 128, 12], [128, 128, 128, 12], [1, 1, 128, 12], [257, 129, 64, 0], [1000, 3, 100, 20]] as const) {
      const seen = new Uint8Array(w * h);
      for (const t of planTiles(w, h, size, pad)) {
        for (let y = t.keep.y; y < t.keep.y + t.keep.height; y++) for (let x = t.keep.x; x < t.keep.x + t.keep.width; x++) seen[y * w + x]!++;
      }
      expect(seen.every((n) => n === 1)).toBe(true);
    }
  });

  it('reads up to the padding around each tile, clamped to the image, and never more than size + 2 padding', () => {
    const tiles = planTiles(300, 200, 128, 12);
    expect(tiles).toHaveLength(3 * 2);
    expect(tiles[0]).toEqual({ input: { x: 0, y: 0, width: 140, height: 140 }, keep: { x: 0, y: 0, width: 128, height: 128 } });
    expect(tiles[1]).toEqual({ input: { x: 116, y: 0, width: 152, height: 140 }, keep: { x: 128, y: 0, width: 128, height: 128 } });
    expect(tiles[5]).toEqual({ input: { x: 244, y: 116, width: 56, height: 84 }, keep: { x: 256, y: 128, width: 44, height: 72 } });
    for (const t of tiles) {
      expect(t.input.x).toBeLessThanOrEqual(t.keep.x);
      expect(t.input.y).toBeLessThanOrEqual(t.keep.y);
      expect(t.input.x + t.input.width).toBeGreaterThanOrEqual(t.keep.x + t.keep.width);
      expect(t.input.width).toBeLessThanOrEqual(128 + 24);
      expect(t.input.height).toBeLessThanOrEqual(128 + 24);
    }
  });

  it('bounds memory by the tile size whatever the image size', () => {
    const tiles = planTiles(6000, 4000, 128, 12);
    expect(Math.max(...tileWork(tiles))).toBe(152 * 152);
  });

  it('refuses an empty image or a bad tile size', () => {
    expect(() => planTiles(0, 10, 128, 12)).toThrow(RangeError);
    expect(() => planTiles(10, 10, 0, 12)).toThrow(RangeError);
    expect(() => planTiles(10, 10, 128, -1)).toThrow(RangeError);
  });
});

describe('progressAfter', () => {
  const work = tileWork(planTiles(300, 200, 128, 12));
  it('starts after the model load share and ends at 1', () => {
    expect(progressAfter(0, work)).toBe(MODEL_LOAD_SHARE);
    expect(progressAfter(work.length, work)).toBeCloseTo(1, 10);
  });
  it("only rises, by each tile's share of the pixels", () => {
    let last = 0;
    for (let i = 0; i <= work.length; i++) {
      const p = progressAfter(i, work);
      expect(p).toBeGreaterThan(last);
      last = p;
    }
    // The first tile (140 x 140 of 79,616 read pixels in all) is a quarter of the work.
    const total = work.reduce((a, b) => a + b, 0);
    expect(progressAfter(1, work)).toBeCloseTo(MODEL_LOAD_SHARE + (1 - MODEL_LOAD_SHARE) * (140 * 140) / total, 10);
  });
  it('is complete for no work', () => {
    expect(progressAfter(0, [])).toBe(1);
  });
});
