import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { achFileRoute, confirmAchUploadRoute } from '../../../shared/schemas/payouts.ts';
import type { NachaOrigin } from '../../integrations/payouts/index.ts';
import { confirmAchUploadAsAdmin } from './admin.ts';
import { achFileOf } from './ach.ts';
import type { PayoutRunDeps } from './run.ts';
import { periodOfMonth } from './run-rules.ts';

export interface AchRoutesOptions {
  /** The run's deps: the confirmation applies its events as the run and the webhooks do. */
  deps: PayoutRunDeps;
  /** The platform bank's details (config.nacha); null when ACH payouts do not go by NACHA file. */
  origin: NachaOrigin | null;
}

/**
 * An admin downloads a period's ACH payouts as a NACHA file (it holds full bank numbers: an
 * attachment, never cached), uploads it to the bank, and confirms the upload, which pays the
 * period's entries; confirming again changes nothing.
 */
const achRoutes: FastifyPluginAsyncTypebox<AchRoutesOptions> = async (app, opts) => {
  app.route({
    ...achFileRoute,
    handler: async (request, typedReply) => {
      const reply = typedReply as unknown as FastifyReply;
      void reply.header('cache-control', 'no-store');
      const month = request.params.period;
      const file = await achFileOf({ ...opts.deps, origin: opts.origin }, periodOfMonth(month)!);
      return reply
        .type('text/plain; charset=utf-8')
        .header('content-disposition', `attachment; filename="framemerch-ach-${month}.txt"`)
        .send(file.content);
    },
  });

  app.route({
    ...confirmAchUploadRoute,
    handler: async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      const confirmed = await confirmAchUploadAsAdmin(opts.deps, request.user!.id, request.params.period);
      return { success: true as const, confirmed };
    },
  });
};

export default achRoutes;
