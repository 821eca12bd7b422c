import { describe, expect, it } from 'vitest';
import { PRINT_TARGETS, targetInches } from './printTargets.ts';

describe('print targets', () => {
  it('come from print-sizes.tsv', () => {
    expect(PRINT_TARGETS.map((t) => t.target)).toEqual(['4x6', '5x7', '8x10', '11x14', 'Mug', 'T-Shirt', 'Phone Case']);
    expect(PRINT_TARGETS[0]).toEqual({ target: '4x6', minWidthPx: 1200, minHeightPx: 1800 });
  });

  it('read the inches of photo targets only', () => {
    expect(targetInches('8x10')).toEqual({ widthIn: 8, heightIn: 10 });
    expect(targetInches('11x14')).toEqual({ widthIn: 11, heightIn: 14 });
    expect(targetInches('Mug')).toBeNull();
    expect(targetInches('Phone Case')).toBeNull();
  });
});
