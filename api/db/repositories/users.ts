/** SQL for users. */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../schema.ts';

export async function listNewestCreators(db: Kysely<DB>, limit: number) {
  return db
    .selectFrom('users')
    .select(['id', 'username', 'display_name', 'profile_image_url'])
    .where('role', '=', 'creator')
    .where('status', '=', 'active')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export const USER_PUBLIC_SESSION_FIELDS = [
  'id',
  'email',
  'username',
  'display_name',
  'role',
  'is_admin',
  'profile_image_url',
  'auth_picture_url',
] as const;

export async function findUserByEmail(db: Kysely<DB>, email: string) {
  return db
    .selectFrom('users')
    .select([...USER_PUBLIC_SESSION_FIELDS, 'status', 'password_hash', 'oidc_issuer', 'oidc_subject'])
    .where(sql<boolean>`lower(email) = lower(${email})`)
    .executeTakeFirst();
}

export async function findUserByOidc(db: Kysely<DB>, issuer: string, subject: string) {
  return db
    .selectFrom('users')
    .select([...USER_PUBLIC_SESSION_FIELDS, 'status'])
    .where('oidc_issuer', '=', issuer)
    .where('oidc_subject', '=', subject)
    .executeTakeFirst();
}

/** Usernames already taken that start with the given base, for picking a free suffix. */
export async function usernamesStartingWith(db: Kysely<DB>, base: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('users')
    .select(sql<string>`lower(username)`.as('u'))
    .where(sql<boolean>`lower(username) like ${`${base}%`}`)
    .execute();
  return new Set(rows.map((r) => r.u));
}

export async function userMediaKeys(db: Kysely<DB>, userId: string) {
  return db.selectFrom('videos').select(['video_key', 'thumbnail_key', 'poster_key']).where('user_id', '=', userId).execute();
}
