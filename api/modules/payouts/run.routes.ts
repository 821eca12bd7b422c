import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { runPayoutsRoute } from '../../../shared/schemas/payouts.ts';
import { runPayoutsAsAdmin } from './admin.ts';
import type { PayoutRunDeps } from './run.ts';

/**
 * An admin starts a period's payout run now: the same run as the job of the 1st, and safe to
 * repeat or to start while another runs (each creator is paid once per period whatever starts
 * it). It answers when the run has made and sent the payouts. A month whose 1st has not come is
 * refused (400). Each run an admin starts is in the admin log.
 */
const runRoutes: FastifyPluginAsyncTypebox<{ deps: PayoutRunDeps }> = async (app, opts) => {
  app.route({
    ...runPayoutsRoute,
    handler: async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      const run = await runPayoutsAsAdmin(opts.deps, request.user!.id, request.body.period);
      return { success: true as const, run };
    },
  });
};

export default runRoutes;
