import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { paymentMethodsRoute, payoutSetupRoute, savePayoutMethodRoute, saveTaxInfoRoute } from '../../../shared/schemas/payouts.ts';
import { payoutSetup, paymentMethods, savePayoutMethod, saveTaxInfo } from './service.ts';

/**
 * The payout methods on offer, and the signed-in creator's payment setup. Replies about a setup
 * are the creator's own and are never stored by a cache. No handler logs the request body.
 */
const payouts: FastifyPluginAsyncTypebox = async (app) => {
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
    handler: async (request, reply) => {
      void reply.header('cache-control', 'private, no-store');
      const { setup, onboardingUrl } = await savePayoutMethod(app.db, app.sealedValues, request.user!.id, request.body);
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
};

export default payouts;
