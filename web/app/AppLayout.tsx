import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { StatusMessage } from '../components/StatusMessage.tsx';
import { MaintenanceBanner } from '../features/admin/MaintenanceBanner.tsx';
import { Footer } from '../features/layout/Footer.tsx';
import { CartButton } from '../features/cart/CartButton.tsx';
import { Navbar } from '../features/layout/Navbar.tsx';
import { Sidebar } from '../features/layout/Sidebar.tsx';
import { usePendingPayoutSetup } from '../features/payouts/usePendingPayoutSetup.ts';
import './AppLayout.css';

/** The shell every page shares; pages load lazily into <main> while the shell stays. */
export function AppLayout() {
  // Payout details entered before signing up (payment setup's new_user flow) are saved once a creator signs in.
  usePendingPayoutSetup();
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <MaintenanceBanner />
      <Navbar cartButton={<CartButton />} />
      <div className="app__body">
        <Sidebar />
        <div className="app__column">
          <main id="main" className="app__main" tabIndex={-1}>
            <Suspense fallback={<StatusMessage kind="loading" title="Loading..." />}>
              <Outlet />
            </Suspense>
          </main>
          <Footer />
        </div>
      </div>
    </div>
  );
}
