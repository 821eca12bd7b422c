import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AUTH_MESSAGES, devMailRoute, subscriptionEmailRoute, welcomeEmailRoute } from '../../../shared/schemas/auth.ts';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import { FailureLimiter } from '../../platform/http/rate-limit.ts';
import { ensureSetting } from '../../platform/settings/repository.ts';
import { AppError } from '../../platform/http/errors.ts';
import { queueMail } from '../../platform/mail/outbox.ts';
import { requireAccess } from '../../platform/http/auth.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const HOUR = 3600 * 1000;

const mail: FastifyPluginAsyncTypebox = async (app) => {
  // Mail goes to addresses a visitor types: limit how much one address of ours can be made to send.
  const perIp = new FailureLimiter(10, HOUR);
  const { key: approvalKey } = await ensureSetting(app.db, 'mail.approval_key', () => ({ key: randomBytes(32).toString('base64url') }));

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
      const email = accept(request.ip, request.body.email);
      await queueMail(app.db, {
        to: email,
        template: 'welcome',
        subject: 'Welcome to FrameMerch',
        text: `Welcome to FrameMerch!\n\nUpload your videos, and your viewers can turn any frame into merch. You earn 70% of the margin on every item, paid monthly.\n\n${app.config.publicUrl}/\n`,
        dedupeKey: `welcome:${email.toLowerCase()}`,
      });
      return reply.code(202).send({ success: true as const, message: 'Welcome email sent.' });
    },
  });

  app.route({
    ...subscriptionEmailRoute,
    handler: async (request, reply) => {
      const email = accept(request.ip, request.body.email);
      const token = createHmac('sha256', approvalKey).update(email.toLowerCase()).digest('base64url');
      const link = `${app.config.publicUrl}/approve-subscription?email=${encodeURIComponent(email)}&token=${token}`;
      const day = new Date().toISOString().slice(0, 10);
      await queueMail(app.db, {
        to: email,
        template: 'subscription_approval',
        subject: 'Confirm your FrameMerch subscription',
        text: `Please confirm that you want FrameMerch updates at this address:\n\n${link}\n\nIf you did not ask for this, ignore this email.\n`,
        dedupeKey: `subscription:${email.toLowerCase()}:${day}`,
      });
      return reply.code(202).send({ success: true as const, message: 'Approval link sent. Please check your email.' });
    },
  });

  app.route({
    ...devMailRoute,
    handler: async (request) => {
      // With a real SMTP server the outbox holds real people's mail: admins only.
      if (app.config.smtpUrl) requireAccess('admin', request);
      await app.mailSender.runOnce();
      const rows = await app.db
        .selectFrom('email_outbox')
        .select(['id', 'to_address', 'subject', 'payload', 'status', 'created_at', 'sent_at'])
        .orderBy('created_at', 'desc')
        .limit(50)
        .execute();
      return {
        success: true as const,
        messages: rows.map((r) => ({
          id: r.id,
          to: r.to_address,
          subject: r.subject,
          text: String((r.payload as { text?: string }).text ?? ''),
          status: r.status,
          created_at: r.created_at.toISOString(),
          sent_at: r.sent_at ? r.sent_at.toISOString() : null,
        })),
      };
    },
  });
};

export default mail;
