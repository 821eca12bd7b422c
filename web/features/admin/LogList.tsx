import type { AdminLogEntry } from '../../../shared/schemas/admin.ts';
import { logLine } from './adminFigures.ts';
import { AdminTable } from './AdminTable.tsx';

/** Admin log entries: time, admin, action, target and details. */
export function LogList({ entries, label }: { entries: AdminLogEntry[]; label: string }) {
  return (
    <AdminTable caption={label} columns={['Time', 'Admin', 'Action', 'Target', 'Details']}>
      {entries.map((entry) => logLine(entry)).map((line) => (
        <tr key={line.key}>
          <td>
            <time dateTime={line.iso}>{line.time}</time>
          </td>
          <td>{line.admin}</td>
          <td>{line.action}</td>
          <td className="admin-table__mono">{line.target}</td>
          <td className="admin-table__mono admin-table__details">{line.details}</td>
        </tr>
      ))}
    </AdminTable>
  );
}
