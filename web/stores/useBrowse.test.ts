import { describe, expect, it } from 'vitest';
import { useBrowse } from './useBrowse.ts';

describe('useBrowse', () => {
  it('reset (the logo) clears the category and the search text', () => {
    useBrowse.getState().setCategory('music');
    useBrowse.getState().setSearchText('cats');
    useBrowse.getState().reset();
    expect(useBrowse.getState()).toMatchObject({ category: 'all', searchText: '' });
  });
});
