import { describe, expect, it } from 'vitest';
import { formatCents, MoneyFormatError, parseUsdToCents, splitMargin } from './money.ts';

describe('parseUsdToCents', () => {
  it('reads decimal text exactly, without floating point drift', () => {
    expect(parseUsdToCents('21.69')).toBe(2169);
    expect(parseUsdToCents('0.8')).toBe(80);
    expect(parseUsdToCents('45')).toBe(4500);
    expect(parseUsdToCents('4.29')).toBe(429);
    expect(parseUsdToCents('1.005'.slice(0, 4))).toBe(100);
  });
  it('refuses negatives, three decimals and junk', () => {
    for (const bad of ['-1', '1.005', 'abc', '', '1e3', '1.2.3']) expect(() => parseUsdToCents(bad)).toThrow(MoneyFormatError);
  });
});

describe('formatCents', () => {
  it('formats dollars and cents', () => {
    expect(formatCents(2169)).toBe('$21.69');
    expect(formatCents(5)).toBe('$0.05');
    expect(formatCents(-150)).toBe('-$1.50');
    expect(formatCents(175_000)).toBe('$1,750.00');
    expect(formatCents(99_999)).toBe('$999.99');
    expect(formatCents(123_456_789_01)).toBe('$123,456,789.01');
    expect(formatCents(-100_000)).toBe('-$1,000.00');
  });
});

describe('splitMargin', () => {
  it('gives the creator 70 percent of the tiers page example', () => {
    expect(splitMargin(1000, 70)).toEqual({ creator: 700, house: 300 });
  });
  it('rounds the creator share half up and the parts always add up', () => {
    expect(splitMargin(1, 70)).toEqual({ creator: 1, house: 0 });
    expect(splitMargin(3, 70)).toEqual({ creator: 2, house: 1 });
    for (let m = 0; m < 5000; m += 7) {
      const { creator, house } = splitMargin(m, 70);
      expect(creator + house).toBe(m);
      expect(Math.abs(creator - (m * 70) / 100)).toBeLessThanOrEqual(0.5);
    }
  });
});
