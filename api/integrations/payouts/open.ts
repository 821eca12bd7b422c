/**
 * The payout providers the configuration asks for, one per method: PayPal Payouts with
 * PAYPAL_CLIENT_ID (and its secret and webhook id), Stripe Connect with STRIPE_SECRET_KEY and
 * STRIPE_CONNECT_WEBHOOK_SECRET, ACH by NACHA file with the NACHA_* settings; each method
 * without its configuration is paid by the embedded payout provider. The embedded provider is
 * made either way: payouts it took before a switch still settle and report.
 */
import type { Kysely } from 'kysely';
import type { PayoutMethodName } from '../../../shared/schemas/payouts.ts';
import type { Config } from '../../platform/config/config.ts';
import type { DB } from '../../platform/db/schema.ts';
import { NachaPayouts, type Sealer } from './ach.ts';
import { EmbeddedPayouts, type EmbeddedPayoutDelivery } from './embedded.ts';
import { PayPalPayouts } from './paypal.ts';
import type { PayoutProvider } from './provider.ts';
import { StripeConnectPayouts, type ConnectOnboarder, type StripeConnectOptions } from './stripe-connect.ts';
import { payoutWebhooks, type PayoutWebhooks } from './webhooks.ts';

type PayoutConfig = Pick<Config, 'paypal' | 'stripeConnect' | 'nacha' | 'embeddedPayoutSettleMs' | 'publicUrl'>;

export interface PayoutProvidersDeps {
  db: Kysely<DB>;
  /** Seals the bank numbers of NACHA entries (app.sealedValues). */
  sealer: Sealer;
  /** The embedded provider's keys (app secrets) and where it sends its events. */
  embedded: {
    paypalSecret: string;
    /** whsec_... */
    stripeSecret: string;
    deliver?: EmbeddedPayoutDelivery;
    now?: () => Date;
    log?: (message: string, err?: unknown) => void;
  };
  /** For tests: PayPal's fetch, Stripe's host. */
  paypalFetch?: typeof fetch;
  stripe?: Pick<StripeConnectOptions, 'host' | 'port' | 'protocol' | 'maxNetworkRetries'>;
}

/** The provider of each method, and the parts around them. */
export type PayoutProviders = ((method: PayoutMethodName) => PayoutProvider) & {
  readonly embedded: EmbeddedPayouts;
  readonly paypal: PayPalPayouts | null;
  readonly stripeConnect: StripeConnectPayouts | null;
  readonly nacha: NachaPayouts | null;
  /** Verifies and reads the webhooks of PayPal and Stripe Connect (and of the embedded provider in their formats). */
  readonly webhooks: PayoutWebhooks;
  /** Stripe Connect onboarding: Stripe's when configured, else the embedded provider's page. */
  readonly onboarding: ConnectOnboarder;
};

export function openPayoutProviders(config: PayoutConfig, deps: PayoutProvidersDeps): PayoutProviders {
  const embedded = new EmbeddedPayouts(deps.db, {
    publicUrl: config.publicUrl,
    settleMs: config.embeddedPayoutSettleMs,
    paypalSecret: deps.embedded.paypalSecret,
    stripeSecret: deps.embedded.stripeSecret,
    deliver: deps.embedded.deliver,
    now: deps.embedded.now,
    log: deps.embedded.log,
  });
  const paypal = config.paypal
    ? new PayPalPayouts({
        clientId: config.paypal.clientId,
        clientSecret: config.paypal.clientSecret,
        webhookId: config.paypal.webhookId,
        apiBase: config.paypal.apiBase,
        fetch: deps.paypalFetch,
      })
    : null;
  const stripeConnect = config.stripeConnect
    ? new StripeConnectPayouts({ secretKey: config.stripeConnect.secretKey, webhookSecrets: config.stripeConnect.webhookSecrets, ...deps.stripe })
    : null;
  const nacha = config.nacha ? new NachaPayouts(deps.db, { origin: config.nacha, sealer: deps.sealer }) : null;
  const byMethod: Record<PayoutMethodName, PayoutProvider> = {
    paypal: paypal ?? embedded.provider('paypal'),
    stripe_connect: stripeConnect ?? embedded.provider('stripe_connect'),
    ach: nacha ?? embedded.provider('ach'),
  };
  const providerFor = (method: PayoutMethodName): PayoutProvider => byMethod[method];
  return Object.assign(providerFor, {
    embedded,
    paypal,
    stripeConnect,
    nacha,
    webhooks: payoutWebhooks({
      paypal,
      embeddedPayPal: embedded.paypalVerifier,
      connectSecrets: config.stripeConnect?.webhookSecrets ?? [],
      embeddedStripeSecret: deps.embedded.stripeSecret,
    }),
    onboarding: stripeConnect ?? embedded,
  });
}
