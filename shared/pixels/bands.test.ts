import { describe, expect, it } from 'vitest';
import { bandEdges, MIN_ROWS_PER_BAND } from './bands.ts';

describe('bandEdges', () => {
  it('covers every row once, in bands that differ by at most one row', () => {
    for (const [height, count] of [[4800, 2], [4801, 3], [4800, 4], [2025, 2]] as const) {
      const edges = bandEdges(height, count);
      expect(edges[0]).toBe(0);
      expect(edges.at(-1)).toBe(height);
      const sizes = edges.slice(1).map((e, i) => e - edges[i]!);
      expect(sizes.length).toBe(count);
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    }
  });

  it('keeps small prints on one thread', () => {
    expect(bandEdges(MIN_ROWS_PER_BAND * 2 - 1, 4)).toEqual([0, MIN_ROWS_PER_BAND * 2 - 1]);
    expect(bandEdges(300, 2)).toEqual([0, 300]);
    expect(bandEdges(MIN_ROWS_PER_BAND * 3, 4)).toHaveLength(4);
  });
});
