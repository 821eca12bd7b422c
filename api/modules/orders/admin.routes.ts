/**
 * The admin portal's order routes: the list, one order, refund, retry a failed fulfilment. HTTP
 * only: the rules and transactions are admin-service.ts's. Every answer is private to the admin
 * who asked and never stored by a cache.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { ADMIN_PAGE_SIZE } from '../../../shared/schemas/admin.ts';
import { adminOrderRoute, adminOrdersRoute, refundOrderRoute, retryFulfilmentRoute } from '../../../shared/schemas/admin-orders.ts';
import { orderDetail, orderPage, refundOrder, retryFulfilment } from './admin-service.ts';

const adminOrderRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const noStore = (reply: FastifyReply) => void reply.header('cache-control', 'private, no-store');

  app.route({
    ...adminOrdersRoute,
    handler: async (request, reply) => {
      noStore(reply);
      return { success: true as const, ...(await orderPage(app.db, { ...request.query, limit: request.query.limit ?? ADMIN_PAGE_SIZE })) };
    },
  });

  app.route({
    ...adminOrderRoute,
    handler: async (request, reply) => {
      noStore(reply);
      return { success: true as const, order: await orderDetail(app.db, request.params.id) };
    },
  });

  app.route({
    ...refundOrderRoute,
    handler: async (request, reply) => {
      noStore(reply);
      const deps = { db: app.db, payments: app.payments, log: (msg: string, err?: unknown) => app.log.warn({ err }, msg) };
      return { success: true as const, ...(await refundOrder(deps, request.user!.id, request.params.id, request.body?.confirm === true)) };
    },
  });

  app.route({
    ...retryFulfilmentRoute,
    handler: async (request, reply) => {
      noStore(reply);
      return { success: true as const, ...(await retryFulfilment(app.db, request.user!.id, request.params.id)) };
    },
  });
};

export default adminOrderRoutes;
