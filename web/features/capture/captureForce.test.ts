import { describe, expect, it } from 'vitest';
import { captureForce } from './captureForce.ts';

describe('captureForce', () => {
  it.each([
    ['?capture=wasm', 'wasm'],
    ['?capture=server', 'server'],
    ['?capture=canvas&t=3', 'canvas'],
  ])('%s starts at %s', (search, expected) => {
    expect(captureForce(search)).toBe(expected);
  });

  it.each(['', '?capture=thumbnail', '?capture=WASM', '?capture=', '?other=wasm'])('%j forces nothing', (search) => {
    expect(captureForce(search)).toBeUndefined();
  });
});
