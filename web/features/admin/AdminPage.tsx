import { useId } from 'react';
import { useSearchParams } from 'react-router';
import { AUTH_MESSAGES } from '../../../shared/schemas/auth.ts';
import { SignInButton } from '../../components/SignInButton.tsx';
import { StatusMessage } from '../../components/StatusMessage.tsx';
import { Tabs } from '../../components/Tabs.tsx';
import { useDocumentTitle } from '../../lib/useDocumentTitle.ts';
import { useAuth } from '../../stores/useAuth.ts';
import { AccessDenied } from './AccessDenied.tsx';
import { ADMIN_TABS, adminAccess, tabFromParam, tabParams, type AdminTabId } from './adminAccess.ts';
import { DashboardTab } from './DashboardTab.tsx';
import { LogsTab } from './LogsTab.tsx';
import { ModerationTab } from './ModerationTab.tsx';
import { OrdersTab } from './OrdersTab.tsx';
import { PayoutsTab } from './PayoutsTab.tsx';
import { SettingsTab } from './SettingsTab.tsx';
import { SubscriptionsTab } from './SubscriptionsTab.tsx';
import { UsersTab } from './UsersTab.tsx';
import './AdminPage.css';

/**
 * /admin: the admin portal (spec section 2). Signed out it asks to sign in; a signed-in
 * non-admin is alerted and sent home (spec section 6). The tab is in the address (?tab=users),
 * so a reload keeps it.
 */
export function AdminPage() {
  useDocumentTitle('Admin portal');
  const status = useAuth((s) => s.status);
  const user = useAuth((s) => s.user);
  const access = adminAccess(status, user);

  if (access === 'loading') return <StatusMessage kind="loading" title="Loading..." />;
  if (access === 'signed-out') {
    return (
      <StatusMessage kind="error" title={AUTH_MESSAGES.notAuthenticated}>
        <p>Sign in with an admin account to open the admin portal.</p>
        <SignInButton />
      </StatusMessage>
    );
  }
  if (access === 'denied') return <AccessDenied />;
  return <AdminPortal key={user?.id} selfId={user?.id ?? null} />;
}

export function AdminPortal({ selfId }: { selfId: string | null }) {
  const [params, setParams] = useSearchParams();
  const current = tabFromParam(params.get('tab'));
  const ids = useId();
  return (
    <section className="admin" aria-labelledby={`${ids}-heading`}>
      <h1 id={`${ids}-heading`} className="admin__title">
        Admin portal
      </h1>
      <Tabs label="Admin sections" tabs={ADMIN_TABS} current={current} onSelect={(tab) => setParams(tabParams(tab), { replace: true })}>
        <TabPanel tab={current} selfId={selfId} />
      </Tabs>
    </section>
  );
}

function TabPanel({ tab, selfId }: { tab: AdminTabId; selfId: string | null }) {
  switch (tab) {
    case 'dashboard':
      return <DashboardTab />;
    case 'users':
      return <UsersTab selfId={selfId} />;
    case 'moderation':
      return <ModerationTab />;
    case 'subscriptions':
      return <SubscriptionsTab />;
    case 'orders':
      return <OrdersTab />;
    case 'payouts':
      return <PayoutsTab />;
    case 'settings':
      return <SettingsTab />;
    case 'logs':
      return <LogsTab />;
  }
}
