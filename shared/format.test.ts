import { describe, expect, it } from 'vitest';
import { abbreviateCount, formatViews, relativeTime } from './format.ts';

describe('abbreviateCount', () => {
  it('uses K from 1,000 and M from 1,000,000', () => {
    expect(abbreviateCount(0)).toBe('0');
    expect(abbreviateCount(999)).toBe('999');
    expect(abbreviateCount(1000)).toBe('1K');
    expect(abbreviateCount(1530)).toBe('1.5K');
    expect(abbreviateCount(15_320)).toBe('15.3K');
    expect(abbreviateCount(999_999)).toBe('1M');
    expect(abbreviateCount(1_000_000)).toBe('1M');
    expect(abbreviateCount(1_250_400)).toBe('1.3M');
    expect(abbreviateCount(2_100_000)).toBe('2.1M');
  });
  it('says views with the right number', () => {
    expect(formatViews(1)).toBe('1 view');
    expect(formatViews(12)).toBe('12 views');
    expect(formatViews(45_000)).toBe('45K views');
  });
});

describe('relativeTime', () => {
  const now = new Date('2026-06-15T12:00:00Z');
  it('counts back in the largest whole unit', () => {
    expect(relativeTime(new Date('2026-06-15T11:59:30Z'), now)).toBe('just now');
    expect(relativeTime(new Date('2026-06-15T11:55:00Z'), now)).toBe('5 minutes ago');
    expect(relativeTime(new Date('2026-06-15T11:00:00Z'), now)).toBe('1 hour ago');
    expect(relativeTime('2026-06-13T12:00:00Z', now)).toBe('2 days ago');
    expect(relativeTime('2026-05-01T12:00:00Z', now)).toBe('1 month ago');
    expect(relativeTime('2024-06-01T12:00:00Z', now)).toBe('2 years ago');
  });
});
