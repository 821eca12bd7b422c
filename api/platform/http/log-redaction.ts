/**
 * What the request log may say about a request. URLs carry secrets: the order page's and a mail
 * message's token, sign-in codes and state, the print shop webhook's token, checkout session ids
 * (which open the success page and, through it, the order's link), and addresses and bank
 * numbers typed into forms. Their values are replaced by a mark, so a log can be read or shared without giving
 * access to anyone's order or mail.
 */

/** Query parameters whose value is a secret or an address, whatever the value looks like. */
const SECRET_PARAM = /^(token|code|code_verifier|state|session_id|email|password|secret|signature|key|tax_id)$|_(token|secret)$|^(account|routing)(_?number)?$/i;
/** Checkout session ids, in a path (/pay/{id}, /api/checkout/sessions/{id}) or anywhere else. */
const SESSION_ID = /\bcs_[A-Za-z0-9_]+/g;
export const REDACTED = '[redacted]';

function decode(text: string): string | null {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/** The URL with every secret value replaced by [redacted]; names and other values stay, for reading the log. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = (q === -1 ? url : url.slice(0, q)).replace(SESSION_ID, `cs_${REDACTED}`);
  if (q === -1) return path;
  const pairs = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1) return pair;
      const name = decode(pair.slice(0, eq));
      const value = decode(pair.slice(eq + 1));
      const secret = name === null || value === null || SECRET_PARAM.test(name) || value.includes('@') || /\bcs_/.test(value);
      return secret ? `${pair.slice(0, eq)}=${REDACTED}` : pair;
    });
  return `${path}?${pairs.join('&')}`;
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number } | null;
}

/** The request logger's `req` fields: Fastify's own, with the URL redacted. */
export function requestLogFields(req: LoggedRequest) {
  return {
    method: req.method,
    url: req.url === undefined ? undefined : redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}
