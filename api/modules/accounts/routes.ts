import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import {
  AUTH_MESSAGES,
  loginRoute,
  logoutRoute,
  meRoute,
  oidcCallbackRoute,
  oidcLoginRoute,
  signupRoute,
  type SessionUser,
  type SignInFailure,
} from '../../../shared/schemas/auth.ts';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import { safeReturnPath, withQuery } from '../../../shared/safe-return.ts';
import { RateLimiter } from '../../platform/http/rate-limit.ts';
import { createSession, deleteSession, toSessionUser } from '../../platform/sessions/sessions.ts';
import { AppError } from '../../platform/http/errors.ts';
import { createUser, findPasswordAccount, SignInRefused, signInWithClaims, storeAuthFlow, takeAuthFlow } from './service.ts';
import { newPasswordProblem } from './password-strength.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import users from './users.routes.ts';

const FLOW_COOKIE = 'fm_auth_flow';
const FLOW_MINUTES = 10;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MINUTE_MS = 60 * 1000;
const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * Sign-in and sign-up limits (README, Accounts). Login counts failures, and a success clears its
 * account's count; sign-up counts every attempt, whatever its answer. Past a limit the answer is
 * 429 with Retry-After. With AUTH_LIMIT_LOOPBACK off, loopback is not held to the per-address
 * limits (development and the browser tests sign up every account from 127.0.0.1); the
 * per-account limits hold for everyone.
 */
const AUTH_LIMITS = {
  login: { perAccount: 10, perAddress: 50, windowMs: 15 * MINUTE_MS },
  signup: { perEmail: 5, perAddress: 20, windowMs: 60 * MINUTE_MS },
} as const;

function checkEmail(raw: string): string {
  const email = raw.trim();
  if (!email) throw AppError.badRequest(AUTH_MESSAGES.emailRequired);
  if (!EMAIL.test(email)) throw AppError.badRequest(AUTH_MESSAGES.invalidEmail);
  return email;
}

const auth: FastifyPluginAsyncTypebox = async (app) => {
  const { login: loginLimits, signup: signupLimits } = AUTH_LIMITS;
  const loginPerAccount = new RateLimiter(app.db, 'login-account', loginLimits.perAccount, loginLimits.windowMs);
  const loginPerIp = new RateLimiter(app.db, 'login-address', loginLimits.perAddress, loginLimits.windowMs);
  const signupPerEmail = new RateLimiter(app.db, 'signup-email', signupLimits.perEmail, signupLimits.windowMs);
  const signupPerIp = new RateLimiter(app.db, 'signup-address', signupLimits.perAddress, signupLimits.windowMs);
  // Unknown emails are checked against this hash, so a miss costs as long as a wrong password.
  const decoyHash = await hashPassword(randomBytes(16).toString('hex'));
  const secureCookies = app.config.publicUrl.startsWith('https:');

  /** The request's address as a per-address limiter's key; null when it is exempt (loopback, if so configured). */
  const addressKey = (request: FastifyRequest): string | null =>
    !app.config.authLimitLoopback && LOOPBACK.has(request.ip) ? null : request.ip;

  /** 429 with Retry-After (whole seconds until every limiter lets the request through) while any key is held. */
  async function refuseWhileLimited(reply: { header: (name: string, value: string) => unknown }, held: Array<[RateLimiter, string | null]>) {
    const waits = await Promise.all(held.map(([limiter, key]) => (key === null ? 0 : limiter.retryAfterSeconds(key))));
    const wait = Math.max(0, ...waits);
    if (wait === 0) return;
    reply.header('retry-after', String(wait));
    throw new AppError(429, ERROR_CODES.RATE_LIMITED, AUTH_MESSAGES.tooManyAttempts);
  }

  async function signIn(request: FastifyRequest, reply: FastifyReply, user: SessionUser) {
    const old = app.sessionToken(request);
    if (old) await deleteSession(app.db, old);
    const { token, expiresAt } = await createSession(app.db, user.id, app.config.sessionDays, {
      userAgent: request.headers['user-agent'],
      ip: request.ip,
    });
    app.setSessionCookie(reply, token, expiresAt);
  }

  app.route({
    ...signupRoute,
    handler: async (request, reply) => {
      const email = checkEmail(request.body.email);
      const emailKey = email.toLowerCase();
      const address = addressKey(request);
      await refuseWhileLimited(reply, [[signupPerEmail, emailKey], [signupPerIp, address]]);
      await Promise.all([signupPerEmail.fail(emailKey), address !== null && signupPerIp.fail(address)]);
      const { password } = request.body;
      if (!password) throw AppError.badRequest(AUTH_MESSAGES.passwordRequired);
      const problem = await newPasswordProblem(password, email);
      if (problem) throw AppError.badRequest(problem);
      // Hashed before the email is looked up, so an email already registered (409) costs the
      // same scrypt as a new one and the time of the answer does not tell them apart.
      const passwordHash = await hashPassword(password);
      const user = await createUser(app.db, {
        email,
        displayName: email.split('@')[0] ?? email,
        role: 'customer',
        emailVerified: false,
        passwordHash,
      });
      await signIn(request, reply, user);
      return reply.code(201).send({ success: true as const, message: 'Account created.', user });
    },
  });

  app.route({
    ...loginRoute,
    handler: async (request, reply) => {
      const email = checkEmail(request.body.email);
      const { password } = request.body;
      if (!password) throw AppError.badRequest(AUTH_MESSAGES.passwordRequired);
      const emailKey = email.toLowerCase();
      const address = addressKey(request);
      await refuseWhileLimited(reply, [[loginPerAccount, emailKey], [loginPerIp, address]]);
      const found = await findPasswordAccount(app.db, email);
      const ok = await verifyPassword(password, found?.password_hash ?? decoyHash);
      if (!found || !found.password_hash || !ok) {
        await Promise.all([loginPerAccount.fail(emailKey), address !== null && loginPerIp.fail(address)]);
        throw new AppError(401, ERROR_CODES.UNAUTHENTICATED, AUTH_MESSAGES.badCredentials);
      }
      if (found.status !== 'active') throw new AppError(403, ERROR_CODES.FORBIDDEN, AUTH_MESSAGES.suspended);
      await loginPerAccount.reset(emailKey);
      const user = toSessionUser(found);
      await signIn(request, reply, user);
      return { success: true as const, message: 'Signed in.', user };
    },
  });

  app.route({
    ...meRoute,
    // Signed out is an answer, not an error (no 401 on every page a visitor opens); a session
    // that ran out is still told apart, so the app can ask the visitor to sign in again.
    handler: async (request) => {
      if (!request.user && request.sessionExpired) throw new AppError(401, ERROR_CODES.SESSION_EXPIRED, AUTH_MESSAGES.sessionExpired);
      return { success: true as const, user: request.user };
    },
  });

  app.route({
    ...logoutRoute,
    handler: async (request, reply) => {
      const token = app.sessionToken(request);
      if (token) await deleteSession(app.db, token);
      app.clearSessionCookie(reply);
      // On a shared computer the next person must not be signed back in by the provider.
      await app.endIdentitySession(request, reply);
      return { success: true as const };
    },
  });

  app.route({
    ...oidcLoginRoute,
    handler: async (request, reply) => {
      const returnPath = safeReturnPath(request.query.return_url);
      let flow;
      try {
        flow = await app.oidc.start();
      } catch (err) {
        request.log.error({ err }, 'identity provider unreachable');
        throw new AppError(503, ERROR_CODES.SERVICE_UNAVAILABLE, 'Sign-in is not available right now. Please try again later.');
      }
      const binding = randomBytes(32).toString('base64url');
      await storeAuthFlow(app.db, {
        state: flow.state,
        binding,
        nonce: flow.nonce,
        codeVerifier: flow.codeVerifier,
        returnPath,
        expiresAt: new Date(Date.now() + FLOW_MINUTES * 60_000),
      });
      reply.setCookie(FLOW_COOKIE, binding, {
        path: '/api/auth/google',
        httpOnly: true,
        sameSite: 'lax',
        secure: secureCookies,
        maxAge: FLOW_MINUTES * 60,
      });
      return reply.redirect(flow.url, 302);
    },
  });

  app.route({
    ...oidcCallbackRoute,
    handler: async (request, reply) => {
      const fail = (reason: SignInFailure) => reply.redirect(withQuery('/', { login: 'error', reason }), 302);
      // The same return arriving twice (a reload, a browser or proxy repeating the request) finds
      // its state taken or its code spent. A browser that holds a valid session is signed in,
      // so it is not told that the sign-in failed.
      const spent = (reason: SignInFailure, returnPath = '/') =>
        request.user ? reply.redirect(withQuery(returnPath, { login: 'success' }), 302) : fail(reason);
      const { state, error, error_description: description } = request.query;
      const binding = request.cookies[FLOW_COOKIE];
      // The flow cookie keeps its name and path: a __Host- name would need Path=/, sending the
      // binding with every request of the site instead of only to /api/auth/google.
      reply.clearCookie(FLOW_COOKIE, { path: '/api/auth/google' });
      if (error) {
        // The provider's own words stay in the log: the page shows only the app's (SIGN_IN_FAILURES).
        request.log.info({ error, description }, 'the identity provider refused the sign-in');
        return fail(error === 'access_denied' ? 'cancelled' : 'provider');
      }
      if (!state || !binding) return spent('expired');
      const flow = await takeAuthFlow(app.db, state, binding);
      if (!flow) return spent('expired');
      try {
        const claims = await app.oidc.finish(new URL(request.url, app.config.publicUrl), {
          state: flow.state,
          nonce: flow.nonce,
          codeVerifier: flow.code_verifier,
        });
        const user = await signInWithClaims(app.db, claims);
        await signIn(request, reply, user);
        app.readCache.invalidate('creators');
        return reply.redirect(withQuery(flow.return_path, { login: 'success' }), 302);
      } catch (err) {
        if (err instanceof SignInRefused) return fail(err.reason);
        request.log.warn({ err }, 'sign-in with the identity provider failed');
        // invalid_grant: the provider's word for a code already exchanged (RFC 6749, 5.2).
        return (err as { error?: unknown }).error === 'invalid_grant' ? spent('unconfirmed', flow.return_path) : fail('unconfirmed');
      }
    },
  });
};

/** The module's routes: signing up and in, and the account itself. */
const accountModule: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(auth);
  await app.register(users);
};

export default accountModule;
