/**
 * The payout providers wired into the app: app.payoutProviders, the provider of each method
 * (PayPal, Stripe Connect and ACH by NACHA file where configured, else the embedded payout
 * provider), with the webhooks' verification and Stripe Connect onboarding; the embedded
 * provider's onboarding page (/pay/connect/:token); and its clock, which settles its payouts
 * while the app serves (with the `payments` background loop; tests call
 * app.payoutProviders.embedded.tick()). The embedded provider reports to this app's own
 * webhook routes through inject(), in PayPal's and Stripe's formats, so its reports take the
 * real routes and their checks; its ACH outcomes go to `applyAchEvent` (the payouts module's
 * applyPayoutEvent), as an admin's NACHA confirmation does.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import { paypalPayoutsWebhookRoute, stripeConnectWebhookRoute } from '../../../shared/schemas/payouts.ts';
import type { DB } from '../../platform/db/schema.ts';
import { appSecret } from '../../platform/settings/secrets.ts';
import type { PayoutEventSink } from './ach.ts';
import onboardingRoutes from './onboarding-routes.ts';
import { openPayoutProviders, type PayoutProviders } from './open.ts';

declare module 'fastify' {
  interface FastifyInstance {
    payoutProviders: PayoutProviders;
  }
}

export const PAYPAL_PAYOUTS_WEBHOOK_PATH = paypalPayoutsWebhookRoute.url;
export const STRIPE_CONNECT_WEBHOOK_PATH = stripeConnectWebhookRoute.url;

export interface PayoutProvidersPluginOptions {
  /** Where ACH outcomes of the embedded provider go (the payouts module's applyPayoutEvent). */
  applyAchEvent?: PayoutEventSink;
  /** The app's clock; the system's by default. */
  now?: () => Date;
}

/** The embedded provider's signing keys, made once and kept in the database so every process signs alike. */
export async function embeddedPayoutSecrets(db: Kysely<DB>): Promise<{ paypalSecret: string; stripeSecret: string }> {
  return {
    paypalSecret: await appSecret(db, 'embedded-payouts.paypal-webhook'),
    stripeSecret: `whsec_${await appSecret(db, 'embedded-payouts.stripe-webhook')}`,
  };
}

async function payoutProviders(app: FastifyInstance, opts: PayoutProvidersPluginOptions) {
  const { paypalSecret, stripeSecret } = await embeddedPayoutSecrets(app.db);
  const post = async (url: string, body: string, headers: Record<string, string>) => {
    const res = await app.inject({ method: 'POST', url, payload: body, headers: { 'content-type': 'application/json', ...headers } });
    return { statusCode: res.statusCode, body: res.body };
  };
  const providers = openPayoutProviders(app.config, {
    db: app.db,
    sealer: app.sealedValues,
    embedded: {
      paypalSecret,
      stripeSecret,
      now: opts.now,
      log: (message, err) => app.log.warn({ err }, message),
      deliver: {
        paypal: (body, headers) => post(PAYPAL_PAYOUTS_WEBHOOK_PATH, body, { ...headers, 'user-agent': 'PayPal/AUHD-214.0-58725012' }),
        stripe: (body, signature) => post(STRIPE_CONNECT_WEBHOOK_PATH, body, { 'stripe-signature': signature, 'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)' }),
        ...(opts.applyAchEvent ? { ach: opts.applyAchEvent } : {}),
      },
    },
  });
  app.decorate('payoutProviders', providers);
  await app.register(onboardingRoutes, { embedded: providers.embedded });
  // The embedded provider's clock runs even with the real services configured, so payouts it already holds settle.
  if (app.background.payments) app.addHook('onReady', async () => providers.embedded.start());
  app.addHook('onClose', async () => providers.embedded.stop());
}

export default fp(payoutProviders, { name: 'payout-providers', dependencies: ['context'] });
