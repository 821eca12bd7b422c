/** SQL for videos. Visible videos exclude rejected ones and those of suspended creators. */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';

export interface FeedCursor {
  createdAt: Date;
  id: string;
}

export interface FeedRow {
  id: string;
  title: string;
  thumbnail_key: string | null;
  channel_title: string | null;
  channel_slug: string | null;
  category: string | null;
  category_id: number;
  view_count: number;
  duration_ms: number | null;
  created_at: Date;
}

export interface VideoRow extends FeedRow {
  description: string;
  video_key: string;
  poster_key: string | null;
  width: number | null;
  height: number | null;
  user_id: string;
  verification_status: string;
}

function visible(db: Kysely<DB>) {
  return db
    .selectFrom('videos as v')
    .innerJoin('users as u', 'u.id', 'v.user_id')
    .where('v.verification_status', '<>', 'rejected')
    .where('u.status', '=', 'active');
}

const cardColumns = [
  'v.id',
  'v.title',
  'v.thumbnail_key',
  'u.display_name as channel_title',
  'u.username as channel_slug',
  'v.category',
  'v.category_id',
  'v.view_count',
  'v.duration_ms',
  'v.created_at',
] as const;

export async function listFeed(
  db: Kysely<DB>,
  opts: { category: string | null; limit: number; before: FeedCursor | null },
): Promise<FeedRow[]> {
  let q = visible(db).select(cardColumns);
  if (opts.category) q = q.where('v.category', '=', opts.category);
  if (opts.before) {
    const { createdAt, id } = opts.before;
    q = q.where(sql<boolean>`(v.created_at, v.id) < (${createdAt}, ${id}::uuid)`);
  }
  return q.orderBy('v.created_at', 'desc').orderBy('v.id', 'desc').limit(opts.limit).execute();
}

export async function findVisibleVideo(db: Kysely<DB>, id: string): Promise<VideoRow | undefined> {
  return visible(db)
    .select([
      ...cardColumns,
      'v.description',
      'v.video_key',
      'v.poster_key',
      'v.width',
      'v.height',
      'v.user_id',
      'v.verification_status',
    ])
    .where('v.id', '=', id)
    .executeTakeFirst();
}

/** A creator's visible videos for their channel and profile, newest first. */
export async function listChannelVideos(db: Kysely<DB>, userId: string, limit = 100): Promise<FeedRow[]> {
  return visible(db).select(cardColumns).where('v.user_id', '=', userId).orderBy('v.created_at', 'desc').orderBy('v.id', 'desc').limit(limit).execute();
}

/** All of a creator's own videos, whatever their status. */
export async function listOwnVideos(db: Kysely<DB>, userId: string) {
  return db
    .selectFrom('videos as v')
    .innerJoin('users as u', 'u.id', 'v.user_id')
    .select([...cardColumns, 'v.verification_status', 'v.size_bytes', 'v.width', 'v.height'])
    .where('v.user_id', '=', userId)
    .orderBy('v.created_at', 'desc')
    .execute();
}

export async function findVideoFiles(db: Kysely<DB>, id: string) {
  return db.selectFrom('videos').select(['id', 'user_id', 'video_key', 'thumbnail_key', 'poster_key']).where('id', '=', id).executeTakeFirst();
}

/** Counts a view once per viewer: true when this viewer had not been counted yet. */
export async function recordView(db: Kysely<DB>, videoId: string, viewerKey: string): Promise<{ counted: boolean; viewCount: number }> {
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('video_views')
      .values({ video_id: videoId, viewer_key: viewerKey })
      .onConflict((oc) => oc.columns(['video_id', 'viewer_key']).doNothing())
      .returning('video_id')
      .executeTakeFirst();
    const row = inserted
      ? await trx.updateTable('videos').set((eb) => ({ view_count: eb('view_count', '+', 1) })).where('id', '=', videoId).returning('view_count').executeTakeFirstOrThrow()
      : await trx.selectFrom('videos').select('view_count').where('id', '=', videoId).executeTakeFirstOrThrow();
    return { counted: Boolean(inserted), viewCount: row.view_count };
  });
}
