/** Printful when PRINTFUL_API_KEY is set, else the embedded print shop and the catalogue's rates. */
import type { Kysely } from 'kysely';
import type { ShippingBucket } from '../../../shared/catalogue/parse.ts';
import type { Config } from '../../platform/config/config.ts';
import type { DB } from '../../platform/db/schema.ts';
import { PrintfulClient } from './client.ts';
import { EmbeddedPod, type PodEventDelivery } from './embedded-pod.ts';
import { EmbeddedShipping } from './embedded-shipping.ts';
import type { FulfilmentProvider } from './fulfilment-provider.ts';
import { PrintfulFulfilment } from './printful.ts';
import { PrintfulShipping } from './printful-shipping.ts';
import type { ShippingProvider } from './shipping-provider.ts';

type PrintfulConfig = Pick<Config, 'printful'>;

/** The Printful client when PRINTFUL_API_KEY is set, else null. */
export function printfulClient(config: PrintfulConfig): PrintfulClient | null {
  const p = config.printful;
  return p ? new PrintfulClient({ apiKey: p.apiKey, storeId: p.storeId, baseUrl: p.apiUrl }) : null;
}

export interface FulfilmentDeps {
  db: Kysely<DB>;
  /** Sends the embedded shop's reports to the app's Printful webhook. */
  deliver: PodEventDelivery;
  client?: PrintfulClient | null;
  log?: (msg: string, err?: unknown) => void;
}

/**
 * Fulfilment by Printful, else by the embedded print shop. The embedded shop is made either way:
 * orders it already holds go on to delivery after a switch to Printful.
 */
export function openFulfilment(
  config: PrintfulConfig & Pick<Config, 'podStepMs' | 'publicUrl'>,
  deps: FulfilmentDeps,
): { provider: FulfilmentProvider; embedded: EmbeddedPod } {
  const embedded = new EmbeddedPod(deps.db, { stepMs: config.podStepMs, publicUrl: config.publicUrl, deliver: deps.deliver, log: deps.log });
  const client = deps.client === undefined ? printfulClient(config) : deps.client;
  return { provider: client ? new PrintfulFulfilment(client) : embedded, embedded };
}

/** Shipping quotes by Printful's rates, else by the catalogue's own (shipping.tsv). */
export function openShipping(config: PrintfulConfig, deps: { buckets: readonly ShippingBucket[]; client?: PrintfulClient | null }): ShippingProvider {
  const embedded = new EmbeddedShipping(deps.buckets);
  const client = deps.client === undefined ? printfulClient(config) : deps.client;
  return client ? new PrintfulShipping(client, embedded) : embedded;
}
