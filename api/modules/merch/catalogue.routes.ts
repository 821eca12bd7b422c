import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { catalogueRoute } from '../../../shared/schemas/catalogue.ts';
import { catalogueReplies } from './catalogue.ts';

const catalogue: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    ...catalogueRoute,
    handler: async (request) => {
      return { success: true as const, products: catalogueReplies(app.catalogue, request.query.category ?? null) };
    },
  });
};

export default catalogue;
