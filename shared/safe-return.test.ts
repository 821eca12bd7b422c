import { describe, expect, it } from 'vitest';
import { safeReturnPath, withQuery } from './safe-return.ts';

/** Return URLs an attacker may try; none may lead off the site. */
export const OPEN_REDIRECT_VARIANTS = [
  '//evil.com', '//evil.com/', '///evil.com', '////evil.com', '/\\evil.com', '\\\\evil.com', '/\\/evil.com', '\\/evil.com',
  'https://evil.com', 'http://evil.com', 'https:evil.com', 'http:evil.com', 'https:/evil.com', 'https:\\\\evil.com',
  'javascript:alert(1)', 'JavaScript:alert(1)', 'javascript://%0aalert(1)', ' javascript:alert(1)', 'data:text/html,hi',
  'vbscript:msgbox(1)', '%2F%2Fevil.com', '%2f%2fevil.com', '/%2F%2Fevil.com', '/%2f/evil.com', '%5C%5Cevil.com',
  '/%5Cevil.com', '/%5cevil.com', '%252F%252Fevil.com', '/%252F%252Fevil.com', '/%255Cevil.com', 'evil.com',
  'evil.com/path', '.evil.com', '@evil.com', '/@evil.com', '//user@evil.com', '/ /evil.com', '/\t/evil.com', '/\n/evil.com',
  '/\r/evil.com', '\t//evil.com', '\n//evil.com', ' //evil.com', '/%09/evil.com', '/%0a/evil.com', '/%0d/evil.com',
  '//evil.com%2F..', '//evil%E3%80%82com', '/\u3002/evil.com', 'https://framemerch.example@evil.com', '//127.0.0.1',
  '//2130706433', '//0x7f.1', '//[::1]', 'ftp://evil.com', 'file:///etc/passwd', '/%00//evil.com', '//%00evil.com',
  '/.//evil.com'.slice(1), '\u0000/evil', '/\u0000/evil', 'http://', '//', '\\', '/%', '%E0%A4%A', 'x'.repeat(3000),
];

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
