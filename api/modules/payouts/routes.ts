import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PAYOUT_MESSAGES, paymentMethodsRoute, payoutSetupRoute, savePayoutMethodRoute, saveTaxInfoRoute } from '../../../shared/schemas/payouts.ts';
import { AppError } from '../../platform/http/errors.ts';
import { applyConnectAccountUpdate, payoutSetup, paymentMethods, savePayoutMethod, saveTaxInfo } from './service.ts';
import portalRoutes from './portal.routes.ts';
import webhookRoutes from './webhooks.routes.ts';

/**
 * The payout methods on offer, and the signed-in creator's payment setup. Replies about a setup
 * are the creator's own and are never stored by a cache. No handler logs the request body.
 */
export interface PayoutRoutesOptions {
  /** The app's clock, for the portal (the run's too); the system clock by default. */
  now?: () => Date;
}

const payouts: FastifyPluginAsyncTypebox<PayoutRoutesOptions> = async (app, opts) => {
  // Stripe Connect onboarding, where app.payoutProviders is registered (plugin.ts does so unless a test replaces the providers).
  const connect = () => (app.hasDecorator('payoutProviders') ? { onboarder: app.payoutProviders.onboarding, publicUrl: app.config.publicUrl } : undefined);

  app.route({
    ...paymentMethodsRoute,
    handler: async (request) => ({ success: true as const, methods: await paymentMethods(app.db, request.query.country) }),
  });

  app.route({
    ...payoutSetupRoute,
    handler: async (request, reply) => {
      void reply.header('cache-control', 'private, no-store');
      return { success: true as const, setup: await payoutSetup(app.db, request.user!.id) };
    },
  });

  app.route({
    ...savePayoutMethodRoute,
    // Bank numbers come as text: a JSON number would be coerced to a string after losing digits
    // past 2^53 (98765432109876543 saved as ...540), so it is refused before the schema sees it.
    preValidation: async (request) => {
      const body = request.body as Record<string, unknown> | null;
      if (body === null || typeof body !== 'object') return;
      if ('routing_number' in body && typeof body.routing_number !== 'string') throw AppError.badRequest(PAYOUT_MESSAGES.routingNumber);
      if ('account_number' in body && typeof body.account_number !== 'string') throw AppError.badRequest(PAYOUT_MESSAGES.accountNumber);
    },
    handler: async (request, reply) => {
      void reply.header('cache-control', 'private, no-store');
      const { setup, onboardingUrl } = await savePayoutMethod(app.db, app.sealedValues, request.user!.id, request.body, connect());
      return { success: true as const, setup, ...(onboardingUrl ? { onboarding_url: onboardingUrl } : {}) };
    },
  });

  app.route({
    ...saveTaxInfoRoute,
    handler: async (request, reply) => {
      void reply.header('cache-control', 'private, no-store');
      return { success: true as const, setup: await saveTaxInfo(app.db, request.user!.id, request.body.email) };
    },
  });

  // The payment portal and the monthly statement.
  await app.register(portalRoutes, { now: opts.now });
  // The payout providers' webhooks (PayPal, Stripe Connect).
  await app.register(webhookRoutes, { applyConnectAccountUpdate: (update) => applyConnectAccountUpdate(app.db, update) });
};

export default payouts;
