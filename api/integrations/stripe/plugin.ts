/**
 * Payments: Stripe Checkout when STRIPE_SECRET_KEY is set, else the embedded provider; both
 * verify the same webhooks. The embedded provider delivers its events to this app's own
 * /api/webhooks/stripe through inject(), so they run the real route and its signature check
 * without a network; its background loop (expiry sweep, delivery retries) runs while the app
 * serves, and tests call deliverDue() / expireDue() / tick() themselves. Subscriptions run on the
 * app's clock (app.clock).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { EmbeddedPayments } from './embedded.ts';
import { openPayments } from './open.ts';
import type { PaymentProvider } from './provider.ts';
import { appSecret } from '../../platform/settings/secrets.ts';

declare module 'fastify' {
  interface FastifyInstance {
    payments: PaymentProvider;
    /** The embedded provider (it also serves the payment pages of its sessions). */
    embeddedPayments: EmbeddedPayments;
  }
}

export const STRIPE_WEBHOOK_PATH = '/api/webhooks/stripe';

async function payments(app: FastifyInstance) {
  const { config } = app;
  const secret = `whsec_${await appSecret(app.db, 'embedded-payments.webhook')}`;
  const { provider, embedded } = openPayments(config, {
    db: app.db,
    embeddedWebhookSecret: secret,
    deliver: async (body, signature) => {
      const res = await app.inject({
        method: 'POST',
        url: STRIPE_WEBHOOK_PATH,
        payload: body,
        headers: { 'content-type': 'application/json', 'stripe-signature': signature, 'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)' },
      });
      return { statusCode: res.statusCode, body: res.body };
    },
    log: (message, err) => app.log.warn({ err }, message),
    // Subscriptions renew on the app's clock, which an admin may move forward when TEST_CLOCK is on.
    now: () => app.clock.now(),
  });
  app.decorate('embeddedPayments', embedded);
  app.decorate('payments', provider);
  // Stripe keeps its own sessions and retries; the loop is the embedded provider's stand-in for that.
  if (app.background.payments && !config.stripe) app.addHook('onReady', async () => embedded.start(Math.min(config.jobPollMs, 5000)));
  app.addHook('onClose', async () => embedded.stop());
}

export default fp(payments, { name: 'payments', dependencies: ['context'] });
