import { describe, expect, it } from 'vitest';
import { isCreator } from './roles.ts';

describe('isCreator', () => {
  it('lets creators and admins into the studio, not customers or nobody', () => {
    expect(isCreator({ role: 'creator', is_admin: false })).toBe(true);
    expect(isCreator({ role: 'customer', is_admin: true })).toBe(true);
    expect(isCreator({ role: 'customer', is_admin: false })).toBe(false);
    expect(isCreator(null)).toBe(false);
  });
});
