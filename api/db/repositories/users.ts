/** SQL for users. */
import type { Kysely } from 'kysely';
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
