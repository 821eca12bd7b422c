import type { VideoCard } from '../../shared/schemas/videos.ts';
import { VideoCardLink } from './VideoCardLink.tsx';
import './VideoCardList.css';

/** Roughly one screenful of cards on a wide display; their thumbnails load without waiting for scroll. */
const EAGER_CARDS = 8;

interface VideoCardListProps {
  videos: readonly VideoCard[];
  /** Names the list for assistive technology (and for tests). */
  label: string;
  /** Only where a role and a label are not enough (the home feed's `feed-grid`). */
  testId?: string;
}

/** The grid of video cards the feed, channel and profile pages share. */
export function VideoCardList({ videos, label, testId }: VideoCardListProps) {
  return (
    <ul className="video-list" aria-label={label} data-testid={testId}>
      {videos.map((video, index) => (
        <li key={video.id}>
          <VideoCardLink video={video} eager={index < EAGER_CARDS} />
        </li>
      ))}
    </ul>
  );
}
