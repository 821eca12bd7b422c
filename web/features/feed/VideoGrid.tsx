import { StatusMessage } from '../../components/StatusMessage.tsx';
import { VideoCardList } from '../../components/VideoCardList.tsx';
import type { FeedCategory } from '../../stores/useBrowse.ts';
import { useFeed } from './useFeed.ts';
import './VideoGrid.css';

export function VideoGrid({ category }: { category: FeedCategory }) {
  const feed = useFeed(category);

  if (feed.status === 'loading') return <StatusMessage kind="loading" title="Loading videos..." />;
  if (feed.status === 'error') {
    return (
      <StatusMessage kind="error" title="Failed to fetch videos">
        <button type="button" className="button button--ghost" onClick={feed.retry}>
          Try again
        </button>
      </StatusMessage>
    );
  }
  if (feed.videos.length === 0) return <StatusMessage kind="info" title="No videos in this category yet." />;

  return (
    <>
      <VideoCardList videos={feed.videos} label="Videos" testId="feed-grid" />
      {feed.nextCursor !== null && (
        <div className="feed-more">
          {feed.more === 'error' && (
            <p className="feed-more__error" role="alert">
              Failed to fetch videos
            </p>
          )}
          <button type="button" className="button button--ghost" disabled={feed.more === 'loading'} onClick={feed.loadMore}>
            {feed.more === 'loading' ? 'Loading more...' : 'Load more'}
          </button>
        </div>
      )}
    </>
  );
}
