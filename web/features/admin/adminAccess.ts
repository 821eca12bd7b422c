import type { AuthStatus, SessionUser } from '../../stores/useAuth.ts';
import { isApiError } from '../../lib/ApiError.ts';

/**
 * The portal's tabs, in order. Subscriptions (spec section 2), orders and payouts have no admin
 * API yet, so they have no tab yet.
 */
export const ADMIN_TABS = [
  { id: 'dashboard', label: 'Dashboard' },
  { id: 'users', label: 'User Management' },
  { id: 'moderation', label: 'Content Moderation' },
  { id: 'settings', label: 'System Settings' },
  { id: 'logs', label: 'Logs' },
] as const;
export type AdminTabId = (typeof ADMIN_TABS)[number]['id'];

/** The tab named by ?tab=, or the dashboard for none or an unknown one. */
export function tabFromParam(param: string | null): AdminTabId {
  return ADMIN_TABS.find((t) => t.id === param)?.id ?? 'dashboard';
}

/** The search parameters that select a tab: the dashboard is the bare /admin. */
export function tabParams(tab: AdminTabId): Record<string, string> {
  return tab === 'dashboard' ? {} : { tab };
}

/** The tab an arrow, Home or End key moves to (the WAI-ARIA tabs pattern, wrapping), or null. */
export function tabForKey(current: AdminTabId, key: string): AdminTabId | null {
  const index = ADMIN_TABS.findIndex((t) => t.id === current);
  const last = ADMIN_TABS.length - 1;
  const targets: Record<string, number> = {
    ArrowRight: index === last ? 0 : index + 1,
    ArrowLeft: index === 0 ? last : index - 1,
    Home: 0,
    End: last,
  };
  const next = targets[key];
  return next === undefined ? null : ADMIN_TABS[next]!.id;
}

export type AdminAccess = 'loading' | 'signed-out' | 'denied' | 'admin';

/** What /admin shows for the session: the server checks is_admin again on every call. */
export function adminAccess(status: AuthStatus, user: Pick<SessionUser, 'is_admin'> | null): AdminAccess {
  if (status === 'loading' || status === 'pending') return 'loading';
  if (!user) return 'signed-out';
  return user.is_admin ? 'admin' : 'denied';
}

/** The server said this session is not an admin's (403): the page treats it as a non-admin visit. */
export function isForbidden(error: unknown): boolean {
  return isApiError(error) && error.status === 403;
}

/** The server's message for a failed call, else `fallback` (a network failure has our own message). */
export function errorText(error: unknown, fallback: string): string {
  return isApiError(error) ? error.message : fallback;
}
