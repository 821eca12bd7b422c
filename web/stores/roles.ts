import type { SessionUser } from '../../shared/schemas/auth.ts';

/**
 * Creators (and admins) use the studio: upload, dashboard, their own videos. The server
 * enforces the same rule (`access: 'creator'`); this only decides what the page shows.
 */
export function isCreator(user: Pick<SessionUser, 'role' | 'is_admin'> | null): boolean {
  return user !== null && (user.role === 'creator' || user.is_admin);
}
