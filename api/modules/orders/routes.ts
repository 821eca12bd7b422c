/**
 * Printful's webhook (authorised by the secret token in its URL, as Printful signs nothing; the
 * embedded print shop reports here too, with its own token). The print shop integration says
 * whose token it is; the report is applied in one line. The admin portal's order routes are
 * registered here too (admin.routes.ts).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { FULFILMENT_MESSAGES, printfulWebhookRoute } from '../../../shared/schemas/fulfilment.ts';
import { AppError } from '../../platform/http/errors.ts';
import adminOrderRoutes from './admin.routes.ts';
import { applyFulfilmentEvent } from './fulfilment-events.ts';

const fulfilmentWebhooks: FastifyPluginAsyncTypebox = async (app) => {
  const { db, config } = app;
  const apply = (event: Parameters<typeof applyFulfilmentEvent>[1], eventId: string | undefined) =>
    applyFulfilmentEvent(db, event, { publicUrl: config.publicUrl, eventId });

  app.route({
    ...printfulWebhookRoute,
    handler: async (request) => {
      const sender = app.fulfilmentWebhooks.accept(request.query.token, request.body);
      if (!sender) throw AppError.notFound(FULFILMENT_MESSAGES.unknownWebhook);
      const result = await apply(request.body, sender.eventId);
      return { success: true as const, duplicate: !result.firstDelivery, status: result.status };
    },
  });

  await app.register(adminOrderRoutes);
};

export default fulfilmentWebhooks;
