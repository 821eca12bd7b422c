/**
 * The buyer's order page needs no account: its link carries a token that is an HMAC of the
 * order id under a server secret, so the link can be rebuilt for every email without storing
 * it, and cannot be guessed from the order id.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';
import { appSecret } from '../../platform/settings/secrets.ts';

const SECRET_NAME = 'order-links';

export async function orderAccessToken(db: Kysely<DB>, orderId: string): Promise<string> {
  const secret = await appSecret(db, SECRET_NAME);
  return createHmac('sha256', secret).update(`order:${orderId}`).digest('base64url');
}

export async function checkOrderAccessToken(db: Kysely<DB>, orderId: string, token: string): Promise<boolean> {
  const expected = Buffer.from(await orderAccessToken(db, orderId));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The closing lines of a buyer's email: the order page's link after `lead`, and to keep it private. */
export async function orderLinkLines(db: Kysely<DB>, publicUrl: string, orderId: string, lead: string): Promise<string[]> {
  return [lead, `${publicUrl}${await orderPagePath(db, orderId)}`, '', 'Keep this link to yourself: anyone who has it can see the order.', ''];
}

/** The order page's path (the web app's /orders/:id route), token included. */
export async function orderPagePath(db: Kysely<DB>, orderId: string): Promise<string> {
  return `/orders/${orderId}?token=${await orderAccessToken(db, orderId)}`;
}
