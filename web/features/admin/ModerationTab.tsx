import { useState } from 'react';
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
import { useDenyAccess } from './AccessDenied.tsx';
import { errorText, isForbidden } from './adminAccess.ts';
import { listKey, SEARCH_DEBOUNCE_MS, VIDEO_SEARCH_MAX_CHARS, videosQuery, type VideoFilters } from './adminRules.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { FilterBar, SearchField, SelectField } from './FilterFields.tsx';
import { PagedListBody } from './PagedListBody.tsx';
import { useBusyIds } from './useBusyIds.ts';
import { useDebouncedValue } from './useDebouncedValue.ts';
import { usePagedList } from './usePagedList.ts';
import { VideoTable } from './VideoTable.tsx';

type Notice = { kind: 'info' | 'error'; text: string } | null;
const FILTER_LABELS: Record<ModerationFilter, string> = { pending: 'Pending', approved: 'Approved', rejected: 'Rejected' };
const STATUS_OPTIONS = [...MODERATION_FILTERS.map((s) => ({ value: s, label: FILTER_LABELS[s] })), { value: 'all', label: 'All' }] as const;

/** Content Moderation: videos by status and text, approve, reject and delete; Load more. */
export function ModerationTab() {
  const deny = useDenyAccess();
  const [q, setQ] = useState('');
  const [status, setStatus] = useState<ModerationFilter | 'all'>('pending');
  const [attempt, setAttempt] = useState(0);
  const [notice, setNotice] = useState<Notice>(null);
  const { busy, mark } = useBusyIds();
  const [deleting, setDeleting] = useState<{ video: ModerationVideo; busy: boolean; error: string | null } | null>(null);

  const filters: VideoFilters = { q: useDebouncedValue(q, SEARCH_DEBOUNCE_MS), status };
  const list = usePagedList<ModerationVideo>(listKey(videosQuery(filters), attempt), async (cursor, signal) => {
    const reply = await request(adminVideosRoute, { query: videosQuery(filters, cursor), signal });
    return { items: reply.videos, next: reply.next_cursor };
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

  return (
    <div className="admin-section">
      <FilterBar label="Filter videos">
        <SelectField label="Status" value={status} options={STATUS_OPTIONS} onChange={setStatus} />
        <SearchField label="Search videos" placeholder="Title, creator name or username" maxLength={VIDEO_SEARCH_MAX_CHARS} value={q} onChange={setQ} />
      </FilterBar>

      {notice && <StatusMessage kind={notice.kind} title={notice.text} />}

      <PagedListBody list={list} noun="videos" onRetry={() => setAttempt((n) => n + 1)}>
        {(videos) => (
          <VideoTable
            videos={videos}
            busy={busy}
            onApprove={(video) => void decide(video, 'approve')}
            onReject={(video) => void decide(video, 'reject')}
            onDelete={(video) => setDeleting({ video, busy: false, error: null })}
          />
        )}
      </PagedListBody>

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
