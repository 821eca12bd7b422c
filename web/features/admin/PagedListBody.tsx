import type { ReactNode } from 'react';
import { StatusMessage } from '../../components/StatusMessage.tsx';
import { AccessDenied } from './AccessDenied.tsx';
import { errorText, isForbidden } from './adminAccess.ts';
import { LoadMore } from './LoadMore.tsx';
import type { PagedState } from './pagedList.ts';

interface PagedListBodyProps<T> {
  list: PagedState<T> & { loadMore: () => void };
  /** What the list holds, in the plural ("users"): in its loading, failure and empty lines. */
  noun: string;
  /** Starts the list again from its first page (after a failure). */
  onRetry: () => void;
  /** The rows so far, when there is at least one. */
  children: (items: T[]) => ReactNode;
}

/**
 * A keyset-paged admin list's states: loading, failed (with Try again; a 403 is a non-admin's
 * visit), empty, the rows, and Load more.
 */
export function PagedListBody<T>({ list, noun, onRetry, children }: PagedListBodyProps<T>) {
  if (list.status === 'error' && isForbidden(list.error)) return <AccessDenied />;
  return (
    <>
      {list.status === 'loading' ? (
        <StatusMessage kind="loading" title={`Loading ${noun}...`} />
      ) : list.status === 'error' ? (
        <StatusMessage kind="error" title={errorText(list.error, `Failed to load ${noun}.`)}>
          <button type="button" className="button button--ghost" onClick={onRetry}>
            Try again
          </button>
        </StatusMessage>
      ) : list.items.length === 0 ? (
        <p className="admin__empty">No {noun} match these filters.</p>
      ) : (
        children(list.items)
      )}
      <LoadMore next={list.next} more={list.more} moreError={list.moreError} onLoadMore={list.loadMore} />
    </>
  );
}
