/**
 * Outgoing mail goes through an outbox table: a request only queues a message (in its own
 * transaction, so no mail is sent for work that rolled back), and a sender delivers queued
 * messages with retries through a transport (integrations/smtp): an SMTP server with SMTP_URL,
 * else the embedded one, where the outbox itself is the mailbox (/dev/mail: the whole outbox for
 * admins, one message for whoever holds its secret link).
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { claimDueMail, insertMail, markMailFailed, markMailSent } from './repository.ts';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  template: string;
  /** A second message with the same key is not queued. */
  dedupeKey?: string;
}

const MAILABLE = /^[^\s@]+@[^\s@]+$/;

/** Whether an address stored on an order (typed by the buyer, or given by the payment page) can be mailed. */
export function isMailable(address: string | null | undefined): address is string {
  return !!address && MAILABLE.test(address);
}

/** Queues a message; false when one with the same dedupe key is already queued. */
export async function queueMail(db: Kysely<DB>, mail: OutgoingMail): Promise<boolean> {
  return (await queueMessage(db, mail)) !== null;
}

/** Queues a message and answers its id, or null when one with the same dedupe key is already queued. */
export function queueMessage(db: Kysely<DB>, mail: OutgoingMail): Promise<string | null> {
  return insertMail(db, { to: mail.to, template: mail.template, subject: mail.subject, text: mail.text, dedupeKey: mail.dedupeKey ?? null });
}

const ADDRESS = /[^\s<>()[\]"',;:@]+@[^\s<>()[\]"',;:@]+/g;

/** A delivery error as the log may show it: SMTP servers quote the recipient, and the log is no place for addresses. */
export function withoutAddresses(text: string): string {
  return text.replace(ADDRESS, '[address]');
}

/** Where the sender hands a message: implemented in integrations/smtp. */
export interface MailTransport {
  readonly kind: 'smtp' | 'outbox';
  deliver(message: { from: string; to: string; subject: string; text: string }): Promise<void>;
}

const MAX_ATTEMPTS = 5;

const errorText = (err: unknown) => String((err as Error | undefined)?.message ?? err);

export class MailSender {
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<number> | null = null;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly transport: MailTransport,
    private readonly from: string,
    private readonly log: (msg: string, err?: unknown) => void = () => {},
  ) {}

  /** Delivers what is due now; returns how many messages were sent. */
  runOnce(): Promise<number> {
    this.#running ??= this.#deliverDue().finally(() => (this.#running = null));
    return this.#running;
  }

  async #deliverDue(): Promise<number> {
    let sent = 0;
    for (;;) {
      const m = await claimDueMail(this.db);
      if (!m) return sent;
      try {
        await this.transport.deliver({ from: this.from, to: m.to_address, subject: m.subject, text: m.payload.text ?? '' });
        await markMailSent(this.db, m.id);
        sent++;
      } catch (err) {
        // The message id leads an admin to the outbox row; neither the address nor the error's quote of it is logged.
        this.log(`mail ${m.id} not delivered (attempt ${m.attempts}): ${withoutAddresses(errorText(err))}`);
        await markMailFailed(this.db, m.id, {
          final: m.attempts >= MAX_ATTEMPTS,
          error: errorText(err).slice(0, 500),
          sendAfter: new Date(Date.now() + 2 ** m.attempts * 30_000),
        });
      }
    }
  }

  start(intervalMs = 2000): void {
    this.#timer ??= setInterval(() => void this.runOnce().catch((err) => this.log('mail sender failed', err)), intervalMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#running?.catch(() => 0);
  }
}
