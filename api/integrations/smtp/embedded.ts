/**
 * The embedded transport: nothing leaves the machine. The outbox row the sender marks sent is
 * the delivered message, read at /dev/mail by admins, or by its recipient through its secret link.
 */
import type { MailTransport } from '../../platform/mail/outbox.ts';

export const outboxTransport: MailTransport = { kind: 'outbox', deliver: async () => {} };
