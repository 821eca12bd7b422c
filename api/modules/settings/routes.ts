import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { adminSettingsRoute, publicSettingsRoute, updateAdminSettingRoute } from '../../../shared/schemas/moderation.ts';
import { maintenanceBanner, readSystemSettings, saveSetting } from './service.ts';

/** The admin's system settings, and the one anyone may read (the maintenance banner). */
const settingsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    ...adminSettingsRoute,
    handler: async () => ({ success: true as const, settings: await readSystemSettings(app.db) }),
  });

  app.route({
    ...updateAdminSettingRoute,
    handler: async (request) => ({
      success: true as const,
      settings: await saveSetting(app.db, request.user!.id, request.params.key, request.body.value),
    }),
  });

  app.route({
    ...publicSettingsRoute,
    handler: async () => ({ success: true as const, maintenance_banner: await maintenanceBanner(app.db) }),
  });
};

export default settingsRoutes;
