/** The mail module's reads of the outbox: the newest messages for admins, and one message by id. */
import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';

const COLUMNS = ['id', 'to_address', 'subject', 'payload', 'status', 'created_at', 'sent_at'] as const;

export function newestMessages(db: Kysely<DB>, limit: number) {
  return db.selectFrom('email_outbox').select(COLUMNS).orderBy('created_at', 'desc').limit(limit).execute();
}

export function messageById(db: Kysely<DB>, id: string) {
  return db.selectFrom('email_outbox').select(COLUMNS).where('id', '=', id).executeTakeFirst();
}
