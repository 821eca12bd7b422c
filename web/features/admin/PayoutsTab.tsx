import { useId, useState } from 'react';
import { formatCents } from '../../../shared/money.ts';
import { ADMIN_PAGE_SIZE } from '../../../shared/schemas/admin.ts';
import { adminPayoutRunsRoute, adminPayoutsRoute, retryPayoutRoute, type AdminPayoutRow, type PayoutRunRow } from '../../../shared/schemas/admin-payouts.ts';
import { achFileRoute, confirmAchUploadRoute, runPayoutsRoute, type PayoutStatus } from '../../../shared/schemas/payouts.ts';
import { StatusMessage } from '../../components/StatusMessage.tsx';
import { buildUrl, request } from '../../lib/api.ts';
import { useDenyAccess } from './AccessDenied.tsx';
import { errorText, isForbidden } from './adminAccess.ts';
import { AdminTable } from './AdminTable.tsx';
import { currentPeriod, listKey, PAYOUT_METHOD_LABELS, PAYOUT_RUNS_PAGE_SIZE, PAYOUT_STATUSES, payoutsQuery, payoutStatusLabel, type PayoutFilters } from './adminRules.ts';
import { FilterBar, SelectField } from './FilterFields.tsx';
import { PagedListBody } from './PagedListBody.tsx';
import { useBusyIds } from './useBusyIds.ts';
import { usePagedList } from './usePagedList.ts';

type Notice = { kind: 'info' | 'error'; text: string } | null;
const STATUS_OPTIONS: readonly { value: PayoutStatus | 'all'; label: string }[] = [
  { value: 'all', label: 'All' },
  ...PAYOUT_STATUSES.map((s) => ({ value: s, label: payoutStatusLabel(s) })),
];
const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Payouts: the monthly runs (run one now, the ACH file and its upload), each payout's state, retry a failed one. */
export function PayoutsTab() {
  const deny = useDenyAccess();
  const [notice, setNotice] = useState<Notice>(null);
  const [runsAttempt, setRunsAttempt] = useState(0);
  const [filters, setFilters] = useState<PayoutFilters>({ period: 'all', status: 'all' });
  const [attempt, setAttempt] = useState(0);
  const { busy, mark } = useBusyIds();

  const runs = usePagedList<PayoutRunRow & { id: string }>(listKey({ runs: PAYOUT_RUNS_PAGE_SIZE }, runsAttempt), async (cursor, signal) => {
    const reply = await request(adminPayoutRunsRoute, { query: { limit: PAYOUT_RUNS_PAGE_SIZE, cursor }, signal });
    return { items: reply.runs.map((r) => ({ ...r, id: r.period })), next: reply.next_cursor };
  });
  const payouts = usePagedList<AdminPayoutRow>(listKey(payoutsQuery(filters, ADMIN_PAGE_SIZE), attempt), async (cursor, signal) => {
    const reply = await request(adminPayoutsRoute, { query: payoutsQuery(filters, ADMIN_PAGE_SIZE, cursor), signal });
    return { items: reply.payouts, next: reply.next_cursor };
  });

  const failed = (error: unknown, fallback: string) => {
    if (isForbidden(error)) deny();
    else setNotice({ kind: 'error', text: errorText(error, fallback) });
  };
  const refresh = () => {
    setRunsAttempt((n) => n + 1);
    setAttempt((n) => n + 1);
  };

  const run = async (period: string) => {
    mark(`run:${period}`, true);
    setNotice(null);
    try {
      const reply = await request(runPayoutsRoute, { body: { period } });
      const r = reply.run;
      setNotice({ kind: 'info', text: `Run ${period}: ${r.created} new, ${r.paid} paid, ${r.processing} processing, ${r.failed} failed, ${r.waiting} waiting, ${r.errors} to try again.` });
      refresh();
    } catch (error) {
      failed(error, `Failed to run the payouts of ${period}.`);
    } finally {
      mark(`run:${period}`, false);
    }
  };

  const confirmAch = async (period: string) => {
    mark(`ach:${period}`, true);
    setNotice(null);
    try {
      const reply = await request(confirmAchUploadRoute, { params: { period } });
      setNotice({ kind: 'info', text: `${reply.confirmed} ACH payout${reply.confirmed === 1 ? '' : 's'} of ${period} marked paid.` });
      refresh();
    } catch (error) {
      failed(error, `Failed to confirm the ACH file of ${period}.`);
    } finally {
      mark(`ach:${period}`, false);
    }
  };

  const retry = async (payout: AdminPayoutRow) => {
    mark(payout.id, true);
    setNotice(null);
    try {
      const reply = await request(retryPayoutRoute, { params: { id: payout.id } });
      payouts.replace(reply.payout);
      setNotice({ kind: 'info', text: reply.message });
      setRunsAttempt((n) => n + 1);
    } catch (error) {
      failed(error, 'Failed to retry the payout.');
    } finally {
      mark(payout.id, false);
    }
  };

  const periodOptions = [{ value: 'all', label: 'All' }, ...runs.items.map((r) => ({ value: r.period, label: r.period }))];

  return (
    <div className="admin-section">
      {notice && <StatusMessage kind={notice.kind} title={notice.text} />}
      <RunForm busy={[...busy].some((key) => key.startsWith('run:'))} onRun={(period) => void run(period)} />

      <h2 className="admin__heading">Runs</h2>
      <PagedListBody list={runs} noun="payout runs" onRetry={() => setRunsAttempt((n) => n + 1)}>
        {(rows) => (
          <AdminTable caption="Payout runs by period" columns={['Period', 'Payouts', 'Amount', 'Fees', 'Pending', 'Processing', 'Paid', 'Failed', 'ACH file']}>
            {rows.map((r) => (
              <tr key={r.period}>
                <th scope="row">
                  <button type="button" className="admin-link" onClick={() => setFilters((f) => ({ ...f, period: r.period }))}>
                    {r.period}
                  </button>
                </th>
                <td>{r.payouts}</td>
                <td>{formatCents(r.amount_cents)}</td>
                <td>{formatCents(r.fee_cents)}</td>
                <td>{r.pending}</td>
                <td>{r.processing}</td>
                <td>{r.paid}</td>
                <td>{r.failed}</td>
                <td>
                  {r.ach > 0 ? (
                    <div className="admin-actions">
                      <a className="button button--ghost" href={buildUrl(achFileRoute.url, { period: r.period })} download>
                        Download
                      </a>
                      <button type="button" className="button button--ghost" disabled={busy.has(`ach:${r.period}`)} onClick={() => void confirmAch(r.period)}>
                        Confirm upload
                      </button>
                    </div>
                  ) : (
                    '—'
                  )}
                </td>
              </tr>
            ))}
          </AdminTable>
        )}
      </PagedListBody>

      <h2 className="admin__heading">Payouts</h2>
      <FilterBar label="Filter payouts">
        <SelectField label="Period" value={filters.period} options={periodOptions} onChange={(period) => setFilters((f) => ({ ...f, period }))} />
        <SelectField label="Status" value={filters.status} options={STATUS_OPTIONS} onChange={(status) => setFilters((f) => ({ ...f, status }))} />
      </FilterBar>
      <PagedListBody list={payouts} noun="payouts" onRetry={() => setAttempt((n) => n + 1)}>
        {(rows) => (
          <AdminTable caption="Payouts" columns={['Creator', 'Period', 'Method', 'Amount', 'Status', 'Updated', 'Actions']} hidden={['Actions']}>
            {rows.map((p) => (
              <tr key={p.id}>
                <th scope="row" id={`admin-payout-${p.id}`}>
                  {p.creator.username ? `@${p.creator.username}` : 'Deleted account'}
                  {p.creator.email && <span className="admin-muted"> {p.creator.email}</span>}
                </th>
                <td>{p.period}</td>
                <td>{PAYOUT_METHOD_LABELS[p.method]}</td>
                <td>
                  {formatCents(p.amount_cents)}
                  {p.fee_cents > 0 && <span className="admin-muted"> (fee {formatCents(p.fee_cents)})</span>}
                </td>
                <td>
                  <span className={`admin-badge admin-badge--payout-${p.status}`}>{payoutStatusLabel(p.status)}</span>
                  {p.failure_reason && <p className="field__error">{p.failure_reason}</p>}
                </td>
                <td>
                  <time dateTime={p.updated_at}>{when(p.updated_at)}</time>
                </td>
                <td>
                  {p.status === 'failed' && (
                    <button
                      type="button"
                      className="button button--ghost"
                      aria-describedby={`admin-payout-${p.id}`}
                      disabled={!p.can_retry || busy.has(p.id)}
                      onClick={() => void retry(p)}
                    >
                      Retry
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </AdminTable>
        )}
      </PagedListBody>
    </div>
  );
}

/** Runs a month's payouts now (each 1st runs the month by itself; a repeat pays no one twice). */
function RunForm({ busy, onRun }: { busy: boolean; onRun: (period: string) => void }) {
  const id = useId();
  const [period, setPeriod] = useState(currentPeriod);
  return (
    <form
      className="admin-filters"
      onSubmit={(e) => {
        e.preventDefault();
        onRun(period);
      }}
    >
      <div className="field">
        <label className="field__label" htmlFor={id}>
          Run payouts for
        </label>
        <input id={id} className="field__control" type="month" required max={currentPeriod()} value={period} onChange={(e) => setPeriod(e.target.value)} />
      </div>
      <button type="submit" className="button button--primary admin-filters__submit" disabled={busy || !/^\d{4}-\d{2}$/.test(period)}>
        {busy ? 'Running...' : 'Run now'}
      </button>
    </form>
  );
}
