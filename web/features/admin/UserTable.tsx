import type { AdminUserRow } from '../../../shared/schemas/admin.ts';
import { userActions } from './adminRules.ts';
import { AdminTable } from './AdminTable.tsx';

interface UserTableProps {
  users: AdminUserRow[];
  selfId: string | null;
  busy: ReadonlySet<string>;
  onSuspend: (user: AdminUserRow) => void;
  onActivate: (user: AdminUserRow) => void;
  onDelete: (user: AdminUserRow) => void;
}

const date = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });

/** The user list: one row a user, with the actions spec section 4 allows for their status. */
export function UserTable({ users, selfId, busy, onSuspend, onActivate, onDelete }: UserTableProps) {
  return (
    <AdminTable caption="Users" columns={['Name', 'Username', 'Email', 'Role', 'Status', 'Created', 'Actions']}>
      {users.map((user) => {
        const actions = userActions(user, selfId, busy.has(user.id));
        const nameId = `admin-user-${user.id}`;
        return (
          <tr key={user.id}>
            <th scope="row" id={nameId}>
              {user.display_name}
              {user.id === selfId && <span className="admin-badge admin-badge--self">You</span>}
            </th>
            <td>@{user.username}</td>
            <td>{user.email}</td>
            <td>
              {user.role === 'creator' ? 'Creator' : 'Customer'}
              {user.is_admin && <span className="admin-badge admin-badge--admin">Admin</span>}
            </td>
            <td>
              <span className={`admin-badge admin-badge--${user.status}`}>{user.status === 'active' ? 'Active' : 'Suspended'}</span>
            </td>
            <td>
              <time dateTime={user.created_at}>{date(user.created_at)}</time>
            </td>
            <td>
              <div className="admin-actions">
                {actions.suspend.shown && (
                  <button type="button" className="button button--ghost" aria-describedby={nameId} disabled={actions.suspend.disabled} onClick={() => onSuspend(user)}>
                    Suspend
                  </button>
                )}
                <button type="button" className="button button--ghost" aria-describedby={nameId} disabled={actions.activate.disabled} onClick={() => onActivate(user)}>
                  Activate
                </button>
                {actions.remove.shown && (
                  <button type="button" className="button button--ghost admin-danger" aria-describedby={nameId} disabled={actions.remove.disabled} onClick={() => onDelete(user)}>
                    Delete
                  </button>
                )}
              </div>
            </td>
          </tr>
        );
      })}
    </AdminTable>
  );
}
