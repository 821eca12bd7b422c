/** SQL for the sessions table; a session is found by its token's hash, joined to its user. */
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';

export interface NewSession {
  tokenHash: string;
  userId: string;
  expiresAt: Date;
  userAgent: string | null;
  ip: string | null;
}

export async function insertSession(db: Kysely<DB>, session: NewSession): Promise<void> {
  await db
    .insertInto('sessions')
    .values({
      token_hash: session.tokenHash,
      user_id: session.userId,
      expires_at: session.expiresAt,
      user_agent: session.userAgent,
      ip: session.ip,
    })
    .execute();
}

/** The session and the fields of its user that the session carries. */
export async function sessionWithUser(db: Kysely<DB>, tokenHash: string) {
  return db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.token_hash', 's.expires_at', 's.last_seen_at'])
    .select(['u.id', 'u.email', 'u.username', 'u.display_name', 'u.role', 'u.is_admin', 'u.status', 'u.profile_image_url', 'u.auth_picture_url'])
    .where('s.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function deleteSessionByHash(db: Kysely<DB>, tokenHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
}

export async function touchSession(db: Kysely<DB>, tokenHash: string): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: new Date() }).where('token_hash', '=', tokenHash).execute();
}
