/**
 * The admin module as others see it: the admin log every admin action writes
 * (recordAdminAction, with the action's transaction) and the admin portal's routes (the
 * composition root registers them with the accounts module's deleteAccount).
 */
export { recordAdminAction, type AdminAction, type AdminTargetType } from './repository.ts';
export { default as adminRoutes, type AdminPluginOptions } from './plugin.ts';
export type { AccountDeleter } from './service.ts';
