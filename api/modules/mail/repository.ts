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

/** An issued approval link (its token is signed, never stored). */
export function insertApproval(db: Kysely<DB>, approval: { id: string; email: string; expiresAt: Date }) {
  return db.insertInto('subscription_approvals').values({ id: approval.id, email: approval.email, expires_at: approval.expiresAt }).execute();
}

/**
 * Uses the approval link once: marks it used if it is this address's, unused and unexpired at
 * `now`, in one statement (of two uses at once, the second finds it used), and records the
 * address as approved (again: nothing changes) in the same transaction. Answers whether it was used now.
 */
export async function consumeApproval(db: Kysely<DB>, approval: { id: string; email: string; now: Date }): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const used = await trx
      .updateTable('subscription_approvals')
      .set({ used_at: approval.now })
      .where('id', '=', approval.id)
      .where('email', '=', approval.email)
      .where('used_at', 'is', null)
      .where('expires_at', '>', approval.now)
      .returning('email')
      .executeTakeFirst();
    if (!used) return false;
    await trx
      .insertInto('subscription_approved_addresses')
      .values({ email: used.email, approved_at: approval.now })
      .onConflict((oc) => oc.column('email').doNothing())
      .execute();
    return true;
  });
}
