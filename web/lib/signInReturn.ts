/**
 * The query parameters a page can be opened with after signing in (spec section 4,
 * "Sign-in return"): login=success|error (with the reason's code), and clear=true. Pure, so it
 * is tested without a browser; web/app/authStartup.ts acts on the result.
 */
import { SIGN_IN_FAILURES } from '../../shared/schemas/auth.ts';

/** Keys older clients kept in storage; never read for identity, only wiped (clear=true, logout). */
export const LEGACY_AUTH_KEYS = [
  'user_authenticated',
  'isAuthenticated',
  'google_user',
  'auth_user',
  'auth_token',
  'oauth_pending',
] as const;

const UNKNOWN_LOGIN_ERROR = 'An unknown error occurred. Please try again.';

export type SignInReturn =
  | { login: null; clear: boolean }
  /** The server signed the visitor in; confirm with /api/auth/me, then drop `login`. */
  | { login: 'success'; clear: boolean }
  /** Show `alertText`, then go home. */
  | { login: 'error'; clear: boolean; alertText: string };

export function readSignInReturn(search: string): SignInReturn {
  const params = new URLSearchParams(search);
  const clear = params.get('clear') === 'true';
  const login = params.get('login');
  if (login === 'success') return { login, clear };
  if (login === 'error') {
    // Only the app's own words, by code: text a link carries is never shown as the site's.
    const reason = params.get('reason') ?? '';
    const message = Object.hasOwn(SIGN_IN_FAILURES, reason) ? SIGN_IN_FAILURES[reason as keyof typeof SIGN_IN_FAILURES] : UNKNOWN_LOGIN_ERROR;
    return { login, clear, alertText: `Login failed: ${message}` };
  }
  return { login: null, clear };
}

/** `search` without the named parameters, as "" or "?a=b". */
export function withoutParams(search: string, names: readonly string[]): string {
  const params = new URLSearchParams(search);
  for (const name of names) params.delete(name);
  const rest = params.toString();
  return rest ? `?${rest}` : '';
}

/** Whether any of the named parameters is present in `search`. */
export function hasAnyParam(search: string, names: readonly string[]): boolean {
  const params = new URLSearchParams(search);
  return names.some((name) => params.has(name));
}
