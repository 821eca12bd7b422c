import type { AuthStatus, SessionUser } from '../../stores/useAuth.ts';
import { isApiError } from '../../lib/ApiError.ts';

/** The portal's tabs, in order (spec section 2's five, then orders, payouts and the log). */
export const ADMIN_TABS = [
  { id: 'dashboard', label: 'Dashboard' },
  { id: 'users', label: 'User Management' },
  { id: 'moderation', label: 'Content Moderation' },
  { id: 'subscriptions', label: 'Subscriptions' },
  { id: 'orders', label: 'Orders' },
  { id: 'payouts', label: 'Payouts' },
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
