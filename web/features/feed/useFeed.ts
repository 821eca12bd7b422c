import { useEffect, useRef, useState } from 'react';
import { feedRoute } from '../../../shared/schemas/videos.ts';
import { request } from '../../lib/api.ts';
import { isAbortError } from '../../lib/ApiError.ts';
import type { FeedCategory } from '../../stores/useBrowse.ts';
import { appendPage, feedQuery, type FeedVideo } from './feedPage.ts';

export interface FeedState {
  status: 'loading' | 'ready' | 'error';
  videos: FeedVideo[];
  nextCursor: string | null;
  /** The state of the "Load more" request. */
  more: 'idle' | 'loading' | 'error';
}

/** State belongs to one category and one attempt; anything else on screen is stale. */
type Keyed = FeedState & { key: string };

const loading = (key: string): Keyed => ({ key, status: 'loading', videos: [], nextCursor: null, more: 'idle' });

/**
 * The home feed of one category, page by page. Changing category aborts the requests in
 * flight (their AbortError is ignored) and starts again from the first page.
 */
export function useFeed(category: FeedCategory) {
  const [attempt, setAttempt] = useState(0);
  const key = `${category}#${attempt}`;
  const [state, setState] = useState<Keyed>(() => loading(key));
  const moreRequest = useRef<AbortController | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    request(feedRoute, { query: feedQuery(category), signal: controller.signal }).then(
      (reply) => setState({ key, status: 'ready', videos: reply.videos, nextCursor: reply.next_cursor, more: 'idle' }),
      (error: unknown) => {
        if (!isAbortError(error)) setState({ ...loading(key), status: 'error' });
      },
    );
    return () => {
      controller.abort();
      moreRequest.current?.abort();
    };
  }, [category, key]);

  const current = state.key === key ? state : loading(key);

  const loadMore = () => {
    const cursor = current.nextCursor;
    if (current.status !== 'ready' || cursor === null || current.more === 'loading') return;
    const controller = new AbortController();
    moreRequest.current = controller;
    const update = (change: (s: Keyed) => Keyed) => setState((s) => (s.key === key ? change(s) : s));
    update((s) => ({ ...s, more: 'loading' }));
    request(feedRoute, { query: feedQuery(category, cursor), signal: controller.signal }).then(
      (reply) =>
        update((s) => ({ ...s, videos: appendPage(s.videos, reply.videos), nextCursor: reply.next_cursor, more: 'idle' })),
      (error: unknown) => {
        if (!isAbortError(error)) update((s) => ({ ...s, more: 'error' }));
      },
    );
  };

  const retry = () => setAttempt((n) => n + 1);

  return { ...(current as FeedState), loadMore, retry };
}
