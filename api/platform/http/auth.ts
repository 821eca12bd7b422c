/**
 * Identity on every request: the session cookie becomes request.user; state-changing requests
 * that carry a session must come from this site; and every route's declared access (public,
 * user, creator, admin) is enforced before its handler runs.
 */
import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AUTH_MESSAGES, type SessionUser } from '../../../shared/schemas/auth.ts';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import type { Access } from '../../../shared/schemas/route.ts';
import { findSession, sessionCookieName } from '../sessions/sessions.ts';
import { AppError } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
    sessionExpired: boolean;
  }
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyInstance {
    setSessionCookie(reply: FastifyReply, token: string, expiresAt: Date): void;
    clearSessionCookie(reply: FastifyReply): void;
    /** The session token this request carries, under the cookie name this site uses. */
    sessionToken(request: FastifyRequest): string | undefined;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** True when the request comes from a page of this site (Origin, else Sec-Fetch-Site, else Referer). */
export function fromThisSite(request: FastifyRequest, publicOrigin: string): boolean {
  const host = request.headers.host;
  const allowed = (origin: string) => {
    if (origin === publicOrigin) return true;
    try {
      const u = new URL(origin);
      return (u.protocol === 'http:' || u.protocol === 'https:') && u.host === host;
    } catch {
      return false;
    }
  };
  const origin = request.headers.origin;
  if (origin !== undefined) return origin !== 'null' && allowed(origin);
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin' || site === 'none';
  const referer = request.headers.referer;
  if (typeof referer === 'string') {
    try {
      return allowed(new URL(referer).origin);
    } catch {
      return false;
    }
  }
  return false;
}

export function requireAccess(access: Access, request: FastifyRequest): void {
  if (access === 'public') return;
  const user = request.user;
  if (!user) {
    throw request.sessionExpired
      ? new AppError(401, ERROR_CODES.SESSION_EXPIRED, AUTH_MESSAGES.sessionExpired)
      : new AppError(401, ERROR_CODES.UNAUTHENTICATED, access === 'admin' ? AUTH_MESSAGES.notAuthenticated : AUTH_MESSAGES.signInRequired);
  }
  if (access === 'admin' && !user.is_admin) throw new AppError(403, ERROR_CODES.FORBIDDEN, AUTH_MESSAGES.adminRequired);
  if (access === 'creator' && user.role !== 'creator' && !user.is_admin) {
    throw new AppError(403, ERROR_CODES.FORBIDDEN, AUTH_MESSAGES.accessDenied);
  }
}

async function auth(app: FastifyInstance) {
  await app.register(cookie);
  // Served over https the cookie is Secure and named __Host-fm_session (Path=/, no Domain), so
  // no other host or plain-http page can plant or shadow it. On plain http (a local run) it
  // stays fm_session without Secure: browsers drop Secure and __Host- cookies there.
  const secure = app.config.publicUrl.startsWith('https:');
  const cookieName = sessionCookieName(secure);
  const publicOrigin = new URL(app.config.publicUrl).origin;

  app.decorateRequest('user', null);
  app.decorateRequest('sessionExpired', false);
  app.decorate('setSessionCookie', (reply: FastifyReply, token: string, expiresAt: Date) => {
    reply.setCookie(cookieName, token, { path: '/', httpOnly: true, sameSite: 'lax', secure, expires: expiresAt });
  });
  app.decorate('clearSessionCookie', (reply: FastifyReply) => {
    reply.clearCookie(cookieName, { path: '/', httpOnly: true, sameSite: 'lax', secure });
  });
  app.decorate('sessionToken', (request: FastifyRequest) => request.cookies[cookieName]);

  // Every API route says who may call it; a route that does not is a mistake caught at start.
  app.addHook('onRoute', (route) => {
    const declared = (route as { access?: Access }).access;
    const url = route.url ?? '';
    if (declared) route.config = { ...(route.config as object), access: declared };
    else if (url.startsWith('/api/') && !url.startsWith('/api/docs')) {
      throw new Error(`Route ${route.method} ${url} does not declare its access`);
    }
  });

  app.addHook('onRequest', async (request, reply) => {
    const url = request.url;
    if (!url.startsWith('/api/') && !url.startsWith('/oidc')) return;
    const token = request.cookies[cookieName];
    if (!SAFE_METHODS.has(request.method) && url.startsWith('/api/')) {
      // With a session cookie the request must come from this site; without one, a browser
      // that says where it comes from must say this site (no sign-in forced from elsewhere).
      const ok = token || request.headers.origin !== undefined ? fromThisSite(request, publicOrigin) : true;
      if (!ok) throw new AppError(403, ERROR_CODES.FORBIDDEN, AUTH_MESSAGES.crossSite);
    }
    if (!token) return;
    const session = await findSession(app.db, token);
    if (session.kind === 'active') request.user = session.user;
    else {
      request.sessionExpired = session.kind === 'expired';
      app.clearSessionCookie(reply);
    }
  });

  app.addHook('preHandler', async (request) => {
    requireAccess(request.routeOptions.config.access ?? 'public', request);
  });
}

export default fp(auth, { name: 'auth', dependencies: ['context'] });
