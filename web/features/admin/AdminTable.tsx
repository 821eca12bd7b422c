import type { ReactNode } from 'react';

interface AdminTableProps {
  /** The table's name for assistive technology (a visually hidden caption). */
  caption: string;
  /** Column headings; a heading in `hidden` is read aloud but not shown (an actions column). */
  columns: readonly string[];
  hidden?: readonly string[];
  /** The rows (<tr>). */
  children: ReactNode;
}

/** An admin list as a table that scrolls sideways on narrow screens. */
export function AdminTable({ caption, columns, hidden = [], children }: AdminTableProps) {
  return (
    <div className="admin-table-wrap">
      <table className="admin-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col">
                {hidden.includes(c) ? <span className="visually-hidden">{c}</span> : c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
