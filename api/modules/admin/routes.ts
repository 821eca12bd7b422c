/**
 * The admin portal's routes (first part): dashboard, users, admin log. HTTP only: the rules and
 * transactions are service.ts's. Every answer is private to the admin who asked and never
 * stored by a cache; a change to a user's status or existence drops the cached feed and
 * creators list, which show active users only.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import {
  activateUserRoute,
  ADMIN_LOG_PAGE_SIZE,
  ADMIN_MESSAGES,
  ADMIN_PAGE_SIZE,
  adminLogsRoute,
  adminUsersRoute,
  dashboardStatsRoute,
  deleteUserRoute,
  suspendUserRoute,
} from '../../../shared/schemas/admin.ts';
import { CACHE_NAMESPACES } from '../../platform/cache/read-cache.ts';
import { activateUser, dashboard, deleteUser, logPage, suspendUser, userPage, type AccountDeleter } from './service.ts';

export interface AdminRoutesOptions {
  /** The accounts module's deleteAccount (see service.ts AccountDeleter). */
  deleteAccount: AccountDeleter;
}

const routes: FastifyPluginAsyncTypebox<AdminRoutesOptions> = async (app, opts) => {
  const noStore = (reply: FastifyReply) => void reply.header('cache-control', 'private, no-store');
  const usersChanged = () => {
    app.readCache.invalidate(CACHE_NAMESPACES.feed);
    app.readCache.invalidate(CACHE_NAMESPACES.creators);
  };

  app.route({
    ...dashboardStatsRoute,
    handler: async (_request, reply) => {
      noStore(reply);
      return { success: true as const, ...(await dashboard(app.db)) };
    },
  });

  app.route({
    ...adminLogsRoute,
    handler: async (request, reply) => {
      noStore(reply);
      return { success: true as const, ...(await logPage(app.db, { ...request.query, limit: request.query.limit ?? ADMIN_LOG_PAGE_SIZE })) };
    },
  });

  app.route({
    ...adminUsersRoute,
    handler: async (request, reply) => {
      noStore(reply);
      return { success: true as const, ...(await userPage(app.db, { ...request.query, limit: request.query.limit ?? ADMIN_PAGE_SIZE })) };
    },
  });

  app.route({
    ...suspendUserRoute,
    handler: async (request, reply) => {
      noStore(reply);
      const user = await suspendUser(app.db, request.user!.id, request.params.id);
      usersChanged();
      return { success: true as const, message: ADMIN_MESSAGES.userSuspended, user };
    },
  });

  app.route({
    ...activateUserRoute,
    handler: async (request, reply) => {
      noStore(reply);
      const user = await activateUser(app.db, request.user!.id, request.params.id);
      usersChanged();
      return { success: true as const, message: ADMIN_MESSAGES.userActivated, user };
    },
  });

  app.route({
    ...deleteUserRoute,
    handler: async (request, reply) => {
      noStore(reply);
      const { filesRemoved } = await deleteUser({ db: app.db, storage: app.storage, deleteAccount: opts.deleteAccount }, request.user!.id, request.params.id, request.body?.confirm === true);
      usersChanged();
      return { success: true as const, message: ADMIN_MESSAGES.userDeleted, files_removed: filesRemoved };
    },
  });
};

export default routes;
