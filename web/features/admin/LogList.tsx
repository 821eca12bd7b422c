import type { AdminLogEntry } from '../../../shared/schemas/admin.ts';
import { logLine } from './adminFigures.ts';

/** Admin log entries: time, admin, action, target and details. */
export function LogList({ entries, label }: { entries: AdminLogEntry[]; label: string }) {
  return (
    <div className="admin-table-wrap">
      <table className="admin-table">
        <caption className="visually-hidden">{label}</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Admin</th>
            <th scope="col">Action</th>
            <th scope="col">Target</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
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
        </tbody>
      </table>
    </div>
  );
}
