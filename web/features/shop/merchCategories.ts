/** The shop's categories as the pages name them; the slugs come from shared/categories.ts. */
import { MERCH_CATEGORIES, type MerchCategory } from '../../../shared/categories.ts';

export const MERCH_CATEGORY_LABELS: Record<MerchCategory, string> = {
  womens: "Women's",
  mens: "Men's",
  kids: 'Kids',
  mugs: 'Mugs',
  hats: 'Hats',
  bags: 'Bags',
  pets: 'Pets',
  stickers: 'Stickers',
  misc: 'Misc',
  thumbnails: 'Thumbnails',
};

export type CategoryChoice = MerchCategory | 'all';

/** All first, then the ten categories in the spec's order. */
export const CATEGORY_CHOICES: ReadonlyArray<{ value: CategoryChoice; label: string }> = [
  { value: 'all', label: 'All' },
  ...MERCH_CATEGORIES.map((value) => ({ value, label: MERCH_CATEGORY_LABELS[value] })),
];

export function browsePath(category: CategoryChoice, email: string | null): string {
  const query = new URLSearchParams({ category, authenticated: String(email !== null) });
  if (email) query.set('email', email);
  return `/product/browse?${query.toString()}`;
}

/** The same page (browsing, or one product) showing another category; its other parameters are kept. */
export function categoryHref(pathname: string, search: URLSearchParams, category: CategoryChoice): string {
  const query = new URLSearchParams(search);
  query.set('category', category);
  return `${pathname}?${query.toString()}`;
}
