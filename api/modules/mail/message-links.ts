/**
 * A message's own page in the development mailbox needs no account: its link carries a token that
 * is an HMAC of the message id under a server secret (app_secrets 'mail-links', the same in every
 * process), so it is rebuilt on demand, never stored, and cannot be guessed from the id. The order
 * pages' links work the same way.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const MAIL_LINKS_SECRET = 'mail-links';

export function messageToken(secret: string, messageId: string): string {
  return createHmac('sha256', secret).update(`mail:${messageId}`).digest('base64url');
}

export function checkMessageToken(secret: string, messageId: string, token: string | undefined): boolean {
  if (!token) return false;
  const expected = Buffer.from(messageToken(secret, messageId));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The web app's page for one message, token included. */
export function messagePagePath(secret: string, messageId: string): string {
  return `/dev/mail?message=${messageId}&token=${messageToken(secret, messageId)}`;
}
