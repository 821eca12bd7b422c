/**
 * The subscription approval link's token: `{id}.{expiry}.{signature}`, where id names the issued
 * approval (subscription_approvals), expiry is its end in whole seconds since the epoch, and the
 * signature is an HMAC-SHA256, under the approval key (admin_settings 'mail.approval_key'), of the
 * id, the expiry and the lower-cased address. So the token is never stored, cannot be made
 * without the key, and names one address and one expiry: another address, or a later expiry
 * written into it, fails the signature. Whether it is still unused and unexpired is the
 * database's to say (repository.ts consumeApproval).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const TOKEN = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([1-9][0-9]{0,11})\.([A-Za-z0-9_-]{43})$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface ApprovalClaim {
  id: string;
  /** Lower-cased. */
  email: string;
  expiresAt: Date;
}

/** The address as approvals keep it: trimmed and lower-cased. */
export const approvalAddress = (email: string): string => email.trim().toLowerCase();

function signature(key: string, id: string, expirySeconds: number, email: string): string {
  return createHmac('sha256', key).update(`subscription-approval:v1:${id}.${expirySeconds}.${email}`).digest('base64url');
}

/** The token for an issued approval (its expiry is cut to whole seconds, as the token carries it). */
export function approvalToken(key: string, claim: ApprovalClaim): string {
  const expiry = Math.floor(claim.expiresAt.getTime() / 1000);
  return `${claim.id}.${expiry}.${signature(key, claim.id, expiry, approvalAddress(claim.email))}`;
}

/**
 * What a token says, when its signature holds for this address: null for anything else
 * (not strings, malformed, forged, another address's, its expiry changed). Says nothing of
 * whether it is used or expired.
 */
export function verifyApprovalToken(key: string, email: unknown, token: unknown): ApprovalClaim | null {
  if (typeof email !== 'string' || typeof token !== 'string' || email.length > 254 || token.length > 200) return null;
  const address = approvalAddress(email);
  const m = TOKEN.exec(token);
  if (!m || !EMAIL.test(address)) return null;
  const [, id, expiryText, given] = m as unknown as [string, string, string, string];
  const expiry = Number(expiryText);
  const expected = Buffer.from(signature(key, id, expiry, address));
  const actual = Buffer.from(given);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return null;
  return { id, email: address, expiresAt: new Date(expiry * 1000) };
}
