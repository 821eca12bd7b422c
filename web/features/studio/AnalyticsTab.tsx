import { useState } from 'react';
import { Link } from 'react-router';
import { formatCents } from '../../../shared/money.ts';
import { salesAnalyticsRoute, type SalesAnalytics } from '../../../shared/schemas/checkout.ts';
import { StatusMessage } from '../../components/StatusMessage.tsx';
import { request } from '../../lib/api.ts';
import { isApiError } from '../../lib/ApiError.ts';
import { useApiRead } from '../../lib/useApiRead.ts';
import { analyticsFigures, videoSourcePath } from './analyticsView.ts';

/** The creator's sales of merch made from their videos (spec section 3: sales analytics), with their 70 percent share. */
export function AnalyticsTab() {
  const [attempt, setAttempt] = useState(0);
  const state = useApiRead(`analytics#${attempt}`, (signal) => request(salesAnalyticsRoute, { signal }));
  if (state.status === 'loading') return <StatusMessage kind="loading" title="Loading your sales..." />;
  if (state.status === 'error') {
    return (
      <StatusMessage kind="error" title={isApiError(state.error) ? state.error.message : 'Failed to load your sales.'}>
        <button type="button" className="button button--ghost" onClick={() => setAttempt((n) => n + 1)}>
          Try again
        </button>
      </StatusMessage>
    );
  }
  return <Analytics data={state.data.analytics} onRefresh={() => setAttempt((n) => n + 1)} />;
}

function Analytics({ data, onRefresh }: { data: SalesAnalytics; onRefresh: () => void }) {
  return (
    <div className="studio-analytics">
      <dl className="studio-analytics__figures" aria-label="Sales figures">
        {analyticsFigures(data).map((f) => (
          <div key={f.label} className="studio-analytics__figure">
            <dt>{f.label}</dt>
            <dd>{f.value}</dd>
          </div>
        ))}
      </dl>
      <div className="studio-analytics__head">
        <h2 className="studio-profile__heading">Products sold</h2>
        <button type="button" className="button button--ghost" onClick={onRefresh}>
          Refresh
        </button>
      </div>
      {data.products_sold.length === 0 ? (
        <StatusMessage kind="info" title="No sales yet">
          <p>When someone buys merch made from one of your videos, it shows here.</p>
        </StatusMessage>
      ) : (
        <table className="studio-analytics__table">
          <caption className="visually-hidden">Products sold</caption>
          <thead>
            <tr>
              <th scope="col">Product</th>
              <th scope="col">Quantity</th>
              <th scope="col">Revenue</th>
              <th scope="col">Video source</th>
            </tr>
          </thead>
          <tbody>
            {data.products_sold.map((p, i) => {
              const path = videoSourcePath(p.video_source);
              return (
                <tr key={`${p.product}-${p.video_source.id ?? ''}-${i}`}>
                  <th scope="row">{p.product}</th>
                  <td>{p.quantity}</td>
                  <td>{formatCents(p.revenue_cents)}</td>
                  <td>{path ? <Link to={path}>{p.video_source.title}</Link> : p.video_source.title}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </div>
  );
}
