/** The settings module as others see it: its routes and the typed settings' readers. */
export { default as settingsRoutes } from './routes.ts';
export { maintenanceBanner, moderationRequired, readSetting, readSystemSettings } from './service.ts';
