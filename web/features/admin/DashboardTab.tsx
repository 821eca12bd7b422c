import { useId, useState } from 'react';
import { dashboardStatsRoute, type AdminLogEntry, type DashboardStats } from '../../../shared/schemas/admin.ts';
import { StatusMessage } from '../../components/StatusMessage.tsx';
import { request } from '../../lib/api.ts';
import { useApiRead } from '../../lib/useApiRead.ts';
import { AccessDenied } from './AccessDenied.tsx';
import { errorText, isForbidden } from './adminAccess.ts';
import { dashboardCards } from './adminFigures.ts';
import { LogList } from './LogList.tsx';

/** The dashboard's figures and the 10 newest admin log entries. */
export function DashboardTab() {
  const [attempt, setAttempt] = useState(0);
  const read = useApiRead(`dashboard#${attempt}`, (signal) => request(dashboardStatsRoute, { signal }));

  if (read.status === 'loading') return <StatusMessage kind="loading" title="Loading the dashboard..." />;
  if (read.status === 'error') {
    if (isForbidden(read.error)) return <AccessDenied />;
    return (
      <StatusMessage kind="error" title={errorText(read.error, 'Failed to load the dashboard.')}>
        <button type="button" className="button button--ghost" onClick={() => setAttempt((n) => n + 1)}>
          Try again
        </button>
      </StatusMessage>
    );
  }
  return <DashboardView stats={read.data.stats} recent={read.data.recent_activity} />;
}

export function DashboardView({ stats, recent }: { stats: DashboardStats; recent: AdminLogEntry[] }) {
  const ids = useId();
  return (
    <div className="admin-dashboard">
      <ul className="admin-cards" aria-label="Statistics">
        {dashboardCards(stats).map((card) => (
          <li key={card.id} className="admin-card">
            <h2 className="admin-card__title">{card.title}</h2>
            <p className="admin-card__value">{card.value}</p>
            {card.note && <p className="admin-card__note">{card.note}</p>}
          </li>
        ))}
      </ul>
      <section aria-labelledby={`${ids}-recent`}>
        <h2 id={`${ids}-recent`} className="admin__heading">
          Recent activity
        </h2>
        {recent.length === 0 ? <p className="admin__empty">No admin actions yet.</p> : <LogList entries={recent} label="Recent admin actions" />}
      </section>
    </div>
  );
}
