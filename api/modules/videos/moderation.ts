/**
 * Content moderation (spec sections 2, 4, 6): the admin's list of every video by status and
 * text, approving and rejecting. Each change is made with the video's row locked and logged in
 * the admin log in that transaction. A new upload's status (pending while moderation is
 * required) is decided in video-intake.ts.
 */
import type { Kysely } from 'kysely';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import { MODERATION_MESSAGES, MODERATION_PAGE_SIZE, type ModerationFilter, type ModerationVideo } from '../../../shared/schemas/moderation.ts';
import { decodeCursor, KEYSET_IDS, keysetPage } from '../../platform/http/keyset.ts';
import type { DB } from '../../platform/db/schema.ts';
import { AppError } from '../../platform/http/errors.ts';
import { mediaUrl } from '../../platform/storage/media-urls.ts';
import { recordAdminAction } from '../admin/index.ts';
import * as repo from './repository.ts';
import type { ModerationRow } from './repository.ts';

function toModerationVideo(row: ModerationRow): ModerationVideo {
  return {
    id: row.id,
    title: row.title,
    thumbnail_url: row.thumbnail_key ? mediaUrl('thumbnails', row.thumbnail_key) : null,
    verification_status: row.verification_status,
    created_at: row.created_at.toISOString(),
    creator: { id: row.user_id, display_name: row.display_name, username: row.username },
  };
}

/** One page of the admin's list, keyset-paged on (created_at, id), newest first. */
export async function moderationPage(
  db: Kysely<DB>,
  query: { status?: ModerationFilter; q?: string; limit?: number; cursor?: string },
): Promise<{ videos: ModerationVideo[]; next_cursor: string | null }> {
  const limit = query.limit ?? MODERATION_PAGE_SIZE;
  const rows = await repo.listForModeration(db, {
    status: query.status ?? null,
    text: query.q?.trim() || null,
    limit: limit + 1,
    after: query.cursor ? decodeCursor(query.cursor, KEYSET_IDS.uuid, MODERATION_MESSAGES.badCursor) : null,
  });
  const { shown, next_cursor } = keysetPage(rows, limit);
  return { videos: shown.map(toModerationVideo), next_cursor };
}

/**
 * Approves or rejects a video: 404 when there is none, 409 when it already has that standing
 * (a video verified at upload counts as approved, as the list's filter does).
 */
export async function moderateVideo(db: Kysely<DB>, adminUserId: string, id: string, decision: 'approved' | 'rejected'): Promise<ModerationVideo> {
  await db.transaction().execute(async (trx) => {
    const from = await repo.lockVideoStatus(trx, id);
    if (!from) throw AppError.notFound(MODERATION_MESSAGES.videoNotFound);
    const already = decision === 'rejected' ? from === 'rejected' : from === 'approved' || from === 'verified_via_supabase_auth';
    if (already) {
      throw new AppError(409, ERROR_CODES.CONFLICT, decision === 'approved' ? MODERATION_MESSAGES.alreadyApproved : MODERATION_MESSAGES.alreadyRejected);
    }
    await repo.setVideoStatus(trx, id, decision);
    await recordAdminAction(trx, {
      adminUserId,
      actionType: decision === 'approved' ? 'approve_video' : 'reject_video',
      targetType: 'video',
      targetId: id,
      details: { old: from, new: decision },
    });
  });
  const row = await repo.findModerationRow(db, id);
  if (!row) throw AppError.notFound(MODERATION_MESSAGES.videoNotFound);
  return toModerationVideo(row);
}
