import { describe, expect, it } from 'vitest';
import { MERCH_CATEGORIES } from '../../../shared/categories.ts';
import { ALL_PREVIEW_COUNT, groupByCategory } from './productGroups.ts';
import { catalogue, toReply } from './testCatalogue.ts';

const all = catalogue.map(toReply);

describe('every product, grouped by category', () => {
  it('gives one section per category in the categories page order, each with its first few products and its full count', () => {
    const groups = groupByCategory(all);
    const present = MERCH_CATEGORIES.filter((c) => all.some((p) => p.category === c));
    expect(groups.map((g) => g.category)).toEqual(present);
    for (const g of groups) {
      const inCategory = all.filter((p) => p.category === g.category);
      expect(g.total, g.category).toBe(inCategory.length);
      expect(g.products, g.category).toEqual(inCategory.slice(0, ALL_PREVIEW_COUNT));
    }
    // Far fewer cards than products: the point of the grouped view.
    expect(groups.reduce((n, g) => n + g.products.length, 0)).toBeLessThan(all.length);
    expect(groups.reduce((n, g) => n + g.total, 0)).toBe(all.length);
  });

  it('leaves out empty categories and puts a category it does not know with the miscellaneous products', () => {
    const mug = all.find((p) => p.category === 'mugs')!;
    const odd = { ...mug, sku: 'odd', category: 'spaceships' };
    expect(groupByCategory([mug, odd], 2)).toEqual([
      { category: 'mugs', products: [mug], total: 1 },
      { category: 'misc', products: [odd], total: 1 },
    ]);
    expect(groupByCategory([])).toEqual([]);
  });
});
