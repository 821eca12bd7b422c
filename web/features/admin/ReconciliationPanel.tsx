import { useId, useState } from 'react';
import { paymentReconciliationsRoute, runPaymentReconciliationRoute, type PaymentReconciliation } from '../../../shared/schemas/admin-orders.ts';
import { StatusMessage } from '../../components/StatusMessage.tsx';
import { request } from '../../lib/api.ts';
import { useApiRead } from '../../lib/useApiRead.ts';
import { useDenyAccess } from './AccessDenied.tsx';
import { errorText, isForbidden } from './adminAccess.ts';
import { shortOrderId } from './adminRules.ts';

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * The daily payment reconciliation on the Orders tab: its latest run (the provider's succeeded
 * payments held against the orders: how many were in order, which orders were repaired, which
 * payments refunded) and a button that runs it now.
 */
export function ReconciliationPanel() {
  const ids = useId();
  const deny = useDenyAccess();
  const [attempt, setAttempt] = useState(0);
  const [running, setRunning] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const read = useApiRead(`reconciliations#${attempt}`, (signal) => request(paymentReconciliationsRoute, { signal }));

  const runNow = async () => {
    setRunning(true);
    setFailure(null);
    try {
      await request(runPaymentReconciliationRoute, {});
      setAttempt((n) => n + 1);
    } catch (error) {
      if (isForbidden(error)) deny();
      else setFailure(errorText(error, 'Failed to run the payment reconciliation.'));
    } finally {
      setRunning(false);
    }
  };

  return (
    <section className="admin-card admin-reconciliation" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`} className="admin-card__title">
        Payment reconciliation
      </h2>
      {read.status === 'loading' && <p className="admin-card__note">Loading...</p>}
      {read.status === 'error' && <p className="admin-card__note">{errorText(read.error, 'Failed to load the payment reconciliation.')}</p>}
      {read.status === 'ready' && <ReconciliationSummary run={read.data.runs[0] ?? null} />}
      {failure && <StatusMessage kind="error" title={failure} />}
      <button type="button" className="button button--ghost" onClick={() => void runNow()} disabled={running}>
        {running ? 'Running...' : 'Run now'}
      </button>
    </section>
  );
}

export function ReconciliationSummary({ run }: { run: PaymentReconciliation | null }) {
  if (!run) return <p className="admin-card__note">Not run yet: it runs every day at 03:00 UTC.</p>;
  return (
    <>
      <p className="admin-card__note">
        Last run <time dateTime={run.ran_at}>{when(run.ran_at)}</time>: {run.checked} payments since <time dateTime={run.since}>{when(run.since)}</time>,{' '}
        {run.in_order} in order, {run.repaired.length} repaired, {run.refunded.length} refunded.
      </p>
      {run.repaired.length + run.refunded.length > 0 && (
        <ul className="admin-reconciliation__list" aria-label="What the last run changed">
          {run.repaired.map((r) => (
            <li key={`repaired-${r.session_id}`}>
              Order {shortOrderId(r.order_id)} paid ({r.effect.replace(' -> ', ' → ')})
            </li>
          ))}
          {run.refunded.map((r) => (
            <li key={`refunded-${r.session_id}`}>
              Payment {r.session_id} refunded{r.order_id ? ` (order ${shortOrderId(r.order_id)})` : ''}: {r.why}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
