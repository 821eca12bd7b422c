/**
 * Shipping by the catalogue's rules (shared/catalogue/README.md), in integer cents:
 * - items of a bucket that packs separately ship as that bucket's own package: its first item
 *   pays the bucket's first-item rate, each further item the additional rate;
 * - every other item is bundled into one package: the item with the highest first-item rate pays
 *   it, every other bundled item pays its own additional rate;
 * - outside the US a package's first item pays the country's flat rate instead.
 */
import type { ShippingBucket } from '../catalogue/parse.ts';
import type { Cents } from '../money.ts';
import { CHECKOUT_COUNTRIES, type CheckoutCountry } from '../constants.ts';

/** The flat first-item rate of a package outside the US (FR is listed for the card processor's countries). */
export const INTERNATIONAL_FIRST_ITEM_CENTS: Readonly<Record<string, Cents>> = { CA: 999, GB: 999, DE: 999, FR: 999, AU: 1499 };

export const SHIPPING_METHOD = 'Standard';

export class ShippingError extends Error {
  override name = 'ShippingError';
}

export interface ShippingLine {
  bucket: string;
  quantity: number;
}

export interface ShippingPackage {
  /** The bucket for a separate package; null for the bundle. */
  bucket: string | null;
  items: number;
  cents: Cents;
}

export interface ShippingQuote {
  country: CheckoutCountry;
  method: string;
  cents: Cents;
  packages: ShippingPackage[];
}

export function quoteShipping(lines: readonly ShippingLine[], country: string, buckets: readonly ShippingBucket[]): ShippingQuote {
  if (!(CHECKOUT_COUNTRIES as readonly string[]).includes(country)) throw new ShippingError(`We do not ship to ${country}.`);
  if (lines.length === 0) throw new ShippingError('The cart is empty.');
  const byName = new Map(buckets.map((b) => [b.bucket, b]));
  const firstRate = (b: ShippingBucket) => (country === 'US' ? b.firstItemCents : INTERNATIONAL_FIRST_ITEM_CENTS[country]!);

  // One entry per item, so quantities count as items.
  const separate = new Map<string, number>();
  const bundled: ShippingBucket[] = [];
  for (const line of lines) {
    const b = byName.get(line.bucket);
    if (!b) throw new ShippingError(`Unknown shipping bucket ${line.bucket}`);
    if (!Number.isInteger(line.quantity) || line.quantity < 1) throw new ShippingError('Quantities must be whole numbers of at least 1.');
    if (b.packsSeparately) separate.set(b.bucket, (separate.get(b.bucket) ?? 0) + line.quantity);
    else for (let i = 0; i < line.quantity; i++) bundled.push(b);
  }

  const packages: ShippingPackage[] = [];
  if (bundled.length > 0) {
    // The item with the highest first-item rate pays it; among equals, the one whose additional
    // rate is highest, so the buyer pays the least.
    let lead = 0;
    for (let i = 1; i < bundled.length; i++) {
      const a = bundled[i]!;
      const l = bundled[lead]!;
      if (a.firstItemCents > l.firstItemCents || (a.firstItemCents === l.firstItemCents && a.additionalItemCents > l.additionalItemCents)) lead = i;
    }
    let cents = firstRate(bundled[lead]!);
    bundled.forEach((b, i) => {
      if (i !== lead) cents += b.additionalItemCents;
    });
    packages.push({ bucket: null, items: bundled.length, cents });
  }
  for (const [name, count] of separate) {
    const b = byName.get(name)!;
    packages.push({ bucket: name, items: count, cents: firstRate(b) + (count - 1) * b.additionalItemCents });
  }
  return { country: country as CheckoutCountry, method: SHIPPING_METHOD, cents: packages.reduce((s, p) => s + p.cents, 0), packages };
}
