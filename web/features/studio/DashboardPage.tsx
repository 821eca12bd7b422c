import { useId, useRef, type KeyboardEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { AUTH_MESSAGES } from '../../../shared/schemas/auth.ts';
import { SignInButton } from '../../components/SignInButton.tsx';
import { StatusMessage } from '../../components/StatusMessage.tsx';
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
  const tabs = useRef<Partial<Record<TabId, HTMLButtonElement | null>>>({});
  const passed = usePassedMessage();

  const select = (tab: TabId, focus = false) => {
    setParams(tab === 'videos' ? {} : { tab }, { replace: true });
    if (focus) tabs.current[tab]?.focus();
  };

  // Arrow keys, Home and End move between tabs (the WAI-ARIA tabs pattern, automatic activation).
  const onKeyDown = (event: KeyboardEvent) => {
    const index = TABS.findIndex((t) => t.id === current);
    const last = TABS.length - 1;
    const targets: Record<string, number> = {
      ArrowRight: index === last ? 0 : index + 1,
      ArrowLeft: index === 0 ? last : index - 1,
      Home: 0,
      End: last,
    };
    const next = targets[event.key];
    if (next === undefined) return;
    event.preventDefault();
    select(TABS[next]!.id, true);
  };

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
      <div className="studio__tabs" role="tablist" aria-label="Dashboard sections" onKeyDown={onKeyDown}>
        {TABS.map((tab) => (
          <button
            key={tab.id}
            ref={(el) => void (tabs.current[tab.id] = el)}
            id={`${ids}-tab-${tab.id}`}
            type="button"
            role="tab"
            className="studio__tab"
            aria-selected={tab.id === current}
            aria-controls={`${ids}-panel`}
            tabIndex={tab.id === current ? 0 : -1}
            onClick={() => select(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div id={`${ids}-panel`} className="studio__panel" role="tabpanel" aria-labelledby={`${ids}-tab-${current}`}>
        {current === 'videos' ? <VideosTab /> : current === 'analytics' ? <AnalyticsTab /> : <ProfileTab />}
      </div>
    </section>
  );
}
