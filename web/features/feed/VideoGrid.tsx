import { StatusMessage } from '../../components/StatusMessage.tsx';
import type { FeedCategory } from '../../lib/useBrowse.ts';
import { useFeed } from './useFeed.ts';
import { VideoCardLink } from './VideoCardLink.tsx';
import './VideoGrid.css';

/** Roughly one screenful of cards on a wide display; their thumbnails load without waiting for scroll. */
const EAGER_CARDS = 8;

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
      <ul className="feed-grid" data-testid="feed-grid">
        {feed.videos.map((video, index) => (
          <li key={video.id}>
            <VideoCardLink video={video} eager={index < EAGER_CARDS} />
          </li>
        ))}
      </ul>
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
