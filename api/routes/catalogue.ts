import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { catalogueRoute } from '../../shared/schemas/catalogue.ts';
import { toCatalogueReply } from '../services/catalogue.ts';

const catalogue: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    ...catalogueRoute,
    handler: async (request) => {
      const { category } = request.query;
      const products = app.catalogue.products.filter((p) => !category || p.category === category);
      return { success: true as const, products: products.map(toCatalogueReply) };
    },
  });
};

export default catalogue;
