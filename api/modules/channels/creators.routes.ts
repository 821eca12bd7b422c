import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { newestCreatorsRoute } from '../../../shared/schemas/creators.ts';
import { CACHE_NAMESPACES } from '../../platform/cache/read-cache.ts';
import { newestCreators } from './service.ts';

const creators: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    ...newestCreatorsRoute,
    handler: async () => ({
      success: true as const,
      creators: await app.readCache.get(CACHE_NAMESPACES.creators, 'newest', () => newestCreators(app.db)),
    }),
  });
};

export default creators;
