import { useId, useState } from 'react';
import {
  adminDeleteVideoRoute,
  adminVideosRoute,
  approveVideoRoute,
  MODERATION_FILTERS,
  rejectVideoRoute,
  type ModerationFilter,
  type ModerationVideo,
} from '../../../shared/schemas/moderation.ts';
import { StatusMessage } from '../../components/StatusMessage.tsx';
import { request } from '../../lib/api.ts';
import { AccessDenied, useDenyAccess } from './AccessDenied.tsx';
import { errorText, isForbidden } from './adminAccess.ts';
import { listKey, SEARCH_DEBOUNCE_MS, VIDEO_SEARCH_MAX_CHARS, videosQuery, type VideoFilters } from './adminRules.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { LoadMore } from './LoadMore.tsx';
import { useDebouncedValue } from './useDebouncedValue.ts';
import { usePagedList } from './usePagedList.ts';
import { VideoTable } from './VideoTable.tsx';

type Notice = { kind: 'info' | 'error'; text: string } | null;
const FILTER_LABELS: Record<ModerationFilter, string> = { pending: 'Pending', approved: 'Approved', rejected: 'Rejected' };

/** Content Moderation: videos by status and text, approve, reject and delete; Load more. */
export function ModerationTab() {
  const ids = useId();
  const deny = useDenyAccess();
  const [q, setQ] = useState('');
  const [status, setStatus] = useState<ModerationFilter | 'all'>('pending');
  const [attempt, setAttempt] = useState(0);
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState<ReadonlySet<string>>(() => new Set());
  const [deleting, setDeleting] = useState<{ video: ModerationVideo; busy: boolean; error: string | null } | null>(null);

  const filters: VideoFilters = { q: useDebouncedValue(q, SEARCH_DEBOUNCE_MS), status };
  const list = usePagedList<ModerationVideo>(listKey(videosQuery(filters), attempt), async (cursor, signal) => {
    const reply = await request(adminVideosRoute, { query: videosQuery(filters, cursor), signal });
    return { items: reply.videos, next: reply.next_cursor };
  });

  const mark = (id: string, on: boolean) =>
    setBusy((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const decide = async (video: ModerationVideo, decision: 'approve' | 'reject') => {
    mark(video.id, true);
    setNotice(null);
    try {
      const reply = await request(decision === 'approve' ? approveVideoRoute : rejectVideoRoute, { params: { id: video.id } });
      list.replace(reply.video);
      setNotice({ kind: 'info', text: `"${reply.video.title}" is ${decision === 'approve' ? 'approved' : 'rejected'}.` });
    } catch (error) {
      if (isForbidden(error)) deny();
      else setNotice({ kind: 'error', text: errorText(error, `Failed to ${decision} the video.`) });
    } finally {
      mark(video.id, false);
    }
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    const { video } = deleting;
    setDeleting({ video, busy: true, error: null });
    try {
      await request(adminDeleteVideoRoute, { params: { id: video.id } });
      list.remove(video.id);
      setDeleting(null);
      setNotice({ kind: 'info', text: `"${video.title}" was deleted.` });
    } catch (error) {
      if (isForbidden(error)) deny();
      else setDeleting({ video, busy: false, error: errorText(error, 'Failed to delete the video.') });
    }
  };

  if (list.status === 'error' && isForbidden(list.error)) return <AccessDenied />;

  return (
    <div className="admin-section">
      <div className="admin-filters" role="search" aria-label="Filter videos">
        <div className="field">
          <label className="field__label" htmlFor={`${ids}-status`}>
            Status
          </label>
          <select id={`${ids}-status`} className="field__control" value={status} onChange={(e) => setStatus(e.target.value as ModerationFilter | 'all')}>
            {MODERATION_FILTERS.map((s) => (
              <option key={s} value={s}>
                {FILTER_LABELS[s]}
              </option>
            ))}
            <option value="all">All</option>
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${ids}-q`}>
            Search videos
          </label>
          <input
            id={`${ids}-q`}
            className="field__control"
            type="search"
            maxLength={VIDEO_SEARCH_MAX_CHARS}
            placeholder="Title, creator name or username"
            value={q}
            onChange={(e) => setQ(e.target.value)}
          />
        </div>
      </div>

      {notice && <StatusMessage kind={notice.kind} title={notice.text} />}

      {list.status === 'loading' ? (
        <StatusMessage kind="loading" title="Loading videos..." />
      ) : list.status === 'error' ? (
        <StatusMessage kind="error" title={errorText(list.error, 'Failed to load videos.')}>
          <button type="button" className="button button--ghost" onClick={() => setAttempt((n) => n + 1)}>
            Try again
          </button>
        </StatusMessage>
      ) : list.items.length === 0 ? (
        <p className="admin__empty">No videos match these filters.</p>
      ) : (
        <VideoTable
          videos={list.items}
          busy={busy}
          onApprove={(video) => void decide(video, 'approve')}
          onReject={(video) => void decide(video, 'reject')}
          onDelete={(video) => setDeleting({ video, busy: false, error: null })}
        />
      )}
      <LoadMore next={list.next} more={list.more} moreError={list.moreError} onLoadMore={list.loadMore} />

      {deleting && (
        <ConfirmDialog
          title="Delete video?"
          confirmLabel="Delete video"
          busy={deleting.busy}
          error={deleting.error}
          onConfirm={() => void confirmDelete()}
          onCancel={() => setDeleting(null)}
        >
          <p>
            Delete <strong>{deleting.video.title}</strong> by {deleting.video.creator.display_name} (@{deleting.video.creator.username})? The video and its files
            are removed. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
