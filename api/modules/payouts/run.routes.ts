import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { runPayoutsRoute } from '../../../shared/schemas/payouts.ts';
import { runPayouts, type PayoutRunDeps } from './run.ts';
import { periodOfMonth } from './run-rules.ts';

/**
 * An admin starts a period's payout run now: the same run as the job of the 1st, and safe to
 * repeat or to start while another runs (each creator is paid once per period whatever starts
 * it). It answers when the run has made and sent the payouts. A month whose 1st has not come is
 * refused (400).
 */
const runRoutes: FastifyPluginAsyncTypebox<{ deps: PayoutRunDeps }> = async (app, opts) => {
  app.route({
    ...runPayoutsRoute,
    handler: async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      const run = await runPayouts(opts.deps, periodOfMonth(request.body.period)!, { requireDue: true });
      return { success: true as const, run };
    },
  });
};

export default runRoutes;
