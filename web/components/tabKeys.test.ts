import { describe, expect, it } from 'vitest';
import { tabForKey } from './tabKeys.ts';

const ORDER = ['a', 'b', 'c'] as const;

describe('tabForKey', () => {
  it('arrow keys move and wrap, Home and End jump, other keys do nothing', () => {
    expect(tabForKey(ORDER, 'a', 'ArrowRight')).toBe('b');
    expect(tabForKey(ORDER, 'c', 'ArrowRight')).toBe('a');
    expect(tabForKey(ORDER, 'a', 'ArrowLeft')).toBe('c');
    expect(tabForKey(ORDER, 'b', 'Home')).toBe('a');
    expect(tabForKey(ORDER, 'a', 'End')).toBe('c');
    expect(tabForKey(ORDER, 'b', 'Enter')).toBeNull();
  });
});
