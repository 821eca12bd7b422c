import { useState } from 'react';
import { Link } from 'react-router';
import { formatViews, relativeTime } from '../../../shared/format.ts';
import { deleteVideoRoute, myVideosRoute, UPLOAD_MESSAGES, type StudioVideo } from '../../../shared/schemas/studio.ts';
import { Icon } from '../../components/Icon.tsx';
import { StatusMessage } from '../../components/StatusMessage.tsx';
import { request } from '../../lib/api.ts';
import { isApiError } from '../../lib/ApiError.ts';
import { videoPath } from '../../lib/paths.ts';
import { useApiRead } from '../../lib/useApiRead.ts';
import { statusLabel } from './studioChecks.ts';

const CONFIRM_DELETE = 'Are you sure you want to delete this video?';

/** The creator's own videos, whatever their status, each with Delete. */
export function VideosTab() {
  const [attempt, setAttempt] = useState(0);
  const state = useApiRead(`videos#${attempt}`, (signal) => request(myVideosRoute, { signal }));
  // Deleted here, kept out of the list without reading it again.
  const [removed, setRemoved] = useState<ReadonlySet<string>>(() => new Set());
  const [deleting, setDeleting] = useState<ReadonlySet<string>>(() => new Set());

  if (state.status === 'loading') return <StatusMessage kind="loading" title="Loading your videos..." />;
  if (state.status === 'error') {
    return (
      <StatusMessage kind="error" title={isApiError(state.error) ? state.error.message : 'Failed to load your videos.'}>
        <button type="button" className="button button--ghost" onClick={() => setAttempt((n) => n + 1)}>
          Try again
        </button>
      </StatusMessage>
    );
  }

  const videos = state.data.videos.filter((v) => !removed.has(v.id));
  if (videos.length === 0) {
    return (
      <StatusMessage kind="info" title="You have not uploaded any videos yet.">
        <Link className="button button--primary" to="/upload">
          Upload video
        </Link>
      </StatusMessage>
    );
  }

  const remove = async (video: StudioVideo) => {
    if (!window.confirm(CONFIRM_DELETE)) return;
    setDeleting((s) => new Set(s).add(video.id));
    try {
      await request(deleteVideoRoute, { params: { id: video.id } });
      setRemoved((s) => new Set(s).add(video.id));
    } catch {
      window.alert(UPLOAD_MESSAGES.deleteFailed);
    } finally {
      setDeleting((s) => {
        const next = new Set(s);
        next.delete(video.id);
        return next;
      });
    }
  };

  return (
    <ul className="studio-videos" aria-label="Your videos">
      {videos.map((video) => {
        const titleId = `studio-video-${video.id}`;
        const busy = deleting.has(video.id);
        return (
          <li key={video.id} className="studio-video">
            <div className="studio-video__thumb">
              {video.thumbnail_url ? (
                <img src={video.thumbnail_url} crossOrigin="anonymous" alt="" width={160} height={90} loading="lazy" decoding="async" />
              ) : (
                <Icon name="play" size={28} />
              )}
            </div>
            <div className="studio-video__body">
              <Link id={titleId} className="studio-video__title" to={videoPath(video.category_id, video.id)}>
                {video.title}
              </Link>
              <dl className="studio-video__facts">
                <div>
                  <dt>Status</dt>
                  <dd>{statusLabel(video.verification_status)}</dd>
                </div>
                <div>
                  <dt>Views</dt>
                  <dd>{formatViews(video.view_count)}</dd>
                </div>
                <div>
                  <dt>Created</dt>
                  <dd>
                    <time dateTime={video.created_at} title={new Date(video.created_at).toLocaleString()}>
                      {relativeTime(video.created_at)}
                    </time>
                  </dd>
                </div>
              </dl>
            </div>
            <button
              type="button"
              className="button button--ghost studio-video__delete"
              aria-describedby={titleId}
              disabled={busy}
              onClick={() => void remove(video)}
            >
              {busy ? 'Deleting...' : 'Delete'}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
