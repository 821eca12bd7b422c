import type { QueryOf, ReplyOf } from '../../../shared/schemas/route.ts';
import type { feedRoute } from '../../../shared/schemas/videos.ts';
import { FEED_PAGE_SIZE } from '../../../shared/constants.ts';
import type { FeedCategory } from '../../lib/useBrowse.ts';

export type FeedReply = ReplyOf<typeof feedRoute>;
export type FeedVideo = FeedReply['videos'][number];

/** The feed query for one page: `all` sends no category, a cursor continues after the previous page. */
export function feedQuery(category: FeedCategory, cursor?: string | null): QueryOf<typeof feedRoute> {
  const query: Omit<QueryOf<typeof feedRoute>, 'category'> & { category?: FeedCategory } = {
    ...(category === 'all' ? {} : { category }),
    limit: FEED_PAGE_SIZE,
    ...(cursor ? { before: cursor } : {}),
  };
  // The shared schema's static type admits only 'all' for `category` (TypeBox cannot type a
  // union spread from a mapped array); the server accepts every slug. Without that bug this
  // cast is a no-op.
  return query as QueryOf<typeof feedRoute>;
}

/** Appends a page, dropping videos already shown (a video published between two pages can repeat). */
export function appendPage(shown: readonly FeedVideo[], page: readonly FeedVideo[]): FeedVideo[] {
  const seen = new Set(shown.map((v) => v.id));
  return [...shown, ...page.filter((v) => !seen.has(v.id))];
}
