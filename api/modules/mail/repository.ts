/** The mail module's one read: the newest messages of the outbox, for the development mailbox. */
import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';

export function newestMessages(db: Kysely<DB>, limit: number) {
  return db
    .selectFrom('email_outbox')
    .select(['id', 'to_address', 'subject', 'payload', 'status', 'created_at', 'sent_at'])
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}
