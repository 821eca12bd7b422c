import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SIDEBAR_CREATOR_COUNT } from '../../../shared/constants.ts';
import { newestCreatorsRoute } from '../../../shared/schemas/creators.ts';
import { listNewestCreators } from '../accounts/repository.ts';
import { CACHE_NAMESPACES } from '../../platform/cache/read-cache.ts';

const creators: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    ...newestCreatorsRoute,
    handler: async () => ({
      success: true as const,
      creators: await app.readCache.get(CACHE_NAMESPACES.creators, 'newest', () =>
        listNewestCreators(app.db, SIDEBAR_CREATOR_COUNT),
      ),
    }),
  });
};

export default creators;
