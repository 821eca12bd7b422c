import { StatusMessage } from '../../components/StatusMessage.tsx';
import { errorText } from './adminAccess.ts';

interface LoadMoreProps {
  next: string | null;
  more: 'idle' | 'loading' | 'error';
  moreError: unknown;
  onLoadMore: () => void;
}

/** Load more for a keyset-paged list; nothing once the last page is in. */
export function LoadMore({ next, more, moreError, onLoadMore }: LoadMoreProps) {
  if (!next) return null;
  return (
    <div className="admin__more">
      {more === 'error' && <StatusMessage kind="error" title={errorText(moreError, 'Failed to load more.')} />}
      <button type="button" className="button button--ghost" disabled={more === 'loading'} onClick={onLoadMore}>
        {more === 'loading' ? 'Loading...' : 'Load more'}
      </button>
    </div>
  );
}
