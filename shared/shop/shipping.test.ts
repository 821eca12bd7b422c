import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseShipping } from '../catalogue/parse.ts';
import { quoteShipping, ShippingError } from './shipping.ts';

const buckets = parseShipping(readFileSync(path.join(import.meta.dirname, '../catalogue/shipping.tsv'), 'utf8'));
const quote = (lines: Array<[string, number]>, country = 'US') => quoteShipping(lines.map(([bucket, quantity]) => ({ bucket, quantity })), country, buckets);

// Figures worked by hand from shipping.tsv.
describe('shipping quotes', () => {
  it('one shirt in the US pays the first-item rate', () => {
    expect(quote([['shirts', 1]]).cents).toBe(475);
  });

  it('bundles shirts and hoodies: the hoodie pays its first-item rate, the shirts their additional rate', () => {
    // hoodie 8.49 first; two shirts 2.20 each
    expect(quote([['shirts', 2], ['hoodies', 1]]).cents).toBe(849 + 220 + 220);
  });

  it('ships mugs as their own package beside the bundle', () => {
    // bundle: shirt 4.75; mugs package: 8.49 + 2.50
    const q = quote([['shirts', 1], ['mugs', 2]]);
    expect(q.cents).toBe(475 + 849 + 250);
    expect(q.packages).toEqual([
      { bucket: null, items: 1, cents: 475 },
      { bucket: 'mugs', items: 2, cents: 1099 },
    ]);
  });

  it('ships each separate bucket as its own package', () => {
    // mugs 8.49; hats 4.49 + 2.00; stickers 4.75
    expect(quote([['mugs', 1], ['hats', 2], ['cards-stickers', 1]]).cents).toBe(849 + 449 + 200 + 475);
  });

  it('outside the US each package first item pays the flat rate', () => {
    // CA: bundle 9.99 + shirt 2.20; mugs 9.99 + 2.50
    expect(quote([['shirts', 1], ['hoodies', 1], ['mugs', 2]], 'CA').cents).toBe(999 + 220 + 999 + 250);
    // AU: the hoodie (higher first rate) leads at the flat 14.99; the shirt adds 2.20
    expect(quote([['shirts', 1], ['hoodies', 1]], 'AU').cents).toBe(1499 + 220);
    expect(quote([['shirts', 3]], 'GB').cents).toBe(999 + 220 + 220);
    expect(quote([['hats', 1]], 'DE').cents).toBe(999);
  });

  it('a mixed cart of the seed products matches the hand-computed total', () => {
    // US bundle: the pet bowl has the highest first rate and leads: 10.49 + hoodie 2.50 + 2 × shirt 2.20 + coasters 2.00 = 19.39
    // mugs 8.49 + 2.50 = 10.99; notebook 5.50
    expect(quote([['shirts', 2], ['hoodies', 1], ['pet-bowl', 1], ['coasters', 1], ['mugs', 2], ['notebook', 1]]).cents).toBe(1939 + 1099 + 550);
  });

  it('refuses unknown countries, buckets, empty carts and bad quantities', () => {
    expect(() => quote([['shirts', 1]], 'FR')).toThrow(ShippingError);
    expect(() => quote([['boats', 1]])).toThrow(ShippingError);
    expect(() => quote([])).toThrow(ShippingError);
    expect(() => quote([['shirts', 0]])).toThrow(ShippingError);
    expect(() => quote([['shirts', 1.5]])).toThrow(ShippingError);
  });
});
