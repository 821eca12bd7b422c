/** The real transport: hands each message to the SMTP server named by SMTP_URL. */
import nodemailer from 'nodemailer';
import type { MailTransport } from '../../platform/mail/outbox.ts';

export function smtpTransport(url: string): MailTransport {
  const transport = nodemailer.createTransport(url);
  return {
    kind: 'smtp',
    deliver: async (m) => {
      await transport.sendMail(m);
    },
  };
}
