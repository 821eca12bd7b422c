/** SQL for the email_outbox table. */
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { DB } from '../db/schema.ts';

export interface NewMail {
  to: string;
  template: string;
  subject: string;
  text: string;
  dedupeKey: string | null;
}

export interface ClaimedMail {
  id: string;
  to_address: string;
  subject: string;
  payload: { text?: string };
  attempts: number;
}

/** The new message's id, or null when a message with the same dedupe key is already queued. */
export async function insertMail(db: Kysely<DB>, mail: NewMail): Promise<string | null> {
  const rows = await db
    .insertInto('email_outbox')
    .values({
      to_address: mail.to,
      template: mail.template,
      subject: mail.subject,
      payload: JSON.stringify({ text: mail.text }),
      dedupe_key: mail.dedupeKey,
    })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .returning('id')
    .execute();
  return rows[0]?.id ?? null;
}

/** Claims the earliest due message (SKIP LOCKED lets several processes share the outbox), or null. */
export async function claimDueMail(db: Kysely<DB>): Promise<ClaimedMail | null> {
  const claimed = await sql<ClaimedMail>`
    update email_outbox set status = 'sending', attempts = attempts + 1
    where id = (
      select id from email_outbox
      where status = 'pending' and send_after <= now()
      order by send_after limit 1 for update skip locked)
    returning id, to_address, subject, payload, attempts`.execute(db);
  return claimed.rows[0] ?? null;
}

export async function markMailSent(db: Kysely<DB>, id: string): Promise<void> {
  await db.updateTable('email_outbox').set({ status: 'sent', sent_at: new Date(), last_error: null }).where('id', '=', id).execute();
}

/** A failed delivery: pending again from sendAfter, or failed for good. */
export async function markMailFailed(db: Kysely<DB>, id: string, failure: { final: boolean; error: string; sendAfter: Date }): Promise<void> {
  await db
    .updateTable('email_outbox')
    .set({ status: failure.final ? 'failed' : 'pending', last_error: failure.error, send_after: failure.sendAfter })
    .where('id', '=', id)
    .execute();
}
