import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SIDEBAR_CREATOR_COUNT } from '../../shared/constants.ts';
import { newestCreatorsRoute } from '../../shared/schemas/creators.ts';
import { listNewestCreators } from '../db/repositories/users.ts';

const creators: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    ...newestCreatorsRoute,
    handler: async () => ({ success: true as const, creators: await listNewestCreators(app.db, SIDEBAR_CREATOR_COUNT) }),
  });
};

export default creators;
