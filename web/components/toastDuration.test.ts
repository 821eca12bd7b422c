import { describe, expect, it } from 'vitest';
import { TOAST_LONG_MS, TOAST_SHORT_MS, toastDuration } from './toastDuration.ts';

describe('toastDuration', () => {
  it('gives a short message 3 s', () => {
    expect(toastDuration('Failed to capture screenshot. Please try again.')).toBe(TOAST_SHORT_MS);
  });

  it('gives a long message 5 s', () => {
    expect(toastDuration('Maximum 6 screenshots allowed. Please delete some screenshots first.')).toBe(TOAST_LONG_MS);
  });
});
