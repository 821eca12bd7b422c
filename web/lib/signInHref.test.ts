import { describe, expect, it } from 'vitest';
import { signInHref } from './signInHref.ts';

describe('signInHref', () => {
  it('returns the visitor to the page and query they were on', () => {
    expect(signInHref('/video/2/abc?t=5')).toBe('/api/auth/google/login?return_url=%2Fvideo%2F2%2Fabc%3Ft%3D5');
  });

  it('never returns to another site', () => {
    expect(signInHref('//evil.example/x')).toBe('/api/auth/google/login?return_url=%2F');
    expect(signInHref('https://evil.example/')).toBe('/api/auth/google/login?return_url=%2F');
  });
});
