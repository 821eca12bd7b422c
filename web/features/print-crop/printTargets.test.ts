import { describe, expect, it } from 'vitest';
import { DEFAULT_PRINT_AREA_ID, PRINT_AREAS, PRINT_TARGETS, printArea, targetInches, targetRows } from './printTargets.ts';

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

  it('judge a small crop too small, with the DPI it gives each photo (fitted inside, never stretched)', () => {
    const rows = targetRows({ width: 288, height: 288 });
    expect(rows.find((r) => r.target === '4x6')).toEqual({ target: '4x6', status: 'Too Small for Print', dpi: 72 });
    expect(rows.find((r) => r.target === 'Mug')).toEqual({ target: 'Mug', status: 'Too Small for Print', dpi: null });
  });

  it('need both minimums', () => {
    const rows = targetRows({ width: 1200, height: 1199 });
    expect(rows.find((r) => r.target === 'T-Shirt')?.status).toBe('Too Small for Print');
    expect(rows.find((r) => r.target === 'Mug')?.status).toBe('OK for Print');
    expect(rows.find((r) => r.target === 'Phone Case')?.status).toBe('Too Small for Print');
    expect(targetRows({ width: 1200, height: 1800 }).find((r) => r.target === '4x6')).toEqual({ target: '4x6', status: 'OK for Print', dpi: 300 });
  });

  it('give every photo target a DPI and no other', () => {
    const rows = targetRows({ width: 3300, height: 4200 });
    expect(rows.filter((r) => r.dpi !== null).map((r) => r.target)).toEqual(['4x6', '5x7', '8x10', '11x14']);
    expect(rows.every((r) => r.status === 'OK for Print')).toBe(true);
  });
});

describe('print areas', () => {
  it('default to the T-shirt, 12x16 in', () => {
    expect(printArea(DEFAULT_PRINT_AREA_ID)).toMatchObject({ label: 'T-Shirt 12x16 in', widthIn: 12, heightIn: 16 });
    expect(printArea('nope').id).toBe(DEFAULT_PRINT_AREA_ID);
    expect(PRINT_AREAS.map((a) => a.label)).toEqual(['4x6 in', '5x7 in', '8x10 in', '11x14 in', 'T-Shirt 12x16 in']);
  });
});
