/** Shipping by the catalogue's own rules and rates (shipping.tsv); needs nothing outside the app. */
import type { ShippingBucket } from '../../../shared/catalogue/parse.ts';
import type { CheckoutCountry } from '../../../shared/constants.ts';
import { quoteShipping } from '../../../shared/shop/shipping.ts';
import type { ShippingProvider, ShippingQuoteLine, ShippingRate } from './shipping-provider.ts';

export class EmbeddedShipping implements ShippingProvider {
  readonly kind = 'embedded' as const;

  constructor(private readonly buckets: readonly ShippingBucket[]) {}

  async quote(lines: readonly ShippingQuoteLine[], _zip: string, country: CheckoutCountry): Promise<ShippingRate> {
    const quote = quoteShipping(
      lines.map((l) => ({ bucket: l.product.shippingBucket, quantity: l.quantity })),
      country,
      this.buckets,
    );
    return { cents: quote.cents, method: quote.method };
  }
}
