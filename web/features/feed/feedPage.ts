import type { QueryOf, ReplyOf } from '../../../shared/schemas/route.ts';
import type { feedRoute } from '../../../shared/schemas/videos.ts';
import { FEED_PAGE_SIZE } from '../../../shared/constants.ts';
import type { FeedCategory } from '../../stores/useBrowse.ts';

export type FeedReply = ReplyOf<typeof feedRoute>;
export type FeedVideo = FeedReply['videos'][number];

/** The feed query for one page: `all` sends no category, a cursor continues after the previous page. */
export function feedQuery(category: FeedCategory, cursor?: string | null): QueryOf<typeof feedRoute> {
  return {
    ...(category === 'all' ? {} : { category }),
    limit: FEED_PAGE_SIZE,
    ...(cursor ? { before: cursor } : {}),
  };
}

/** Appends a page, dropping videos already shown (a video published between two pages can repeat). */
export function appendPage(shown: readonly FeedVideo[], page: readonly FeedVideo[]): FeedVideo[] {
  const seen = new Set(shown.map((v) => v.id));
  return [...shown, ...page.filter((v) => !seen.has(v.id))];
}
