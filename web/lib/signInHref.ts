const GOOGLE_LOGIN_PATH = '/api/auth/google/login';

/** The full-page sign-in address; the identity provider sends the user back to `returnTo`. */
export function signInHref(returnTo: string): string {
  const target = returnTo.startsWith('/') && !returnTo.startsWith('//') ? returnTo : '/';
  return `${GOOGLE_LOGIN_PATH}?return_url=${encodeURIComponent(target)}`;
}
