/** SQL for users, their sign-in flows and the admin log. */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';

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

export interface UserValues {
  email: string;
  email_verified: boolean;
  username: string;
  display_name: string;
  role: 'creator' | 'customer';
  password_hash: string | null;
  oidc_issuer: string | null;
  oidc_subject: string | null;
  auth_picture_url: string | null;
}

export async function insertUser(db: Kysely<DB>, values: UserValues) {
  return db.insertInto('users').values(values).returning([...USER_PUBLIC_SESSION_FIELDS]).executeTakeFirstOrThrow();
}

export async function setAuthPicture(db: Kysely<DB>, userId: string, picture: string): Promise<void> {
  await db.updateTable('users').set({ auth_picture_url: picture, updated_at: new Date() }).where('id', '=', userId).execute();
}

export async function linkOidc(
  db: Kysely<DB>,
  userId: string,
  link: { issuer: string; subject: string; picture: string | null },
): Promise<void> {
  await db
    .updateTable('users')
    .set({ oidc_issuer: link.issuer, oidc_subject: link.subject, email_verified: true, auth_picture_url: link.picture, updated_at: new Date() })
    .where('id', '=', userId)
    .execute();
}

export async function setUsername(db: Kysely<DB>, userId: string, username: string): Promise<void> {
  await db.updateTable('users').set({ username, updated_at: new Date() }).where('id', '=', userId).execute();
}

/** The user row locked for its deletion, with what the deletion must also remove. */
export async function lockUserForDeletion(db: Kysely<DB>, userId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'profile_image_url', 'cover_image_url'])
    .where('id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
}

export async function userMediaKeys(db: Kysely<DB>, userId: string) {
  return db.selectFrom('videos').select(['video_key', 'thumbnail_key', 'poster_key']).where('user_id', '=', userId).execute();
}

/** Orders stay for the retention period; the customer's personal data leaves them. */
export async function forgetOrderCustomer(db: Kysely<DB>, userId: string, email: string): Promise<void> {
  await db
    .updateTable('orders')
    .set({ customer_email: null, shipping_name: null, shipping_address: null, updated_at: new Date() })
    .where((eb) => eb.or([eb('customer_user_id', '=', userId), eb('customer_email', '=', email)]))
    .execute();
}

/**
 * The user's videos go in a statement of their own, before the user row: each takes the merch
 * products made from it along (0020_withdrawn_merch.sql), which the row's cascade, itself
 * clearing those products' creator, cannot do in one statement.
 */
export async function deleteUserVideos(db: Kysely<DB>, userId: string): Promise<void> {
  await db.deleteFrom('videos').where('user_id', '=', userId).execute();
}

export async function deleteUserRow(db: Kysely<DB>, userId: string): Promise<void> {
  await db.deleteFrom('users').where('id', '=', userId).execute();
}

export interface AuthFlowValues {
  state: string;
  binding_hash: string;
  nonce: string;
  code_verifier: string;
  return_path: string;
  expires_at: Date;
}

export async function deleteExpiredAuthFlows(db: Kysely<DB>, now: Date): Promise<void> {
  await db.deleteFrom('auth_flows').where('expires_at', '<', now).execute();
}

export async function insertAuthFlow(db: Kysely<DB>, flow: AuthFlowValues): Promise<void> {
  await db.insertInto('auth_flows').values(flow).execute();
}

/** Deletes the flow as it is read: a flow is used once, and only with its browser's binding. */
export async function takeAuthFlow(db: Kysely<DB>, state: string, bindingHash: string, now: Date) {
  return db
    .deleteFrom('auth_flows')
    .where('state', '=', state)
    .where('binding_hash', '=', bindingHash)
    .where('expires_at', '>', now)
    .returningAll()
    .executeTakeFirst();
}
