/**
 * Videos: the one lookup of a visible video (by id or storage key), a viewer's view counted
 * once, a creator's own list, deleting a video with its files, and the creator's tier.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';
import type { PendingObjects, StoredFile } from '../../platform/storage/pending-objects.ts';
import { effectiveTierOf } from '../subscriptions/index.ts';
import * as repo from './repository.ts';
import type { VideoRow } from './repository.ts';

export type { FeedRow, VideoRow } from './repository.ts';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A video anyone may watch, by id or by storage key; undefined when there is none (or the id is no UUID). */
export async function findVisibleVideo(db: Kysely<DB>, ref: { id: string } | { key: string }): Promise<VideoRow | undefined> {
  if ('id' in ref && !UUID.test(ref.id)) return undefined;
  const row = await repo.findVideo(db, ref);
  return row?.visible ? row : undefined;
}

/**
 * Like findVisibleVideo, but null when a storage key names no visible video: a hidden video's
 * key answers as a key that names none, so a key cannot be probed for a hidden video.
 */
export async function findVideoForInfo(db: Kysely<DB>, ref: { id: string } | { key: string }): Promise<VideoRow | undefined | null> {
  if ('id' in ref) return findVisibleVideo(db, ref);
  const row = await repo.findVideo(db, ref);
  return row?.visible ? row : null;
}

/** Counts a view once per viewer: counted is true when this viewer had not been counted yet. */
export async function recordView(db: Kysely<DB>, videoId: string, viewerKey: string): Promise<{ counted: boolean; viewCount: number }> {
  return db.transaction().execute(async (trx) => {
    const counted = await repo.insertView(trx, videoId, viewerKey);
    const viewCount = counted ? await repo.incrementViewCount(trx, videoId) : await repo.readViewCount(trx, videoId);
    return { counted, viewCount };
  });
}

/** A creator's visible videos for their channel and profile, newest first. */
export function listChannelVideos(db: Kysely<DB>, userId: string) {
  return repo.listChannelVideos(db, userId);
}

/** All of a creator's own videos, whatever their status. */
export function listOwnVideos(db: Kysely<DB>, userId: string) {
  return repo.listOwnVideos(db, userId);
}

export type Tier = 'free' | 'pro';

/** The creator's tier for upload limits: the subscriptions module's effective tier (Pro while trialing, active or retrying a payment). */
export async function tierOf(db: Kysely<DB>, userId: string, now: Date = new Date()): Promise<Tier> {
  return effectiveTierOf(db, userId, now);
}

export interface DeleteDeps {
  db: Kysely<DB>;
  pending: PendingObjects;
}

/**
 * Deletes a video and its files; 'not-found' when there is none or it is someone else's (unless
 * an admin asks), so another creator's video answers exactly as a missing one does.
 */
export async function deleteVideo(deps: DeleteDeps, actor: { id: string; is_admin: boolean }, id: string): Promise<'deleted' | 'not-found'> {
  const video = await repo.findVideoFiles(deps.db, id);
  if (!video || (video.user_id !== actor.id && !actor.is_admin)) return 'not-found';
  const files: StoredFile[] = [{ bucket: 'videos', key: video.video_key }];
  for (const k of new Set([video.thumbnail_key, video.poster_key])) if (k) files.push({ bucket: 'thumbnails', key: k });
  // The files become pending with the row's deletion, so a crash before they are removed leaves them to the sweep.
  await deps.db.transaction().execute(async (trx) => {
    await repo.deleteVideoRow(trx, video.id);
    await deps.pending.retire(trx, files);
  });
  await deps.pending.discard(files);
  return 'deleted';
}
