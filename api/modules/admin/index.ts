/** The admin module as others see it: the admin log every admin action writes. */
export { recordAdminAction, type AdminAction, type AdminTargetType } from './repository.ts';
