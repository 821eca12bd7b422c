import { Icon } from '../../components/Icon.tsx';
import type { ModerationVideo } from '../../../shared/schemas/moderation.ts';
import { isApproved, videoActions, videoStatusLabel } from './adminRules.ts';

interface VideoTableProps {
  videos: ModerationVideo[];
  busy: ReadonlySet<string>;
  onApprove: (video: ModerationVideo) => void;
  onReject: (video: ModerationVideo) => void;
  onDelete: (video: ModerationVideo) => void;
}

const date = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });
const badge = (status: ModerationVideo['verification_status']) => (isApproved(status) ? 'approved' : status);

/** The moderation list: thumbnail, title, creator, status, created, and the actions spec section 4 allows. */
export function VideoTable({ videos, busy, onApprove, onReject, onDelete }: VideoTableProps) {
  return (
    <ul className="admin-videos" aria-label="Videos for moderation">
      {videos.map((video) => {
        const actions = videoActions(video, busy.has(video.id));
        const titleId = `admin-video-${video.id}`;
        return (
          <li key={video.id} className="admin-video">
            <div className="admin-video__thumb">
              {video.thumbnail_url ? (
                <img src={video.thumbnail_url} crossOrigin="anonymous" alt="" width={160} height={90} loading="lazy" decoding="async" />
              ) : (
                <Icon name="play" size={28} />
              )}
            </div>
            <div className="admin-video__body">
              <p id={titleId} className="admin-video__title">
                {video.title}
              </p>
              <p className="admin-video__facts">
                {video.creator.display_name} (@{video.creator.username}) · <time dateTime={video.created_at}>{date(video.created_at)}</time>
              </p>
              <span className={`admin-badge admin-badge--${badge(video.verification_status)}`}>{videoStatusLabel(video.verification_status)}</span>
            </div>
            <div className="admin-actions">
              <button type="button" className="button button--ghost" aria-describedby={titleId} disabled={actions.approve.disabled} onClick={() => onApprove(video)}>
                Approve
              </button>
              <button type="button" className="button button--ghost" aria-describedby={titleId} disabled={actions.reject.disabled} onClick={() => onReject(video)}>
                Reject
              </button>
              <button type="button" className="button button--ghost admin-danger" aria-describedby={titleId} disabled={actions.remove.disabled} onClick={() => onDelete(video)}>
                Delete
              </button>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
