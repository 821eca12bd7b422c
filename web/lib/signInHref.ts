import { safeReturnPath } from '../../shared/safe-return.ts';
import { oidcLoginRoute } from '../../shared/schemas/auth.ts';
import { buildUrl } from './api.ts';

/**
 * The full-page sign-in address (Google, or the embedded identity provider); the server
 * sends the visitor back to `returnTo` with login=success.
 */
export function signInHref(returnTo: string): string {
  return buildUrl(oidcLoginRoute.url, undefined, { return_url: safeReturnPath(returnTo) });
}
