import { Link } from 'react-router';
import { formatViews, relativeTime } from '../../shared/format.ts';
import type { VideoCard } from '../../shared/schemas/videos.ts';
import { videoPath } from '../lib/paths.ts';
import { formatDuration } from '../lib/formatDuration.ts';
import { Icon } from './Icon.tsx';
import './VideoCardLink.css';

interface VideoCardLinkProps {
  video: VideoCard;
  /** Cards in the first screenful load at once; the rest wait until scrolled near. */
  eager: boolean;
}

export function VideoCardLink({ video, eager }: VideoCardLinkProps) {
  const duration = formatDuration(video.duration_s);
  return (
    <Link to={videoPath(video.category_id, video.id)} className="video-card" data-testid="video-card">
      <div className="video-card__thumb">
        {video.thumbnail_url ? (
          <img
            src={video.thumbnail_url}
            // Stored images load in CORS mode everywhere, so the copy cached here also serves the
            // capture and shop pages, which draw them on canvases.
            crossOrigin="anonymous"
            alt=""
            width={320}
            height={180}
            loading={eager ? 'eager' : 'lazy'}
            decoding="async"
          />
        ) : (
          <span className="video-card__placeholder">
            <Icon name="play" size={36} />
          </span>
        )}
        {duration && <span className="video-card__duration">{duration}</span>}
      </div>
      <div className="video-card__body">
        <h3 className="video-card__title">{video.title}</h3>
        <p className="video-card__channel">{video.channel_title ?? 'Creator'}</p>
        <p className="video-card__meta">
          {formatViews(video.view_count)} · <time dateTime={video.created_at}>{relativeTime(video.created_at)}</time>
        </p>
      </div>
    </Link>
  );
}
