import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { MailSender, type MailTransport } from './outbox.ts';

declare module 'fastify' {
  interface FastifyInstance {
    mailSender: MailSender;
  }
}

/**
 * The mail sender runs in the background while the app serves, unless app.background.mail is
 * off (tests call runOnce()). The transport is chosen at start-up (integrations/smtp).
 */
async function mail(app: FastifyInstance, opts: { transport: MailTransport }) {
  const sender = new MailSender(app.db, opts.transport, app.config.mailFrom, (msg, err) => app.log.warn({ err }, msg));
  app.decorate('mailSender', sender);
  if (app.background.mail) app.addHook('onReady', async () => sender.start());
  app.addHook('onClose', async () => sender.stop());
}

export default fp(mail, { name: 'mail', dependencies: ['context'] });
