import { DpiBadge } from '../../components/DpiBadge.tsx';
import type { SizeRow } from './printSizes.ts';

/** Every print size for the crop as it stands: the spec's status and the DPI badge. */
export function PrintSizeTable({ rows, chosenId }: { rows: readonly SizeRow[]; chosenId: string }) {
  return (
    <table className="crop-tool__targets" aria-label="Print targets">
      <thead>
        <tr>
          <th scope="col">Target</th>
          <th scope="col">Status</th>
          <th scope="col">DPI</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.size.id} aria-current={row.size.id === chosenId || undefined} className={row.size.id === chosenId ? 'crop-tool__chosen-row' : undefined}>
            <th scope="row">{row.size.id}</th>
            <td className={row.status === 'OK for Print' ? 'crop-tool__ok' : 'crop-tool__small'}>{row.status}</td>
            <td>
              <DpiBadge dpi={row.dpi} label={row.size.label} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
