import { describe, expect, it } from 'vitest';
import { FEATHER_SUCCESS_MESSAGE, lowResolutionMessage, printOutcome, smallerSizeHint } from './printToolMessages.ts';

describe('the message after Apply Feather & Generate Print Quality', () => {
  it('is the spec success from 300 DPI', () => {
    expect(printOutcome(300, '4x6 in')).toEqual({ generate: true, level: 'ready', message: FEATHER_SUCCESS_MESSAGE });
  });

  it('is the success too from 150 DPI, the level saying it is only acceptable', () => {
    expect(printOutcome(150, '8x10 in')).toEqual({ generate: true, level: 'acceptable', message: FEATHER_SUCCESS_MESSAGE });
    expect(printOutcome(299, '8x10 in').level).toBe('acceptable');
  });

  it('is never a success below 150 DPI: no print file, and what the crop is, plainly', () => {
    const outcome = printOutcome(25, 'T-Shirt 12x16 in');
    expect(outcome.generate).toBe(false);
    expect(outcome.level).toBe('low');
    expect(outcome.message).not.toContain('generated');
    expect(outcome.message).toBe('Too small to print well at T-Shirt 12x16 in: this crop gives 25 DPI, and a good print needs at least 150 DPI (300 for the sharpest).');
    expect(printOutcome(149, '4x6 in').generate).toBe(false);
    expect(lowResolutionMessage('4x6 in', 149)).toContain('149 DPI');
  });

  it('offers a smaller size, or a larger crop when no size suits', () => {
    expect(smallerSizeHint({ label: '4x6 in', dpi: 160 })).toBe('It prints well at 4x6 in (160 DPI).');
    expect(smallerSizeHint(undefined)).toMatch(/^No print size suits this crop/);
  });
});
