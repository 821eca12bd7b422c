/** The shipping provider the configuration asks for: Printful's rates with PRINTFUL_API_KEY, else the catalogue's. */
import type { Catalogue } from '../../../shared/catalogue/parse.ts';
import type { Config } from '../../platform/config/config.ts';
import { EmbeddedShipping } from './embedded-shipping.ts';
import { PrintfulShipping } from './printful-shipping.ts';
import type { ShippingProvider } from './shipping-provider.ts';

export function shippingProvider(config: Pick<Config, 'printful'>, catalogue: Catalogue): ShippingProvider {
  const embedded = new EmbeddedShipping(catalogue.shipping);
  if (!config.printful) return embedded;
  return new PrintfulShipping({ apiKey: config.printful.apiKey, storeId: config.printful.storeId, baseUrl: config.printful.apiUrl, fallback: embedded });
}
