import { useEffect, useEffectEvent, useReducer, useRef, type Reducer } from 'react';
import { isAbortError } from '../../lib/ApiError.ts';
import { initialPaged, pagedReducer, pagedView, type PagedAction, type PagedState } from './pagedList.ts';

export interface Page<T> {
  items: T[];
  next: string | null;
}

/**
 * A keyset-paged list: the first page loads whenever `key` changes (aborting the previous
 * request), Load more asks for the next cursor; rows can be replaced or removed after an action
 * without reading the list again. `key` must name everything `load` depends on.
 */
export function usePagedList<T extends { id: string | number }>(key: string, load: (cursor: string | undefined, signal: AbortSignal) => Promise<Page<T>>) {
  const [state, dispatch] = useReducer<PagedState<T>, [PagedAction<T>]>(pagedReducer as Reducer<PagedState<T>, PagedAction<T>>, initialPaged<T>());
  const start = useEffectEvent(load);
  const moreRequest = useRef<AbortController | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    start(undefined, controller.signal).then(
      (page) => dispatch({ type: 'page', key, items: page.items, next: page.next, append: false }),
      (error: unknown) => {
        if (!isAbortError(error)) dispatch({ type: 'failed', key, error });
      },
    );
    return () => {
      controller.abort();
      moreRequest.current?.abort();
    };
  }, [key]);

  const view = pagedView(state, key);

  const loadMore = () => {
    const cursor = view.next;
    if (!cursor || view.more === 'loading') return;
    const controller = new AbortController();
    moreRequest.current = controller;
    dispatch({ type: 'more', key });
    load(cursor, controller.signal).then(
      (page) => dispatch({ type: 'page', key, items: page.items, next: page.next, append: true }),
      (error: unknown) => {
        if (!isAbortError(error)) dispatch({ type: 'more-failed', key, error });
      },
    );
  };

  return {
    ...view,
    loadMore,
    replace: (item: T) => dispatch({ type: 'replace', item }),
    remove: (id: string | number) => dispatch({ type: 'remove', id }),
  };
}
