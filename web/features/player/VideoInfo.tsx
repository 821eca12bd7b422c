import { Link } from 'react-router';
import { formatViews, relativeTime } from '../../../shared/format.ts';
import { channelPath } from '../../lib/paths.ts';
import type { VideoDetail } from './useVideo.ts';

/** Title, channel, views and description under the player. */
export function VideoInfo({ video }: { video: VideoDetail }) {
  const channel = video.channel_title ?? 'Creator';
  return (
    <div className="video-info">
      <h1 className="video-info__title">{video.title}</h1>
      <p className="video-info__meta">
        {video.channel_slug ? (
          <Link className="video-info__channel" to={channelPath(video.channel_slug)}>
            {channel}
          </Link>
        ) : (
          <span className="video-info__channel">{channel}</span>
        )}
        <span>{formatViews(video.view_count)}</span>
        <time dateTime={video.created_at}>{relativeTime(video.created_at)}</time>
      </p>
      {video.description && <p className="video-info__description">{video.description}</p>}
    </div>
  );
}
