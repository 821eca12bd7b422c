/**
 * Outgoing mail goes through an outbox table: a request only queues a message (in its own
 * transaction, so no mail is sent for work that rolled back), and a sender delivers queued
 * messages with retries. With SMTP_URL the sender hands them to an SMTP server; without it the
 * outbox itself is the mailbox, readable at /dev/mail.
 */
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import nodemailer from 'nodemailer';
import type { DB } from '../db/schema.ts';

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

export async function queueMail(db: Kysely<DB>, mail: OutgoingMail): Promise<boolean> {
  const rows = await db
    .insertInto('email_outbox')
    .values({
      to_address: mail.to,
      template: mail.template,
      subject: mail.subject,
      payload: JSON.stringify({ text: mail.text }),
      dedupe_key: mail.dedupeKey ?? null,
    })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .returning('id')
    .execute();
  return rows.length > 0;
}

export interface MailTransport {
  readonly kind: 'smtp' | 'outbox';
  deliver(message: { from: string; to: string; subject: string; text: string }): Promise<void>;
}

/** The embedded transport: the outbox row marked sent is the delivered message. */
export const outboxTransport: MailTransport = { kind: 'outbox', deliver: async () => {} };

export function smtpTransport(url: string): MailTransport {
  const transport = nodemailer.createTransport(url);
  return {
    kind: 'smtp',
    deliver: async (m) => {
      await transport.sendMail(m);
    },
  };
}

const MAX_ATTEMPTS = 5;

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
      // Claim one message at a time; SKIP LOCKED lets several processes share the outbox.
      const claimed = await sql<{ id: string; to_address: string; subject: string; payload: { text?: string }; attempts: number }>`
        update email_outbox set status = 'sending', attempts = attempts + 1
        where id = (
          select id from email_outbox
          where status = 'pending' and send_after <= now()
          order by send_after limit 1 for update skip locked)
        returning id, to_address, subject, payload, attempts`.execute(this.db);
      const m = claimed.rows[0];
      if (!m) return sent;
      try {
        await this.transport.deliver({ from: this.from, to: m.to_address, subject: m.subject, text: m.payload.text ?? '' });
        await this.db.updateTable('email_outbox').set({ status: 'sent', sent_at: new Date(), last_error: null }).where('id', '=', m.id).execute();
        sent++;
      } catch (err) {
        const failed = m.attempts >= MAX_ATTEMPTS;
        this.log(`mail to ${m.to_address} failed (attempt ${m.attempts})`, err);
        await this.db
          .updateTable('email_outbox')
          .set({
            status: failed ? 'failed' : 'pending',
            last_error: String((err as Error).message ?? err).slice(0, 500),
            send_after: new Date(Date.now() + 2 ** m.attempts * 30_000),
          })
          .where('id', '=', m.id)
          .execute();
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
