/** Outgoing mail's transport: an SMTP server when SMTP_URL is set, else the embedded outbox. */
import type { Config } from '../../platform/config/config.ts';
import type { MailTransport } from '../../platform/mail/outbox.ts';
import { outboxTransport } from './embedded.ts';
import { smtpTransport } from './smtp.ts';

export function openMailTransport(config: Pick<Config, 'smtpUrl'>): MailTransport {
  return config.smtpUrl ? smtpTransport(config.smtpUrl) : outboxTransport;
}
