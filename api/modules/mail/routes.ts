import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AUTH_MESSAGES, devMailRoute, subscriptionEmailRoute, welcomeEmailRoute } from '../../../shared/schemas/auth.ts';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import { FailureLimiter } from '../../platform/http/rate-limit.ts';
import { AppError } from '../../platform/http/errors.ts';
import { requireAccess } from '../../platform/http/auth.ts';
import { mailService } from './service.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const HOUR = 3600 * 1000;

const mail: FastifyPluginAsyncTypebox = async (app) => {
  // Mail goes to addresses a visitor types: limit how much one address of ours can be made to send.
  const perIp = new FailureLimiter(10, HOUR);
  const service = await mailService({ db: app.db, publicUrl: app.config.publicUrl });

  function accept(ip: string, raw: string): string {
    const email = raw.trim();
    if (!EMAIL.test(email)) throw AppError.badRequest(AUTH_MESSAGES.invalidEmail);
    if (perIp.blocked(ip)) throw new AppError(429, ERROR_CODES.RATE_LIMITED, 'Too many emails requested. Please try again later.');
    perIp.fail(ip);
    return email;
  }

  app.route({
    ...welcomeEmailRoute,
    handler: async (request, reply) => {
      await service.sendWelcome(accept(request.ip, request.body.email));
      return reply.code(202).send({ success: true as const, message: 'Welcome email sent.' });
    },
  });

  app.route({
    ...subscriptionEmailRoute,
    handler: async (request, reply) => {
      await service.sendSubscriptionApproval(accept(request.ip, request.body.email));
      return reply.code(202).send({ success: true as const, message: 'Approval link sent. Please check your email.' });
    },
  });

  app.route({
    ...devMailRoute,
    handler: async (request) => {
      // With a real SMTP server the outbox holds real people's mail: admins only.
      if (app.config.smtpUrl) requireAccess('admin', request);
      await app.mailSender.runOnce();
      return { success: true as const, messages: await service.outbox() };
    },
  });
};

export default mail;
