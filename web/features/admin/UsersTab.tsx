import { useId, useState } from 'react';
import {
  activateUserRoute,
  ADMIN_SEARCH_MAX_CHARS,
  adminUsersRoute,
  deleteUserRoute,
  suspendUserRoute,
  USER_STATUSES,
  type AdminUserRow,
  type UserStatus,
} from '../../../shared/schemas/admin.ts';
import { StatusMessage } from '../../components/StatusMessage.tsx';
import { request } from '../../lib/api.ts';
import { AccessDenied, useDenyAccess } from './AccessDenied.tsx';
import { errorText, isForbidden } from './adminAccess.ts';
import { listKey, SEARCH_DEBOUNCE_MS, USER_PAGE_SIZES, usersQuery, type UserFilters } from './adminRules.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { LoadMore } from './LoadMore.tsx';
import { useDebouncedValue } from './useDebouncedValue.ts';
import { usePagedList } from './usePagedList.ts';
import { UserTable } from './UserTable.tsx';

type Notice = { kind: 'info' | 'error'; text: string } | null;

/** User Management: search, status filter, page size, Load more; suspend, activate and delete. */
export function UsersTab({ selfId }: { selfId: string | null }) {
  const ids = useId();
  const deny = useDenyAccess();
  const [q, setQ] = useState('');
  const [status, setStatus] = useState<UserStatus | 'all'>('all');
  const [limit, setLimit] = useState<number>(USER_PAGE_SIZES[0]);
  const [attempt, setAttempt] = useState(0);
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState<ReadonlySet<string>>(() => new Set());
  const [deleting, setDeleting] = useState<{ user: AdminUserRow; busy: boolean; error: string | null } | null>(null);

  const filters: UserFilters = { q: useDebouncedValue(q, SEARCH_DEBOUNCE_MS), status, limit };
  const list = usePagedList<AdminUserRow>(listKey(usersQuery(filters), attempt), async (cursor, signal) => {
    const reply = await request(adminUsersRoute, { query: usersQuery(filters, cursor), signal });
    return { items: reply.users, next: reply.next_cursor };
  });

  const mark = (id: string, on: boolean) =>
    setBusy((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const failed = (error: unknown, fallback: string) => {
    if (isForbidden(error)) deny();
    else setNotice({ kind: 'error', text: errorText(error, fallback) });
  };

  const setUserStatus = async (user: AdminUserRow, to: 'suspend' | 'activate') => {
    mark(user.id, true);
    setNotice(null);
    try {
      const route = to === 'suspend' ? suspendUserRoute : activateUserRoute;
      const reply = await request(route, { params: { id: user.id } });
      list.replace(reply.user);
      setNotice({ kind: 'info', text: reply.message });
    } catch (error) {
      failed(error, `Failed to ${to} ${user.display_name}.`);
    } finally {
      mark(user.id, false);
    }
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    const { user } = deleting;
    setDeleting({ user, busy: true, error: null });
    try {
      const reply = await request(deleteUserRoute, { params: { id: user.id }, body: { confirm: true } });
      list.remove(user.id);
      setDeleting(null);
      setNotice({ kind: 'info', text: reply.message });
    } catch (error) {
      if (isForbidden(error)) deny();
      else setDeleting({ user, busy: false, error: errorText(error, 'Failed to delete the user.') });
    }
  };

  if (list.status === 'error' && isForbidden(list.error)) return <AccessDenied />;

  return (
    <div className="admin-section">
      <div className="admin-filters" role="search" aria-label="Filter users">
        <div className="field">
          <label className="field__label" htmlFor={`${ids}-q`}>
            Search users
          </label>
          <input id={`${ids}-q`} className="field__control" type="search" maxLength={ADMIN_SEARCH_MAX_CHARS} placeholder="Name, username or email" value={q} onChange={(e) => setQ(e.target.value)} />
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${ids}-status`}>
            Status
          </label>
          <select id={`${ids}-status`} className="field__control" value={status} onChange={(e) => setStatus(e.target.value as UserStatus | 'all')}>
            <option value="all">All</option>
            {USER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s === 'active' ? 'Active' : 'Suspended'}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${ids}-limit`}>
            Per page
          </label>
          <select id={`${ids}-limit`} className="field__control" value={limit} onChange={(e) => setLimit(Number(e.target.value))}>
            {USER_PAGE_SIZES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </div>
      </div>

      {notice && <StatusMessage kind={notice.kind} title={notice.text} />}

      {list.status === 'loading' ? (
        <StatusMessage kind="loading" title="Loading users..." />
      ) : list.status === 'error' ? (
        <StatusMessage kind="error" title={errorText(list.error, 'Failed to load users.')}>
          <button type="button" className="button button--ghost" onClick={() => setAttempt((n) => n + 1)}>
            Try again
          </button>
        </StatusMessage>
      ) : list.items.length === 0 ? (
        <p className="admin__empty">No users match these filters.</p>
      ) : (
        <UserTable
          users={list.items}
          selfId={selfId}
          busy={busy}
          onSuspend={(user) => void setUserStatus(user, 'suspend')}
          onActivate={(user) => void setUserStatus(user, 'activate')}
          onDelete={(user) => setDeleting({ user, busy: false, error: null })}
        />
      )}
      <LoadMore next={list.next} more={list.more} moreError={list.moreError} onLoadMore={list.loadMore} />

      {deleting && (
        <ConfirmDialog
          title="Delete user?"
          confirmLabel="Delete user"
          busy={deleting.busy}
          error={deleting.error}
          onConfirm={() => void confirmDelete()}
          onCancel={() => setDeleting(null)}
        >
          <p>
            Delete <strong>{deleting.user.display_name}</strong> (@{deleting.user.username}, {deleting.user.email})? Their account, videos and files are removed.
            This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
