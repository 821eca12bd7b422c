/**
 * The admin portal's subscriptions list. HTTP only: the list's rules are admin.ts's. The answer
 * is private to the admin who asked and never stored by a cache.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ADMIN_PAGE_SIZE } from '../../../shared/schemas/admin.ts';
import { adminSubscriptionsRoute } from '../../../shared/schemas/admin-subscriptions.ts';
import { subscriptionPage } from './admin.ts';

const adminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    ...adminSubscriptionsRoute,
    handler: async (request, reply) => {
      void reply.header('cache-control', 'private, no-store');
      return { success: true as const, ...(await subscriptionPage(app.db, { ...request.query, limit: request.query.limit ?? ADMIN_PAGE_SIZE })) };
    },
  });
};

export default adminRoutes;
