/** The home feed: keyset pagination over (created_at, id), newest first. */
import type { Kysely } from 'kysely';
import { FEED_PAGE_SIZE } from '../../../shared/constants.ts';
import type { VideoCard } from '../../../shared/schemas/videos.ts';
import { AppError } from '../../platform/http/errors.ts';
import { listFeed, type FeedCursor, type FeedRow } from './repository.ts';
import type { DB } from '../../platform/db/schema.ts';
import { mediaUrl } from '../../platform/storage/media-urls.ts';
import { UUID } from './service.ts';

export function encodeCursor(c: FeedCursor): string {
  return Buffer.from(`${c.createdAt.toISOString()}|${c.id}`).toString('base64url');
}

export function decodeCursor(text: string): FeedCursor {
  const [iso, id] = Buffer.from(text, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(iso ?? '');
  if (!id || !UUID.test(id) || Number.isNaN(createdAt.getTime())) {
    throw AppError.badRequest('The feed cursor is not valid; start again from the first page.');
  }
  return { createdAt, id };
}

export function toCard(row: FeedRow): VideoCard {
  return {
    id: row.id,
    title: row.title,
    thumbnail_url: row.thumbnail_key ? mediaUrl('thumbnails', row.thumbnail_key) : null,
    channel_title: row.channel_title,
    channel_slug: row.channel_slug,
    category: row.category,
    category_id: row.category_id,
    view_count: row.view_count,
    duration_s: row.duration_ms === null ? null : row.duration_ms / 1000,
    created_at: row.created_at.toISOString(),
  };
}

export async function feedPage(
  db: Kysely<DB>,
  query: { category?: string; limit?: number; before?: string },
): Promise<{ videos: VideoCard[]; next_cursor: string | null }> {
  const limit = query.limit ?? FEED_PAGE_SIZE;
  const rows = await listFeed(db, {
    category: query.category && query.category !== 'all' ? query.category : null,
    limit: limit + 1,
    before: query.before ? decodeCursor(query.before) : null,
  });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    videos: page.map(toCard),
    next_cursor: rows.length > limit && last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null,
  };
}
