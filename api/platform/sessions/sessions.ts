/**
 * Sessions: an opaque random token (256 bits) in an HttpOnly cookie; only its SHA-256 is
 * stored, so a leaked database cannot be replayed as cookies. A suspended or deleted user's
 * sessions stop working at once because every lookup joins the active user.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { SessionUser } from '../../../shared/schemas/auth.ts';
import type { DB } from '../db/schema.ts';
import { deleteSessionByHash, insertSession, sessionWithUser, touchSession } from './repository.ts';

/** The session cookie's name on plain http (a local run at http://localhost). */
export const SESSION_COOKIE = 'fm_session';
/**
 * Its name when PUBLIC_URL is https. Browsers accept a `__Host-` cookie only when it is Secure,
 * has Path=/ and no Domain, and then no subdomain or plain-http page can set or shadow it.
 * Plain http keeps the name without the prefix: a browser refuses a Secure cookie there.
 */
export const SECURE_SESSION_COOKIE = '__Host-fm_session';

export function sessionCookieName(secure: boolean): string {
  return secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
}
const TOUCH_AFTER_MS = 60 * 60 * 1000;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export async function createSession(
  db: Kysely<DB>,
  userId: string,
  days: number,
  meta: { userAgent?: string; ip?: string },
): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken();
  const expiresAt = new Date(Date.now() + days * 24 * 3600 * 1000);
  await insertSession(db, {
    tokenHash: hashToken(token),
    userId,
    expiresAt,
    userAgent: meta.userAgent?.slice(0, 300) ?? null,
    ip: meta.ip ?? null,
  });
  return { token, expiresAt };
}

export type SessionLookup = { kind: 'none' } | { kind: 'expired' } | { kind: 'active'; user: SessionUser };

export async function findSession(db: Kysely<DB>, token: string): Promise<SessionLookup> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return { kind: 'none' };
  const row = await sessionWithUser(db, hashToken(token));
  if (!row || row.status !== 'active') return { kind: 'none' };
  if (new Date(row.expires_at).getTime() <= Date.now()) {
    await deleteSessionByHash(db, row.token_hash);
    return { kind: 'expired' };
  }
  if (Date.now() - row.last_seen_at.getTime() > TOUCH_AFTER_MS) {
    await touchSession(db, row.token_hash);
  }
  return { kind: 'active', user: toSessionUser(row) };
}

/** The fields of a user row the session and the client see, and nothing else. */
export function toSessionUser(row: SessionUser): SessionUser {
  return {
    id: row.id,
    email: row.email,
    username: row.username,
    display_name: row.display_name,
    role: row.role,
    is_admin: row.is_admin,
    profile_image_url: row.profile_image_url,
    auth_picture_url: row.auth_picture_url,
  };
}

export async function deleteSession(db: Kysely<DB>, token: string): Promise<void> {
  await deleteSessionByHash(db, hashToken(token));
}
