/** Addresses of pages, built in one place so links and routes agree. */
import { safeReturnPath, withQuery } from '../../shared/safe-return.ts';

export function videoPath(categoryId: number, videoId: string): string {
  return `/video/${categoryId}/${encodeURIComponent(videoId)}`;
}

export function profilePath(username: string): string {
  return `/profile/${encodeURIComponent(username)}`;
}

export function channelPath(slug: string): string {
  return `/channel/${encodeURIComponent(slug)}`;
}

/** The sign-in pages; both are the same screen (spec section 2). */
export type AuthPagePath = '/login' | '/signup';

export function isAuthPage(pathname: string): pathname is AuthPagePath {
  return pathname === '/login' || pathname === '/signup';
}

/** Parameters a sign-in return leaves on a page; never carried into a return address. */
const SIGN_IN_PARAMS = ['login', 'reason', 'clear'];

/**
 * Where to come back to after signing in from this page: the page itself (path and query),
 * or, on a sign-in page, the address it was opened for.
 */
export function returnPathOf(location: { pathname: string; search: string }): string {
  const params = new URLSearchParams(location.search);
  if (isAuthPage(location.pathname)) return safeReturnPath(params.get('returnTo'));
  for (const name of SIGN_IN_PARAMS) params.delete(name);
  const query = params.toString();
  return safeReturnPath(location.pathname + (query ? `?${query}` : ''));
}

/** /login or /signup, coming back to `returnTo` (left out when it is the home page). */
export function authPagePath(page: AuthPagePath, returnTo: string, status?: 'session_expired'): string {
  const params: Record<string, string> = {};
  if (status) params.status = status;
  const target = safeReturnPath(returnTo);
  if (target !== '/') params.returnTo = target;
  return withQuery(page, params);
}
