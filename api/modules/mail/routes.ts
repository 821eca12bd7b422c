import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AUTH_MESSAGES, subscriptionEmailRoute, welcomeEmailRoute } from '../../../shared/schemas/auth.ts';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import { devMailMessageRoute, devMailRoute, MAIL_MESSAGES } from '../../../shared/schemas/mail.ts';
import { approveSubscriptionRoute, SUBSCRIPTION_MESSAGES } from '../../../shared/schemas/subscriptions.ts';
import { RateLimiter } from '../../platform/http/rate-limit.ts';
import { AppError } from '../../platform/http/errors.ts';
import { mailService } from './service.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const HOUR = 3600 * 1000;
/** Refused approval links one address may present in an hour before it is answered 429. */
const APPROVAL_FAILURES_PER_HOUR = 20;

const mail: FastifyPluginAsyncTypebox = async (app) => {
  // Mail goes to addresses a visitor types: limit how much one address of ours can be made to send.
  const perIp = new RateLimiter(app.db, 'mail', 10, HOUR);
  // Approval links that fail, counted per address: tokens cannot be guessed, but nobody gets to try many.
  const approvalFailures = new RateLimiter(app.db, 'subscription-approval', APPROVAL_FAILURES_PER_HOUR, HOUR);
  const service = await mailService({ db: app.db, publicUrl: app.config.publicUrl, now: () => app.clock.now() });
  // With the embedded mailer no mail leaves the machine, so the browser that asked for a message
  // is handed its secret link; with an SMTP server the message goes to the inbox alone.
  const embedded = !app.config.smtpUrl;

  async function accept(ip: string, raw: string): Promise<string> {
    const email = raw.trim();
    if (!EMAIL.test(email)) throw AppError.badRequest(AUTH_MESSAGES.invalidEmail);
    if (!(await perIp.take(ip))) throw new AppError(429, ERROR_CODES.RATE_LIMITED, 'Too many emails requested. Please try again later.');
    return email;
  }

  /** Only a message this request queued: a repeat finds none, so nobody gets the link of a message someone else asked for. */
  const linkFor = (id: string | null) => (embedded && id ? { mail_link: service.messageLink(id) } : {});

  app.route({
    ...welcomeEmailRoute,
    handler: async (request, reply) => {
      const id = await service.sendWelcome(await accept(request.ip, request.body.email));
      return reply.code(202).send({ success: true as const, message: 'Welcome email sent.', ...linkFor(id) });
    },
  });

  app.route({
    ...subscriptionEmailRoute,
    handler: async (request, reply) => {
      const id = await service.sendSubscriptionApproval(await accept(request.ip, request.body.email));
      return reply.code(202).send({ success: true as const, message: 'Approval link sent. Please check your email.', ...linkFor(id) });
    },
  });

  // One answer for every refused link (missing, malformed, forged, another address's, used,
  // expired), so a link cannot be probed: a body the schema refuses reaches the handler too
  // (attachValidation) and gets the same 400. The body is never logged (only the refusal's message).
  app.route({
    ...approveSubscriptionRoute,
    attachValidation: true,
    handler: async (request, reply) => {
      const wait = await approvalFailures.retryAfterSeconds(request.ip);
      if (wait > 0) {
        void reply.header('retry-after', String(wait));
        throw new AppError(429, ERROR_CODES.RATE_LIMITED, SUBSCRIPTION_MESSAGES.approvalTooManyAttempts);
      }
      const body: unknown = request.validationError ? null : request.body;
      const { email, token } = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
      if (!(await service.approveSubscription(email, token))) {
        await approvalFailures.fail(request.ip);
        throw AppError.badRequest(SUBSCRIPTION_MESSAGES.approvalInvalid);
      }
      return { success: true as const, message: SUBSCRIPTION_MESSAGES.approvedMessage };
    },
  });

  // The outbox holds buyers' names, addresses and order links: admins only (the route's access).
  app.route({
    ...devMailRoute,
    handler: async () => {
      await app.mailSender.runOnce();
      return { success: true as const, messages: await service.outbox() };
    },
  });

  // A wrong token and a missing message answer alike, so a link cannot be probed for.
  app.route({
    ...devMailMessageRoute,
    handler: async (request) => {
      const { id } = request.params;
      if (!service.linkOpens(id, request.query.token)) throw AppError.notFound(MAIL_MESSAGES.messageNotFound);
      await app.mailSender.runOnce();
      const message = await service.message(id);
      if (!message) throw AppError.notFound(MAIL_MESSAGES.messageNotFound);
      return { success: true as const, message };
    },
  });
};

export default mail;
