import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AUTH_MESSAGES, deleteAccountRoute } from '../../../shared/schemas/auth.ts';
import { ensureUserRoute, updateChannelRoute } from '../../../shared/schemas/studio.ts';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import { AppError } from '../../platform/http/errors.ts';
import { adminDeletionLog, deleteAccount, renameChannel } from './service.ts';
import { CACHE_NAMESPACES } from '../../platform/cache/read-cache.ts';

const users: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    ...deleteAccountRoute,
    handler: async (request, reply) => {
      const actor = request.user!;
      const { id } = request.params;
      const self = actor.id === id;
      if (!self && !actor.is_admin) throw new AppError(403, ERROR_CODES.FORBIDDEN, AUTH_MESSAGES.accessDenied);
      await deleteAccount(app.db, app.storage, id, self ? {} : adminDeletionLog(actor.id, id));
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
      await renameChannel(app.db, request.user!.id, slug);
      app.readCache.invalidate(CACHE_NAMESPACES.feed);
      app.readCache.invalidate(CACHE_NAMESPACES.creators);
      return { success: true as const, channel_slug: slug, channel_url: `${app.config.publicUrl}/channel/${slug}` };
    },
  });
};

export default users;
