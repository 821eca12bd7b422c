import { describe, expect, it } from 'vitest';
import { searchTarget } from './searchTarget.ts';

describe('searchTarget', () => {
  it('goes nowhere for empty or whitespace-only text', () => {
    expect(searchTarget('')).toBeNull();
    expect(searchTarget('   ')).toBeNull();
    expect(searchTarget('\t\n ')).toBeNull();
  });

  it('searches for the trimmed text', () => {
    expect(searchTarget('  cats  ')).toBe('/search?q=cats');
  });

  it('encodes the query so it survives as one parameter', () => {
    expect(searchTarget('cats & dogs')).toBe('/search?q=cats%20%26%20dogs');
    expect(searchTarget('a+b=c?#')).toBe('/search?q=a%2Bb%3Dc%3F%23');
    const target = searchTarget(' Café ünïcode ');
    expect(new URL(target ?? '', 'http://x').searchParams.get('q')).toBe('Café ünïcode');
  });
});
