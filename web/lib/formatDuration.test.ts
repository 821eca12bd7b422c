import { describe, expect, it } from 'vitest';
import { formatDuration } from './formatDuration.ts';

describe('formatDuration', () => {
  it('formats minutes and seconds', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(5)).toBe('0:05');
    expect(formatDuration(83.4)).toBe('1:23');
    expect(formatDuration(599.6)).toBe('10:00');
  });

  it('adds hours when needed', () => {
    expect(formatDuration(3723)).toBe('1:02:03');
  });

  it('shows nothing for unknown durations', () => {
    expect(formatDuration(null)).toBeNull();
    expect(formatDuration(Number.NaN)).toBeNull();
    expect(formatDuration(-1)).toBeNull();
  });
});
