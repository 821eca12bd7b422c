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
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  signupRoute,
  type SessionUser,
} from '../../../shared/schemas/auth.ts';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import { safeReturnPath, withQuery } from '../../../shared/safe-return.ts';
import { isCommonPassword } from './common-passwords.ts';
import { FailureLimiter } from '../../platform/http/rate-limit.ts';
import { createSession, deleteSession, SESSION_COOKIE, toSessionUser } from '../../platform/sessions/sessions.ts';
import { AppError } from '../../platform/http/errors.ts';
import { createUser, findPasswordAccount, SignInRefused, signInWithClaims, storeAuthFlow, takeAuthFlow } from './service.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import users from './users.routes.ts';

const FLOW_COOKIE = 'fm_auth_flow';
const FLOW_MINUTES = 10;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const WINDOW_MS = 15 * 60 * 1000;

function checkEmail(raw: string): string {
  const email = raw.trim();
  if (!email) throw AppError.badRequest(AUTH_MESSAGES.emailRequired);
  if (!EMAIL.test(email)) throw AppError.badRequest(AUTH_MESSAGES.invalidEmail);
  return email;
}

const auth: FastifyPluginAsyncTypebox = async (app) => {
  const perEmail = new FailureLimiter(10, WINDOW_MS);
  const perIp = new FailureLimiter(50, WINDOW_MS);
  // Unknown emails are checked against this hash, so a miss costs as long as a wrong password.
  const decoyHash = await hashPassword(randomBytes(16).toString('hex'));
  const secureCookies = app.config.publicUrl.startsWith('https:');

  async function signIn(request: FastifyRequest, reply: FastifyReply, user: SessionUser) {
    const old = request.cookies[SESSION_COOKIE];
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
      const { password } = request.body;
      if (!password) throw AppError.badRequest(AUTH_MESSAGES.passwordRequired);
      if (password.length < PASSWORD_MIN_LENGTH) throw AppError.badRequest(AUTH_MESSAGES.passwordTooShort);
      if (password.length > PASSWORD_MAX_LENGTH) throw AppError.badRequest(AUTH_MESSAGES.passwordTooLong);
      if (isCommonPassword(password)) throw AppError.badRequest(AUTH_MESSAGES.passwordTooCommon);
      const user = await createUser(app.db, {
        email,
        displayName: email.split('@')[0] ?? email,
        role: 'customer',
        emailVerified: false,
        passwordHash: await hashPassword(password),
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
      if (perEmail.blocked(emailKey) || perIp.blocked(request.ip)) {
        throw new AppError(429, ERROR_CODES.RATE_LIMITED, AUTH_MESSAGES.tooManyAttempts);
      }
      const found = await findPasswordAccount(app.db, email);
      const ok = await verifyPassword(password, found?.password_hash ?? decoyHash);
      if (!found || !found.password_hash || !ok) {
        perEmail.fail(emailKey);
        perIp.fail(request.ip);
        throw new AppError(401, ERROR_CODES.UNAUTHENTICATED, AUTH_MESSAGES.badCredentials);
      }
      if (found.status !== 'active') throw new AppError(403, ERROR_CODES.FORBIDDEN, AUTH_MESSAGES.suspended);
      perEmail.reset(emailKey);
      const user = toSessionUser(found);
      await signIn(request, reply, user);
      return { success: true as const, message: 'Signed in.', user };
    },
  });

  app.route({
    ...meRoute,
    handler: async (request) => ({ success: true as const, user: request.user! }),
  });

  app.route({
    ...logoutRoute,
    handler: async (request, reply) => {
      const token = request.cookies[SESSION_COOKIE];
      if (token) await deleteSession(app.db, token);
      app.clearSessionCookie(reply);
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
      const fail = (message: string) => reply.redirect(withQuery('/', { login: 'error', message }), 302);
      const { state, error, error_description: description } = request.query;
      const binding = request.cookies[FLOW_COOKIE];
      reply.clearCookie(FLOW_COOKIE, { path: '/api/auth/google' });
      if (error) return fail(description || error);
      if (!state || !binding) return fail('This sign-in is not valid any more. Please try again.');
      const flow = await takeAuthFlow(app.db, state, binding);
      if (!flow) return fail('This sign-in is not valid any more. Please try again.');
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
        if (err instanceof SignInRefused) return fail(err.message);
        request.log.warn({ err }, 'sign-in with the identity provider failed');
        return fail('The identity provider did not confirm the sign-in. Please try again.');
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
