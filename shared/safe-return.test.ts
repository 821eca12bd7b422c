import { describe, expect, it } from 'vitest';
import { OPEN_REDIRECT_VARIANTS } from './safe-return.cases.ts';
import { safeReturnPath, withQuery } from './safe-return.ts';

describe('safeReturnPath', () => {
  it('keeps paths on this site with their query and fragment', () => {
    expect(safeReturnPath('/')).toBe('/');
    expect(safeReturnPath('/video/3/abc')).toBe('/video/3/abc');
    expect(safeReturnPath('/search?q=cats&x=1#top')).toBe('/search?q=cats&x=1#top');
    expect(safeReturnPath('/a/../privacy-policy')).toBe('/privacy-policy');
  });

  it(`sends every one of ${OPEN_REDIRECT_VARIANTS.length} attempts to leave the site to "/" or a path here`, () => {
    expect(OPEN_REDIRECT_VARIANTS.length).toBeGreaterThanOrEqual(60);
    for (const attempt of OPEN_REDIRECT_VARIANTS) {
      const result = safeReturnPath(attempt);
      expect(result.startsWith('/'), attempt).toBe(true);
      expect(result.startsWith('//'), attempt).toBe(false);
      expect(result.includes('\\'), attempt).toBe(false);
      expect(new URL(result, 'https://framemerch.example').origin, attempt).toBe('https://framemerch.example');
    }
  });

  it('refuses non-strings', () => {
    expect(safeReturnPath(undefined)).toBe('/');
    expect(safeReturnPath(['/a'])).toBe('/');
  });
});

describe('withQuery', () => {
  it('adds parameters and keeps the existing ones', () => {
    expect(withQuery('/search?q=cats#top', { login: 'success' })).toBe('/search?q=cats&login=success#top');
  });
});
