import { describe, expect, it } from 'vitest';
import { describeMediaError } from './describeMediaError.ts';

describe('describeMediaError', () => {
  it('explains each MediaError code', () => {
    expect(describeMediaError(2)).toMatch(/network/);
    expect(describeMediaError(4)).toMatch(/not supported/);
  });

  it('falls back for unknown codes', () => {
    expect(describeMediaError(undefined)).toBe('The video could not be played.');
    expect(describeMediaError(99)).toBe('The video could not be played.');
  });
});
