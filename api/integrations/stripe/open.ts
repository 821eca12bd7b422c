/** Payments by Stripe Checkout when STRIPE_SECRET_KEY is set, else by the embedded provider. */
import type { Kysely } from 'kysely';
import type { Config } from '../../platform/config/config.ts';
import type { DB } from '../../platform/db/schema.ts';
import { EmbeddedPayments, type EventDelivery } from './embedded.ts';
import type { PaymentProvider } from './provider.ts';
import { StripePayments } from './stripe.ts';

export interface PaymentsDeps {
  db: Kysely<DB>;
  /** whsec_... : signs the embedded provider's events. */
  embeddedWebhookSecret: string;
  /** Sends the embedded provider's signed events to the app's Stripe webhook. */
  deliver: EventDelivery;
  log?: (message: string, err?: unknown) => void;
  /** The clock the embedded provider's subscriptions run on (the app's). */
  now?: () => Date;
}

/**
 * The payment provider the configuration asks for. The embedded provider is made either way: it
 * serves the payment pages of sessions it opened before a switch to Stripe.
 */
export function openPayments(config: Pick<Config, 'stripe' | 'publicUrl'>, deps: PaymentsDeps): { provider: PaymentProvider; embedded: EmbeddedPayments } {
  const embedded = new EmbeddedPayments(deps.db, deps.embeddedWebhookSecret, config.publicUrl, { deliver: deps.deliver, log: deps.log, ...(deps.now ? { now: deps.now } : {}) });
  const provider = config.stripe ? new StripePayments({ secretKey: config.stripe.secretKey, webhookSecret: config.stripe.webhookSecret }) : embedded;
  return { provider, embedded };
}
