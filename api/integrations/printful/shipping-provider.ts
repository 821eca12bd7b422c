/**
 * Shipping quotes sit behind this interface. Two adapters: the catalogue's own rates
 * (shared/shop/shipping.ts applied to shipping.tsv) by default, and Printful's shipping-rates
 * API when PRINTFUL_API_KEY is set, so the buyer pays what the print shop will charge.
 */
import type { CatalogueProduct } from '../../../shared/catalogue/parse.ts';
import type { CheckoutCountry } from '../../../shared/constants.ts';
import type { Cents } from '../../../shared/money.ts';
import type { VariantChoice } from '../../../shared/shop/variants.ts';

/** One cart line, already checked against the catalogue. */
export interface ShippingQuoteLine {
  product: CatalogueProduct;
  variant: VariantChoice;
  quantity: number;
}

export interface ShippingRate {
  cents: Cents;
  /** What the buyer reads, e.g. 'Standard'. */
  method: string;
}

export interface ShippingProvider {
  readonly kind: 'embedded' | 'printful';
  quote(lines: readonly ShippingQuoteLine[], zip: string, country: CheckoutCountry): Promise<ShippingRate>;
}

/** The provider could not give a quote (unreachable, refused the request, or answered nothing usable). */
export class ShippingUnavailableError extends Error {
  override name = 'ShippingUnavailableError';
}
