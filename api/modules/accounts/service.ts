/**
 * Accounts: creating users with a unique channel slug, signing in with an identity provider's
 * claims, and deleting an account with what belongs to it.
 */
import type { Kysely } from 'kysely';
import type { SessionUser } from '../../../shared/schemas/auth.ts';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import {
  findUserByEmail,
  findUserByOidc,
  USER_PUBLIC_SESSION_FIELDS,
  userMediaKeys,
  usernamesStartingWith,
} from './repository.ts';
import type { DB } from '../../platform/db/schema.ts';
import { AppError } from '../../platform/http/errors.ts';
import { toSessionUser } from '../../platform/sessions/sessions.ts';
import type { ObjectStorage } from '../../platform/storage/object-storage.ts';
import { storageKeyOf } from '../../platform/storage/media-urls.ts';

const SLUG_MAX = 30;

/** Spec: the channel slug comes from the email, lowercase, alphanumerics only. */
export function channelSlugBase(email: string): string {
  const local = email.split('@')[0] ?? '';
  const slug = local.toLowerCase().replace(/[^a-z0-9]/g, '').slice(0, SLUG_MAX);
  return slug || 'creator';
}

export function pickFreeSlug(base: string, taken: Set<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base.slice(0, SLUG_MAX - String(n).length)}${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

function isUniqueViolation(err: unknown, index: string): boolean {
  const e = err as { code?: string; message?: string; constraint?: string };
  return e.code === '23505' && (e.constraint === index || (e.message ?? '').includes(index));
}

export interface NewUser {
  email: string;
  displayName: string;
  role: 'creator' | 'customer';
  emailVerified: boolean;
  passwordHash?: string;
  oidc?: { issuer: string; subject: string };
  pictureUrl?: string | null;
}

/** Inserts a user with the first free slug; a race for the same slug simply tries the next. */
export async function createUser(db: Kysely<DB>, u: NewUser): Promise<SessionUser> {
  const base = channelSlugBase(u.email);
  for (let attempt = 0; attempt < 5; attempt++) {
    const username = pickFreeSlug(base, await usernamesStartingWith(db, base));
    try {
      return await db
        .insertInto('users')
        .values({
          email: u.email.trim(),
          email_verified: u.emailVerified,
          username,
          display_name: u.displayName.trim().slice(0, 100) || username,
          role: u.role,
          password_hash: u.passwordHash ?? null,
          oidc_issuer: u.oidc?.issuer ?? null,
          oidc_subject: u.oidc?.subject ?? null,
          auth_picture_url: u.pictureUrl ?? null,
        })
        .returning([...USER_PUBLIC_SESSION_FIELDS])
        .executeTakeFirstOrThrow();
    } catch (err) {
      if (isUniqueViolation(err, 'users_email_ci')) {
        throw new AppError(409, ERROR_CODES.CONFLICT, 'This email is already registered. Please sign in instead.');
      }
      if (!isUniqueViolation(err, 'users_username_ci')) throw err;
    }
  }
  throw new Error('Could not find a free channel slug');
}

export interface OidcClaims {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
  picture: string | null;
}

export class SignInRefused extends Error {
  override name = 'SignInRefused';
}

/**
 * Users are keyed by (issuer, subject). An existing account with the same email is linked only
 * when the provider vouches for the email; a first sign-in creates a creator.
 */
export async function signInWithClaims(db: Kysely<DB>, c: OidcClaims): Promise<SessionUser> {
  const known = await findUserByOidc(db, c.issuer, c.subject);
  if (known) {
    if (known.status !== 'active') throw new SignInRefused('This account is suspended.');
    if (c.picture && c.picture !== known.auth_picture_url) {
      await db.updateTable('users').set({ auth_picture_url: c.picture, updated_at: new Date() }).where('id', '=', known.id).execute();
    }
    return { ...toSessionUser(known), auth_picture_url: c.picture ?? known.auth_picture_url };
  }
  if (!c.email) throw new SignInRefused('The identity provider did not share an email address.');
  const byEmail = await findUserByEmail(db, c.email);
  if (byEmail) {
    if (!c.emailVerified || byEmail.oidc_issuer) {
      throw new SignInRefused('An account with this email already exists. Sign in with your password instead.');
    }
    if (byEmail.status !== 'active') throw new SignInRefused('This account is suspended.');
    await db
      .updateTable('users')
      .set({ oidc_issuer: c.issuer, oidc_subject: c.subject, email_verified: true, auth_picture_url: c.picture, updated_at: new Date() })
      .where('id', '=', byEmail.id)
      .execute();
    return { ...toSessionUser(byEmail), auth_picture_url: c.picture ?? byEmail.auth_picture_url };
  }
  return createUser(db, {
    email: c.email,
    displayName: c.name ?? channelSlugBase(c.email),
    role: 'creator',
    emailVerified: c.emailVerified,
    oidc: { issuer: c.issuer, subject: c.subject },
    pictureUrl: c.picture,
  });
}

/**
 * Deletes an account: the user row (and with it sessions, videos, subscription), payout details,
 * and then the stored files. Orders are kept for the retention period with the customer's personal
 * data removed; earnings and payouts are kept without the user.
 */
export async function deleteAccount(db: Kysely<DB>, storage: ObjectStorage, userId: string): Promise<{ filesRemoved: number }> {
  const files = await db.transaction().execute(async (trx) => {
    const user = await trx
      .selectFrom('users')
      .select(['id', 'email', 'profile_image_url', 'cover_image_url'])
      .where('id', '=', userId)
      .forUpdate()
      .executeTakeFirst();
    if (!user) throw AppError.notFound('User not found');
    const media = await userMediaKeys(trx, userId);
    await trx
      .updateTable('orders')
      .set({ customer_email: null, shipping_name: null, shipping_address: null, updated_at: new Date() })
      .where((eb) => eb.or([eb('customer_user_id', '=', userId), eb('customer_email', '=', user.email)]))
      .execute();
    await trx.deleteFrom('users').where('id', '=', userId).execute();
    const list: Array<['videos' | 'thumbnails' | 'profile-images', string]> = [];
    for (const m of media) {
      list.push(['videos', m.video_key]);
      if (m.thumbnail_key) list.push(['thumbnails', m.thumbnail_key]);
      if (m.poster_key && m.poster_key !== m.thumbnail_key) list.push(['thumbnails', m.poster_key]);
    }
    for (const url of [user.profile_image_url, user.cover_image_url]) {
      const key = storageKeyOf('profile-images', url);
      if (key) list.push(['profile-images', key]);
    }
    return list;
  });
  let filesRemoved = 0;
  for (const [bucket, key] of files) {
    await storage.delete(bucket, key);
    filesRemoved++;
  }
  return { filesRemoved };
}
