/**
 * One address for the site: a page or read (GET, HEAD) that arrives by any other host than
 * PUBLIC_URL's (127.0.0.1 for localhost, a bare IP, an old domain) is sent to the same path and
 * query on PUBLIC_URL. Cookies belong to a host name, and the identity provider returns to
 * PUBLIC_URL: a sign-in begun on another host would come back to a browser without its state
 * cookie and fail, and a session made on one host is unknown on the other.
 *
 * Left alone: other methods (a redirect would drop or replay a body; they are checked for
 * their origin instead), requests with no Host header, and the health probe, which load
 * balancers and containers address by the instance's own address.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

const REDIRECTED = new Set(['GET', 'HEAD']);
const HEALTH = '/api/health';

/** The host as a browser would write it for this scheme: lower case, default port dropped. */
function normalHost(host: string, protocol: string): string | null {
  try {
    return new URL(`${protocol}//${host}`).host;
  } catch {
    return null;
  }
}

async function canonicalHost(app: FastifyInstance) {
  const target = new URL(app.config.publicUrl);
  app.addHook('onRequest', async (request, reply) => {
    if (!REDIRECTED.has(request.method)) return;
    const host = request.headers.host;
    if (!host || normalHost(host, target.protocol) === target.host) return;
    const url = request.url;
    if (url === HEALTH || url.startsWith(`${HEALTH}?`)) return;
    // An absolute request target (GET http://elsewhere/...) keeps nothing of its own host.
    const path = url.startsWith('/') ? url : '/';
    // 308 keeps the method, so a HEAD stays a HEAD; browsers follow it like a 301.
    return reply.redirect(`${target.origin}${path}`, 308);
  });
}

export default fp(canonicalHost, { name: 'canonical-host', dependencies: ['context'] });
