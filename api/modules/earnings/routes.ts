import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { salesAnalyticsRoute } from '../../../shared/schemas/checkout.ts';
import { salesAnalytics } from './analytics.ts';

/** The studio's Analytics tab: the signed-in creator's own sales, never anyone else's. */
const analytics: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;
  const analyticsOf = (creatorId: string) => salesAnalytics(db, creatorId);

  app.route({
    ...salesAnalyticsRoute,
    handler: async (request, reply) => {
      void reply.header('cache-control', 'private, no-store');
      return { success: true as const, analytics: await analyticsOf(request.user!.id) };
    },
  });
};

export default analytics;
