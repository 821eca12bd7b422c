/**
 * The embedded transport: nothing leaves the machine. The outbox row the sender marks sent is
 * the delivered message, readable at /dev/mail.
 */
import type { MailTransport } from '../../platform/mail/outbox.ts';

export const outboxTransport: MailTransport = { kind: 'outbox', deliver: async () => {} };
