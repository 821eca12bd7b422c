import { useId } from 'react';
import { Link, useSearchParams } from 'react-router';
import { AUTH_MESSAGES } from '../../../shared/schemas/auth.ts';
import { SignInButton } from '../../components/SignInButton.tsx';
import { StatusMessage } from '../../components/StatusMessage.tsx';
import { Tabs } from '../../components/Tabs.tsx';
import { isCreator } from '../../stores/roles.ts';
import { useAuth } from '../../stores/useAuth.ts';
import { usePassedMessage } from '../../lib/passedMessage.ts';
import { useDocumentTitle } from '../../lib/useDocumentTitle.ts';
import { AnalyticsTab } from './AnalyticsTab.tsx';
import { ProfileTab } from './ProfileTab.tsx';
import { VideosTab } from './VideosTab.tsx';
import './DashboardPage.css';

const TABS = [
  { id: 'videos', label: 'Videos' },
  { id: 'analytics', label: 'Analytics' },
  { id: 'profile', label: 'Profile' },
] as const;
type TabId = (typeof TABS)[number]['id'];

/** /dashboard: the creator studio. Creators and admins only; everyone else sees Access denied. */
export function DashboardPage() {
  useDocumentTitle('Dashboard');
  const status = useAuth((s) => s.status);
  const user = useAuth((s) => s.user);

  if (status === 'loading' || status === 'pending') return <StatusMessage kind="loading" title="Loading..." />;
  if (!user) {
    return (
      <StatusMessage kind="error" title={AUTH_MESSAGES.accessDenied}>
        <p>Sign in with your creator account to open the dashboard.</p>
        <SignInButton />
      </StatusMessage>
    );
  }
  if (!isCreator(user)) {
    return (
      <StatusMessage kind="error" title={AUTH_MESSAGES.accessDenied}>
        <p>The dashboard is for creators.</p>
        <Link to="/">Back to the home page</Link>
      </StatusMessage>
    );
  }
  return <Studio key={user.id} />;
}

function Studio() {
  const [params, setParams] = useSearchParams();
  const current: TabId = TABS.find((t) => t.id === params.get('tab'))?.id ?? 'videos';
  const ids = useId();
  const passed = usePassedMessage();

  return (
    <section className="studio" aria-labelledby={`${ids}-heading`}>
      <div className="studio__top">
        <h1 id={`${ids}-heading`} className="studio__title">
          Creator dashboard
        </h1>
        <div className="studio__top-links">
          <Link className="button button--ghost" to="/payment-portal">
            Payment portal
          </Link>
          <Link className="button button--primary" to="/upload">
            Upload video
          </Link>
        </div>
      </div>
      {passed && <StatusMessage kind="info" title={passed} />}
      <Tabs label="Dashboard sections" tabs={TABS} current={current} onSelect={(tab) => setParams(tab === 'videos' ? {} : { tab }, { replace: true })}>
        {current === 'videos' ? <VideosTab /> : current === 'analytics' ? <AnalyticsTab /> : <ProfileTab />}
      </Tabs>
    </section>
  );
}
