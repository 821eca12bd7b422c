import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { paymentPortalRoute, payoutStatementRoute } from '../../../shared/schemas/payouts.ts';
import { paymentPortal } from './portal.ts';
import { payoutStatement } from './statement.ts';

export interface PortalRoutesOptions {
  /** The app's clock (the next payout date, the latest month a statement may be asked for); the system clock by default. */
  now?: () => Date;
}

/**
 * The signed-in creator's payment portal and monthly statement. Both are the creator's own and
 * are never stored by a cache; the session decides whose they are (no id is taken).
 */
const portalRoutes: FastifyPluginAsyncTypebox<PortalRoutesOptions> = async (app, opts) => {
  const now = () => opts.now?.() ?? new Date();

  app.route({
    ...paymentPortalRoute,
    handler: async (request, reply) => {
      void reply.header('cache-control', 'private, no-store');
      return { success: true as const, ...(await paymentPortal(app.db, request.user!.id, now())) };
    },
  });

  app.route({
    ...payoutStatementRoute,
    handler: async (request, typedReply) => {
      const reply = typedReply as unknown as FastifyReply;
      const { filename, csv } = await payoutStatement(app.db, request.user!.id, request.query.month, now());
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'private, no-store')
        .send(csv);
    },
  });
};

export default portalRoutes;
