import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AUTH_MESSAGES, deleteAccountRoute } from '../../../shared/schemas/auth.ts';
import { ensureUserRoute, updateChannelRoute } from '../../../shared/schemas/studio.ts';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import { AppError } from '../../platform/http/errors.ts';
import { deleteAccount } from './service.ts';
import { CACHE_NAMESPACES } from '../../platform/cache/read-cache.ts';

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

  app.route({
    ...ensureUserRoute,
    // The spec's client sends user_id, email and display_name; only the session says who this is.
    handler: async (request) => ({ success: true as const, user: { id: request.user!.id, email: request.user!.email } }),
  });

  app.route({
    ...updateChannelRoute,
    handler: async (request) => {
      const slug = request.body.channel_slug.trim().toLowerCase();
      if (!/^[a-z0-9]{1,40}$/.test(slug)) throw AppError.badRequest('A channel name has only lowercase letters and digits.');
      try {
        await app.db.updateTable('users').set({ username: slug, updated_at: new Date() }).where('id', '=', request.user!.id).execute();
      } catch (err) {
        if ((err as { code?: string }).code === '23505') throw new AppError(409, ERROR_CODES.CONFLICT, 'This channel name is taken.');
        throw err;
      }
      app.readCache.invalidate(CACHE_NAMESPACES.feed);
      app.readCache.invalidate(CACHE_NAMESPACES.creators);
      return { success: true as const, channel_slug: slug, channel_url: `${app.config.publicUrl}/channel/${slug}` };
    },
  });
};

export default users;
