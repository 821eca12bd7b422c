/**
 * The admin portal's payouts: runs by period, the payouts list, a failed payout sent again.
 * HTTP only: the rules and transactions are admin.ts's. Every answer is private to the admin
 * who asked and never stored by a cache.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { ADMIN_PAYOUT_RUNS_PAGE_SIZE, adminPayoutRunsRoute, adminPayoutsRoute, retryPayoutRoute } from '../../../shared/schemas/admin-payouts.ts';
import { ADMIN_PAGE_SIZE } from '../../../shared/schemas/admin.ts';
import { payoutPage, retryPayout, runsPage } from './admin.ts';
import type { PayoutRunDeps } from './run.ts';

const adminRoutes: FastifyPluginAsyncTypebox<{ deps: PayoutRunDeps }> = async (app, opts) => {
  const noStore = (reply: FastifyReply) => void reply.header('cache-control', 'private, no-store');

  app.route({
    ...adminPayoutRunsRoute,
    handler: async (request, reply) => {
      noStore(reply);
      return { success: true as const, ...(await runsPage(app.db, { ...request.query, limit: request.query.limit ?? ADMIN_PAYOUT_RUNS_PAGE_SIZE })) };
    },
  });

  app.route({
    ...adminPayoutsRoute,
    handler: async (request, reply) => {
      noStore(reply);
      return { success: true as const, ...(await payoutPage(app.db, { ...request.query, limit: request.query.limit ?? ADMIN_PAGE_SIZE })) };
    },
  });

  app.route({
    ...retryPayoutRoute,
    handler: async (request, reply) => {
      noStore(reply);
      return { success: true as const, ...(await retryPayout(opts.deps, request.user!.id, request.params.id)) };
    },
  });
};

export default adminRoutes;
