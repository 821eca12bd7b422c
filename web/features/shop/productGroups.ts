/**
 * How the product page lays out a category: one category is one grid; 'all' is one short
 * section per category (its first few products and a link to the rest), so the page stays a
 * few screens long instead of every product in one grid.
 */
import { isMerchCategory, MERCH_CATEGORIES, type MerchCategory } from '../../../shared/categories.ts';
import type { CatalogueProductReply } from '../../../shared/schemas/catalogue.ts';

/** Products shown per category when all are listed: one row of three (ProductPage.css). Phones show fewer. */
export const ALL_PREVIEW_COUNT = 3;

export interface ProductGroup {
  category: MerchCategory;
  /** The products shown in the section. */
  products: CatalogueProductReply[];
  /** How many the category has in all. */
  total: number;
}

/** The products by category in the categories page's order; empty categories are left out. */
export function groupByCategory(products: readonly CatalogueProductReply[], perGroup = ALL_PREVIEW_COUNT): ProductGroup[] {
  const byCategory = new Map<MerchCategory, CatalogueProductReply[]>();
  for (const p of products) {
    // A category this page does not know still shows, among the miscellaneous products.
    const category = isMerchCategory(p.category) ? p.category : 'misc';
    const list = byCategory.get(category) ?? [];
    list.push(p);
    byCategory.set(category, list);
  }
  return MERCH_CATEGORIES.flatMap((category) => {
    const list = byCategory.get(category);
    return list ? [{ category, products: list.slice(0, perGroup), total: list.length }] : [];
  });
}
