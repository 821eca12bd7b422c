/**
 * Where to send a person after sign-in: only a path on this site. Anything that could leave
 * the site (protocol-relative `//host`, `/\host`, `https:host`, `javascript:`, control
 * characters, encoded slashes and backslashes that a browser or proxy may decode) becomes "/".
 */
const BASE = 'http://framemerch.invalid';

export function safeReturnPath(value: unknown): string {
  if (typeof value !== 'string' || value === '' || value.length > 2000) return '/';
  // Look at the value as given and as a decoding step (or two) would leave it.
  let probe = value;
  for (let i = 0; i < 3; i++) {
    if (!probe.startsWith('/') || probe.startsWith('//') || probe.includes('\\')) return '/';
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(probe)) return '/';
    if (/^\/[^/?#]*:/.test(probe) && !/^\/[^/?#]*\//.test(probe)) return '/';
    let decoded: string;
    try {
      decoded = decodeURIComponent(probe);
    } catch {
      return '/';
    }
    if (decoded === probe) break;
    probe = decoded;
  }
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return '/';
  }
  if (url.origin !== BASE) return '/';
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Adds query parameters to a site path, keeping its own query and fragment. */
export function withQuery(path: string, params: Record<string, string>): string {
  const url = new URL(path, BASE);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return `${url.pathname}${url.search}${url.hash}`;
}
