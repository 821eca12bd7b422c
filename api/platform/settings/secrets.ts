/**
 * Secrets the server makes for itself: made once, on first use, and kept in the database so
 * every process (and every restart) agrees. An explicit value from the configuration wins.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { ensureSecret } from './repository.ts';

export async function appSecret(db: Kysely<DB>, name: string): Promise<string> {
  return ensureSecret(db, name, randomBytes(32).toString('base64url'));
}
