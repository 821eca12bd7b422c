/**
 * SQL for videos, their views, moderation, and the creator's studio (profile).
 * Visible videos are the listed ones (verified at sign-in, or approved: not pending, not
 * rejected) of active creators.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { cursorTs, keysetAfter, type KeysetCursor } from '../../platform/db/repository.ts';
import { containsPattern } from '../../platform/http/keyset.ts';
import type { DB, VerificationStatus } from '../../platform/db/schema.ts';

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
  content_type: 'video/mp4' | 'video/webm';
  size_bytes: number;
}

/**
 * Listed: the statuses anyone may see (spec section 4; PUBLIC_VIDEO_STATUSES). Written as
 * literals, not parameters, so the planner matches the partial indexes of 0013_moderation.sql.
 */
const LISTED = sql<boolean>`v.verification_status in ('verified_via_supabase_auth', 'approved')`;

function visible(db: Kysely<DB>) {
  return db
    .selectFrom('videos as v')
    .innerJoin('users as u', 'u.id', 'v.user_id')
    .where(LISTED)
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

/**
 * The one lookup of a video, by its id or by its storage key, with whether it is visible
 * (the same rule as visible() above, read as a column so a hidden video can be told from none)
 * and whether its creator is active (an owner or admin may see an unlisted video of an active creator).
 */
export async function findVideo(
  db: Kysely<DB>,
  ref: { id: string } | { key: string },
): Promise<(VideoRow & { visible: boolean; creator_active: boolean }) | undefined> {
  const q = db
    .selectFrom('videos as v')
    .innerJoin('users as u', 'u.id', 'v.user_id')
    .select([
      ...cardColumns,
      'v.description',
      'v.video_key',
      'v.poster_key',
      'v.width',
      'v.height',
      'v.user_id',
      'v.verification_status',
      'v.content_type',
      'v.size_bytes',
      sql<boolean>`${LISTED} and u.status = 'active'`.as('visible'),
      sql<boolean>`u.status = 'active'`.as('creator_active'),
    ]);
  return ('id' in ref ? q.where('v.id', '=', ref.id) : q.where('v.video_key', '=', ref.key)).executeTakeFirst();
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

/** True when this viewer had not been counted for the video yet. */
export async function insertView(db: Kysely<DB>, videoId: string, viewerKey: string): Promise<boolean> {
  const inserted = await db
    .insertInto('video_views')
    .values({ video_id: videoId, viewer_key: viewerKey })
    .onConflict((oc) => oc.columns(['video_id', 'viewer_key']).doNothing())
    .returning('video_id')
    .executeTakeFirst();
  return Boolean(inserted);
}

export async function incrementViewCount(db: Kysely<DB>, videoId: string): Promise<number> {
  const row = await db.updateTable('videos').set((eb) => ({ view_count: eb('view_count', '+', 1) })).where('id', '=', videoId).returning('view_count').executeTakeFirstOrThrow();
  return row.view_count;
}

export async function readViewCount(db: Kysely<DB>, videoId: string): Promise<number> {
  return (await db.selectFrom('videos').select('view_count').where('id', '=', videoId).executeTakeFirstOrThrow()).view_count;
}

export interface VideoValues {
  user_id: string;
  title: string;
  description: string;
  category: string | null;
  category_id: number;
  video_key: string;
  thumbnail_key: string;
  poster_key: string;
  content_type: 'video/mp4' | 'video/webm';
  size_bytes: number;
  duration_ms: number | null;
  width: number | null;
  height: number | null;
  /** Omitted: the column's default, verified_via_supabase_auth. */
  verification_status?: VerificationStatus;
}

export async function insertVideo(db: Kysely<DB>, values: VideoValues) {
  return db.insertInto('videos').values(values).returning(['id', 'created_at']).executeTakeFirstOrThrow();
}

export async function deleteVideoRow(db: Kysely<DB>, id: string): Promise<void> {
  await db.deleteFrom('videos').where('id', '=', id).execute();
}

/** Whether a merch product on sale shows this stored frame (a deleted video's products are withdrawn with it). */
export async function frameOnSale(db: Kysely<DB>, key: string): Promise<boolean> {
  return Boolean(await db.selectFrom('merch_screenshots').select('id').where('storage_key', '=', key).executeTakeFirst());
}

/** In the transaction that drops their row: the files become pending, removed just after or by the sweep. */
export async function findChannelName(db: Kysely<DB>, userId: string) {
  return db.selectFrom('users').select(['display_name', 'username']).where('id', '=', userId).executeTakeFirstOrThrow();
}

export async function findOwnProfile(db: Kysely<DB>, userId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'username', 'display_name', 'bio', 'profile_image_url', 'cover_image_url', 'created_at'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
}

export async function updateProfileFields(db: Kysely<DB>, userId: string, changes: { display_name?: string; bio?: string; updated_at: Date }): Promise<void> {
  await db.updateTable('users').set(changes).where('id', '=', userId).execute();
}

export type ProfileImageColumn = 'profile_image_url' | 'cover_image_url';

/** The image URL a change replaces, read with the row locked. */
export async function lockProfileImage(db: Kysely<DB>, userId: string, column: ProfileImageColumn): Promise<string | null> {
  const before = await db.selectFrom('users').select([column]).where('id', '=', userId).forUpdate().executeTakeFirstOrThrow();
  return (before as Record<string, string | null>)[column] ?? null;
}

export async function setProfileImage(db: Kysely<DB>, userId: string, column: ProfileImageColumn, url: string): Promise<void> {
  await db.updateTable('users').set({ [column]: url, updated_at: new Date() }).where('id', '=', userId).execute();
}

// ---------------------------------------------------------------------------------------------
// Moderation

export interface ModerationRow {
  id: string;
  title: string;
  thumbnail_key: string | null;
  verification_status: VerificationStatus;
  created_at: Date;
  /** created_at to the microsecond, for the next page's cursor. */
  cursor_ts: string;
  user_id: string;
  display_name: string;
  username: string;
}

function moderationRows(db: Kysely<DB>) {
  return db
    .selectFrom('videos as v')
    .innerJoin('users as u', 'u.id', 'v.user_id')
    .select([
      'v.id',
      'v.title',
      'v.thumbnail_key',
      'v.verification_status',
      'v.created_at',
      cursorTs('v.created_at').as('cursor_ts'),
      'v.user_id',
      'u.display_name',
      'u.username',
    ]);
}

/**
 * Every video, newest first, by status (approved includes verified_via_supabase_auth) and text
 * (any case) in the title or the creator's display name or username.
 *
 * A search is the union of two short lists, each the page's worth of newest matches: by title
 * (its trigram index) and by creator (the users' trigram indexes, then each creator's videos).
 * One condition OR-ed across the two tables could use neither table's index and would read
 * every video when few match.
 */
export async function listForModeration(
  db: Kysely<DB>,
  opts: { status: 'pending' | 'approved' | 'rejected' | null; text: string | null; limit: number; after: KeysetCursor | null },
): Promise<ModerationRow[]> {
  const status =
    opts.status === 'approved'
      ? LISTED
      : opts.status === 'pending'
        ? sql<boolean>`v.verification_status = 'pending'`
        : opts.status === 'rejected'
          ? sql<boolean>`v.verification_status = 'rejected'`
          : null;
  const after = opts.after ? keysetAfter('v.created_at', 'v.id', opts.after) : null;
  let q = moderationRows(db);
  if (status) q = q.where(status);
  if (after) q = q.where(after);
  if (opts.text) {
    const like = containsPattern(opts.text);
    const newest = (match: RawBuilder<boolean>) => {
      let ids = db.selectFrom('videos as v').select('v.id').where(match);
      if (status) ids = ids.where(status);
      if (after) ids = ids.where(after);
      return ids.orderBy('v.created_at', 'desc').orderBy('v.id', 'desc').limit(opts.limit);
    };
    const byTitle = newest(sql<boolean>`v.title ilike ${like} escape '\\'`);
    const byCreator = newest(
      sql<boolean>`v.user_id in (select c.id from users c where c.display_name ilike ${like} escape '\\' or c.username ilike ${like} escape '\\')`,
    );
    q = q.where('v.id', 'in', db.selectFrom(byTitle.as('t')).select('t.id').union(db.selectFrom(byCreator.as('c')).select('c.id')));
  }
  return q.orderBy('v.created_at', 'desc').orderBy('v.id', 'desc').limit(opts.limit).execute();
}

export async function findModerationRow(db: Kysely<DB>, id: string): Promise<ModerationRow | undefined> {
  return moderationRows(db).where('v.id', '=', id).executeTakeFirst();
}

/** The video's status, read with its row locked (undefined when there is no such video). */
export async function lockVideoStatus(db: Kysely<DB>, id: string): Promise<VerificationStatus | undefined> {
  const row = await db.selectFrom('videos').select('verification_status').where('id', '=', id).forUpdate().executeTakeFirst();
  return row?.verification_status;
}

export async function setVideoStatus(db: Kysely<DB>, id: string, status: VerificationStatus): Promise<void> {
  await db.updateTable('videos').set({ verification_status: status, updated_at: new Date() }).where('id', '=', id).execute();
}
