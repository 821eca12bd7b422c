/**
 * Videos: the one lookup of a visible video (by id or storage key), a viewer's view counted
 * once, a creator's own list, deleting a video with its files (and the frames of its withdrawn
 * products), who may have a stored frame, and the creator's tier.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/schema.ts';
import type { PendingObjects, StoredFile } from '../../platform/storage/pending-objects.ts';
import { recordAdminAction } from '../admin/index.ts';
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
 * The video page's lookup: a visible video, or for its owner and admins also one that is not
 * listed (pending review, or rejected) while its creator is active. Anyone else gets undefined,
 * as for a video that does not exist.
 */
export async function findVideoForViewer(db: Kysely<DB>, id: string, viewer: { id: string; is_admin: boolean } | null): Promise<VideoRow | undefined> {
  if (!UUID.test(id)) return undefined;
  const row = await repo.findVideo(db, { id });
  if (!row) return undefined;
  if (row.visible) return row;
  const staffOrOwner = viewer !== null && (viewer.is_admin || viewer.id === row.user_id);
  return staffOrOwner && row.creator_active ? row : undefined;
}

/**
 * Who may have a stored video file (the media route's gate): anyone when its video is visible,
 * its owner and admins (uncached) when it is unlisted, nobody else. A key no video has is served
 * as before (the file of a video being saved, say).
 */
export async function videoFileAccess(
  db: Kysely<DB>,
  key: string,
  viewerOf: () => Promise<{ id: string; is_admin: boolean } | null>,
): Promise<'public' | 'private' | 'hidden'> {
  const row = await repo.findVideo(db, { key });
  if (!row || row.visible) return 'public';
  const viewer = row.creator_active ? await viewerOf() : null;
  const staffOrOwner = viewer !== null && (viewer.is_admin || viewer.id === row.user_id);
  return staffOrOwner && row.creator_active ? 'private' : 'hidden';
}

/**
 * Who may have a stored frame (the media route's gate for screenshots): anyone while a merch
 * product shows it, nobody once its product is withdrawn with its video (a frame an order still
 * to be printed keeps is read by the server from storage, never through the media route).
 */
export async function frameFileAccess(db: Kysely<DB>, key: string): Promise<'public' | 'hidden'> {
  return (await repo.frameOnSale(db, key)) ? 'public' : 'hidden';
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
 * an admin asks), so another creator's video answers exactly as a missing one does. The database
 * withdraws the merch products made from it with the row (0020_withdrawn_merch.sql): their frames
 * stop being served, and are removed here unless an order still to be printed keeps one.
 */
export async function deleteVideo(
  deps: DeleteDeps,
  actor: { id: string; is_admin: boolean },
  id: string,
  opts: { asAdmin?: boolean } = {},
): Promise<'deleted' | 'not-found'> {
  const video = await repo.findVideoFiles(deps.db, id);
  if (!video || (video.user_id !== actor.id && !actor.is_admin)) return 'not-found';
  // An admin deleting through the admin portal, or deleting someone else's video, is an admin action.
  const logged = actor.is_admin && (opts.asAdmin === true || video.user_id !== actor.id);
  const details = logged ? await repo.findModerationRow(deps.db, video.id) : undefined;
  const files: StoredFile[] = [{ bucket: 'videos', key: video.video_key }];
  for (const k of new Set([video.thumbnail_key, video.poster_key])) if (k) files.push({ bucket: 'thumbnails', key: k });
  // The files become pending with the row's deletion, so a crash before they are removed leaves them to the sweep.
  await deps.db.transaction().execute(async (trx) => {
    await repo.deleteVideoRow(trx, video.id);
    await deps.pending.retire(trx, files);
    if (logged) {
      await recordAdminAction(trx, {
        adminUserId: actor.id,
        actionType: 'delete_video',
        targetType: 'video',
        targetId: video.id,
        details: { title: details?.title ?? null, creator_id: video.user_id, verification_status: details?.verification_status ?? null },
      });
    }
  });
  await deps.pending.discard(files);
  await deps.pending.removeWithdrawnFrames();
  return 'deleted';
}
