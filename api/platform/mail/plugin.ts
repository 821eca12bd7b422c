import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { MailSender, outboxTransport, smtpTransport } from './outbox.ts';

declare module 'fastify' {
  interface FastifyInstance {
    mailSender: MailSender;
  }
}

/** The mail sender runs in the background while the app serves; tests call runOnce(). */
async function mail(app: FastifyInstance) {
  const transport = app.config.smtpUrl ? smtpTransport(app.config.smtpUrl) : outboxTransport;
  const sender = new MailSender(app.db, transport, app.config.mailFrom, (msg, err) => app.log.warn({ err }, msg));
  app.decorate('mailSender', sender);
  if (app.config.env !== 'test') app.addHook('onReady', async () => sender.start());
  app.addHook('onClose', async () => sender.stop());
}

export default fp(mail, { name: 'mail', dependencies: ['context'] });
