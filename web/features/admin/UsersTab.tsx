import { useState } from 'react';
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
import { useDenyAccess } from './AccessDenied.tsx';
import { errorText, isForbidden } from './adminAccess.ts';
import { listKey, SEARCH_DEBOUNCE_MS, USER_PAGE_SIZES, usersQuery, type UserFilters } from './adminRules.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { FilterBar, SearchField, SelectField } from './FilterFields.tsx';
import { PagedListBody } from './PagedListBody.tsx';
import { useBusyIds } from './useBusyIds.ts';
import { useDebouncedValue } from './useDebouncedValue.ts';
import { usePagedList } from './usePagedList.ts';
import { UserTable } from './UserTable.tsx';

type Notice = { kind: 'info' | 'error'; text: string } | null;
const USER_STATUS_OPTIONS = [{ value: 'all', label: 'All' }, ...USER_STATUSES.map((s) => ({ value: s, label: s === 'active' ? 'Active' : 'Suspended' }))] as const;

/** User Management: search, status filter, page size, Load more; suspend, activate and delete. */
export function UsersTab({ selfId }: { selfId: string | null }) {
  const deny = useDenyAccess();
  const [q, setQ] = useState('');
  const [status, setStatus] = useState<UserStatus | 'all'>('all');
  const [limit, setLimit] = useState<number>(USER_PAGE_SIZES[0]);
  const [attempt, setAttempt] = useState(0);
  const [notice, setNotice] = useState<Notice>(null);
  const { busy, mark } = useBusyIds();
  const [deleting, setDeleting] = useState<{ user: AdminUserRow; busy: boolean; error: string | null } | null>(null);

  const filters: UserFilters = { q: useDebouncedValue(q, SEARCH_DEBOUNCE_MS), status, limit };
  const list = usePagedList<AdminUserRow>(listKey(usersQuery(filters), attempt), async (cursor, signal) => {
    const reply = await request(adminUsersRoute, { query: usersQuery(filters, cursor), signal });
    return { items: reply.users, next: reply.next_cursor };
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

  return (
    <div className="admin-section">
      <FilterBar label="Filter users">
        <SearchField label="Search users" placeholder="Name, username or email" maxLength={ADMIN_SEARCH_MAX_CHARS} value={q} onChange={setQ} />
        <SelectField label="Status" value={status} options={USER_STATUS_OPTIONS} onChange={setStatus} />
        <SelectField label="Per page" value={limit} options={USER_PAGE_SIZES.map((n) => ({ value: n, label: String(n) }))} onChange={setLimit} />
      </FilterBar>

      {notice && <StatusMessage kind={notice.kind} title={notice.text} />}

      <PagedListBody list={list} noun="users" onRetry={() => setAttempt((n) => n + 1)}>
        {(users) => (
          <UserTable
            users={users}
            selfId={selfId}
            busy={busy}
            onSuspend={(user) => void setUserStatus(user, 'suspend')}
            onActivate={(user) => void setUserStatus(user, 'activate')}
            onDelete={(user) => setDeleting({ user, busy: false, error: null })}
          />
        )}
      </PagedListBody>

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
