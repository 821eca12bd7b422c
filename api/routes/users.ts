import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AUTH_MESSAGES, deleteAccountRoute } from '../../shared/schemas/auth.ts';
import { ERROR_CODES } from '../../shared/schemas/common.ts';
import { AppError } from '../errors.ts';
import { deleteAccount } from '../services/accounts.ts';
import { CACHE_NAMESPACES } from '../services/read-cache.ts';

const users: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    ...deleteAccountRoute,
    handler: async (request, reply) => {
      const actor = request.user!;
      const { id } = request.params;
      const self = actor.id === id;
      if (!self && !actor.is_admin) throw new AppError(403, ERROR_CODES.FORBIDDEN, AUTH_MESSAGES.accessDenied);
      const { filesRemoved } = await deleteAccount(app.db, app.storage, id);
      if (!self) {
        await app.db
          .insertInto('admin_logs')
          .values({
            admin_user_id: actor.id,
            action_type: 'delete_user',
            target_type: 'user',
            target_id: id,
            details: JSON.stringify({ files_removed: filesRemoved }),
          })
          .execute();
      }
      app.readCache.invalidate(CACHE_NAMESPACES.feed);
      app.readCache.invalidate(CACHE_NAMESPACES.creators);
      if (self) app.clearSessionCookie(reply);
      return { success: true as const, message: AUTH_MESSAGES.accountDeleted };
    },
  });
};

export default users;
