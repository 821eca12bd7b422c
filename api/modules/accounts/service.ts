/**
 * Accounts: creating users with a unique channel slug, signing in with a password or an identity
 * provider's claims (and the flow that carries a provider sign-in), renaming a channel, and
 * deleting an account with what belongs to it.
 */
import type { Kysely, Transaction } from 'kysely';
import { SIGN_IN_FAILURES, type SessionUser, type SignInFailure } from '../../../shared/schemas/auth.ts';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import type { OidcClaims } from '../../integrations/google-oidc/index.ts';
import type { DB } from '../../platform/db/schema.ts';
import { AppError } from '../../platform/http/errors.ts';
import { hashToken, toSessionUser } from '../../platform/sessions/sessions.ts';
import type { ObjectStorage } from '../../platform/storage/object-storage.ts';
import { removeWithdrawnFrames } from '../../platform/storage/pending-objects.ts';
import { storageKeyOf } from '../../platform/storage/media-urls.ts';
import * as repo from './repository.ts';
import { recordAdminAction } from '../admin/index.ts';

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
    const username = pickFreeSlug(base, await repo.usernamesStartingWith(db, base));
    try {
      return await repo.insertUser(db, {
        email: u.email.trim(),
        email_verified: u.emailVerified,
        username,
        display_name: u.displayName.trim().slice(0, 100) || username,
        role: u.role,
        password_hash: u.passwordHash ?? null,
        oidc_issuer: u.oidc?.issuer ?? null,
        oidc_subject: u.oidc?.subject ?? null,
        auth_picture_url: u.pictureUrl ?? null,
      });
    } catch (err) {
      if (isUniqueViolation(err, 'users_email_ci')) {
        throw new AppError(409, ERROR_CODES.CONFLICT, 'This email is already registered. Please sign in instead.');
      }
      if (!isUniqueViolation(err, 'users_username_ci')) throw err;
    }
  }
  throw new Error('Could not find a free channel slug');
}

/** A sign-in the app refuses, with the reason the browser is sent home with. */
export class SignInRefused extends Error {
  override name = 'SignInRefused';
  constructor(readonly reason: SignInFailure) {
    super(SIGN_IN_FAILURES[reason]);
  }
}

/**
 * Users are keyed by (issuer, subject). An existing account with the same email is linked only
 * when the provider vouches for the email; a first sign-in creates a creator.
 */
export async function signInWithClaims(db: Kysely<DB>, c: OidcClaims): Promise<SessionUser> {
  const known = await repo.findUserByOidc(db, c.issuer, c.subject);
  if (known) {
    if (known.status !== 'active') throw new SignInRefused('suspended');
    if (c.picture && c.picture !== known.auth_picture_url) {
      await repo.setAuthPicture(db, known.id, c.picture);
    }
    return { ...toSessionUser(known), auth_picture_url: c.picture ?? known.auth_picture_url };
  }
  if (!c.email) throw new SignInRefused('no_email');
  const byEmail = await repo.findUserByEmail(db, c.email);
  if (byEmail) {
    if (!c.emailVerified || byEmail.oidc_issuer) {
      throw new SignInRefused('password_account');
    }
    if (byEmail.status !== 'active') throw new SignInRefused('suspended');
    await repo.linkOidc(db, byEmail.id, { issuer: c.issuer, subject: c.subject, picture: c.picture });
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

/** What a caller may add to an account's deletion, inside its transaction. */
export interface DeletionHooks {
  /** Runs first, before the user's row is locked: checks that may refuse (and take their locks in their own order). */
  guard?: (trx: Transaction<DB>) => Promise<void>;
  /** Runs once it is known what goes (how many stored files), before anything is deleted: the admin log. */
  record?: (trx: Transaction<DB>, filesToRemove: number) => Promise<void>;
}

/**
 * Deletes an account: the user row (and with it sessions, videos, subscription), payout details,
 * and then the stored files. The merch products made from the videos are withdrawn with them
 * (0020_withdrawn_merch.sql) and their frames removed, except one an order still to be printed
 * keeps. Orders are kept for the retention period with the customer's personal data removed;
 * earnings and payouts are kept without the user.
 */
export async function deleteAccount(db: Kysely<DB>, storage: ObjectStorage, userId: string, hooks: DeletionHooks = {}): Promise<{ filesRemoved: number }> {
  const files = await db.transaction().execute(async (trx) => {
    await hooks.guard?.(trx);
    const user = await repo.lockUserForDeletion(trx, userId);
    if (!user) throw AppError.notFound('User not found');
    const media = await repo.userMediaKeys(trx, userId);
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
    await hooks.record?.(trx, list.length);
    await repo.forgetOrderCustomer(trx, userId, user.email);
    await repo.deleteUserVideos(trx, userId);
    await repo.deleteUserRow(trx, userId);
    return list;
  });
  let filesRemoved = 0;
  for (const [bucket, key] of files) {
    await storage.delete(bucket, key);
    filesRemoved++;
  }
  await removeWithdrawnFrames(db, storage);
  return { filesRemoved };
}

/** An admin removing someone else's account leaves a trace in the admin log, written with the deletion. */
export function adminDeletionLog(adminUserId: string, userId: string): DeletionHooks {
  return {
    record: (trx, filesToRemove) =>
      recordAdminAction(trx, {
        adminUserId,
        actionType: 'delete_user',
        targetType: 'user',
        targetId: userId,
        details: { files_removed: filesToRemove },
      }),
  };
}

/** The account a password sign-in names, with its hash, or undefined. */
export function findPasswordAccount(db: Kysely<DB>, email: string) {
  return repo.findUserByEmail(db, email);
}

/** Sets the channel slug; a slug another channel holds is a conflict. */
export async function renameChannel(db: Kysely<DB>, userId: string, slug: string): Promise<void> {
  if (!/^[a-z0-9]{1,40}$/.test(slug)) throw AppError.badRequest('A channel name has only lowercase letters and digits.');
  try {
    await repo.setUsername(db, userId, slug);
  } catch (err) {
    if ((err as { code?: string }).code === '23505') throw new AppError(409, ERROR_CODES.CONFLICT, 'This channel name is taken.');
    throw err;
  }
}

export interface NewAuthFlow {
  state: string;
  /** The secret kept in the browser's cookie; only its hash is stored. */
  binding: string;
  nonce: string;
  codeVerifier: string;
  returnPath: string;
  expiresAt: Date;
}

/** Keeps a started sign-in until the provider sends the browser back; expired ones are dropped. */
export async function storeAuthFlow(db: Kysely<DB>, flow: NewAuthFlow): Promise<void> {
  await repo.deleteExpiredAuthFlows(db, new Date());
  await repo.insertAuthFlow(db, {
    state: flow.state,
    binding_hash: hashToken(flow.binding),
    nonce: flow.nonce,
    code_verifier: flow.codeVerifier,
    return_path: flow.returnPath,
    expires_at: flow.expiresAt,
  });
}

/** Single use: the flow is deleted as it is read, and only for the browser that began it. */
export function takeAuthFlow(db: Kysely<DB>, state: string, binding: string) {
  return repo.takeAuthFlow(db, state, hashToken(binding), new Date());
}
