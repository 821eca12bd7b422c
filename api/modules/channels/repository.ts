/** SQL for channels: a creator's public page, the channel search and the newest creators. */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';

/**
 * The newest creators who have at least one listed video: a creator whose videos are all
 * pending, rejected or hidden has nothing to show yet, and is left out.
 */
export async function listNewestCreators(db: Kysely<DB>, limit: number) {
  return db
    .selectFrom('users as u')
    .select(['u.id', 'u.username', 'u.display_name', 'u.profile_image_url'])
    .where('u.role', '=', 'creator')
    .where('u.status', '=', 'active')
    // Listed as in videos/repository.ts LISTED, written as literals for its partial indexes.
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('videos as v')
          .select(sql`1`.as('one'))
          .whereRef('v.user_id', '=', 'u.id')
          .where(sql<boolean>`v.verification_status in ('verified_via_supabase_auth', 'approved')`),
      ),
    )
    .orderBy('u.created_at', 'desc')
    .orderBy('u.id', 'desc')
    .limit(limit)
    .execute();
}

export const PUBLIC_PROFILE_FIELDS = ['id', 'display_name', 'profile_image_url', 'cover_image_url', 'bio', 'created_at'] as const;

/** An active creator by slug. Customers (and admins, who are customers) have no channel: their slug answers as none. */
export async function findActiveUserBySlug(db: Kysely<DB>, slug: string) {
  return db
    .selectFrom('users')
    .select([...PUBLIC_PROFILE_FIELDS, 'username', 'role'])
    .where(sql<boolean>`lower(username) = lower(${slug})`)
    .where('status', '=', 'active')
    .where('role', '=', 'creator')
    .executeTakeFirst();
}

/** Channels whose slug or name contains the text: exact slug first, then prefixes, then the rest. */
export async function searchChannels(db: Kysely<DB>, text: string, limit = 20) {
  const like = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const prefix = `${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return db
    .selectFrom('users as u')
    // Only listed videos count (pending and rejected ones are unlisted: videos/repository.ts LISTED).
    .leftJoin('videos as v', (j) => j.onRef('v.user_id', '=', 'u.id').on(sql<boolean>`v.verification_status in ('verified_via_supabase_auth', 'approved')`))
    .select(['u.username', 'u.display_name', 'u.profile_image_url', sql<number>`count(v.id)::int`.as('video_count')])
    .where('u.status', '=', 'active')
    .where('u.role', '=', 'creator')
    .where((eb) => eb.or([eb(sql`lower(u.username)`, 'like', like), eb(sql`lower(u.display_name)`, 'like', like)]))
    .groupBy(['u.id', 'u.username', 'u.display_name', 'u.profile_image_url'])
    .orderBy(sql`case when lower(u.username) = ${text.toLowerCase()} then 0 when lower(u.username) like ${prefix} or lower(u.display_name) like ${prefix} then 1 else 2 end`)
    .orderBy(sql`count(v.id)`, 'desc')
    .orderBy('u.username')
    .limit(limit)
    .execute();
}
