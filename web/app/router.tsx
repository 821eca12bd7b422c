import { createBrowserRouter, type RouteObject } from 'react-router';
import { AppLayout } from './AppLayout.tsx';
import { lazyPage } from './lazyPage.ts';
import { RouteError } from './RouteError.tsx';

// Every page is its own chunk; the shell (navbar, sidebar, footer) is in the entry.
const HomePage = lazyPage(() => import('../features/feed/HomePage.tsx'), 'HomePage');
const VideoRoute = lazyPage(() => import('./routes/VideoRoute.tsx'), 'VideoRoute');
const PrivacyPolicyPage = lazyPage(() => import('../features/legal/PrivacyPolicyPage.tsx'), 'PrivacyPolicyPage');
const TermsOfServicePage = lazyPage(() => import('../features/legal/TermsOfServicePage.tsx'), 'TermsOfServicePage');
const ComingSoonPage = lazyPage(() => import('../features/coming-soon/ComingSoonPage.tsx'), 'ComingSoonPage');
const LoginPage = lazyPage(() => import('../features/auth/LoginPage.tsx'), 'LoginPage');
const DevMailPage = lazyPage(() => import('../features/dev-mail/DevMailPage.tsx'), 'DevMailPage');
const UploadPage = lazyPage(() => import('../features/upload/UploadPage.tsx'), 'UploadPage');
const ChannelPage = lazyPage(() => import('../features/channel/ChannelPage.tsx'), 'ChannelPage');
const ProfilePage = lazyPage(() => import('../features/channel/ProfilePage.tsx'), 'ProfilePage');
const SearchPage = lazyPage(() => import('../features/channel/SearchPage.tsx'), 'SearchPage');
const DashboardPage = lazyPage(() => import('../features/studio/DashboardPage.tsx'), 'DashboardPage');
const AdminPage = lazyPage(() => import('../features/admin/AdminPage.tsx'), 'AdminPage');
const TestCropToolPage = lazyPage(() => import('../features/print-crop/TestCropToolPage.tsx'), 'TestCropToolPage');
const MerchandiseRoute = lazyPage(() => import('./routes/MerchandiseRoute.tsx'), 'MerchandiseRoute');
const ProductRoute = lazyPage(() => import('./routes/ProductRoute.tsx'), 'ProductRoute');
const CheckoutPage = lazyPage(() => import('../features/checkout/CheckoutPage.tsx'), 'CheckoutPage');
const SuccessPage = lazyPage(() => import('../features/checkout/SuccessPage.tsx'), 'SuccessPage');
const OrderPage = lazyPage(() => import('../features/checkout/OrderPage.tsx'), 'OrderPage');
const PaymentSetupPage = lazyPage(() => import('../features/payouts/PaymentSetupPage.tsx'), 'PaymentSetupPage');
const PaymentPortalPage = lazyPage(() => import('../features/payouts/PaymentPortalPage.tsx'), 'PaymentPortalPage');
const SubscriptionTiersPage = lazyPage(() => import('../features/subscriptions/SubscriptionTiersPage.tsx'), 'SubscriptionTiersPage');
const SubscriptionSuccessPage = lazyPage(() => import('../features/subscriptions/SubscriptionSuccessPage.tsx'), 'SubscriptionSuccessPage');
const ApproveSubscriptionRoute = lazyPage(() => import('./routes/ApproveSubscriptionRoute.tsx'), 'ApproveSubscriptionRoute');
const NotFoundPage = lazyPage(() => import('../features/not-found/NotFoundPage.tsx'), 'NotFoundPage');

export const routes: RouteObject[] = [
  {
    path: '/',
    Component: AppLayout,
    // Only when the shell itself fails; page errors stay inside the shell below.
    ErrorBoundary: RouteError,
    children: [
      {
        ErrorBoundary: RouteError,
        children: [
          { index: true, Component: HomePage },
          { path: 'video/:categoryId/:videoId', Component: VideoRoute },
          { path: 'upload', Component: UploadPage },
          { path: 'channel/:channelName', Component: ChannelPage },
          { path: 'profile/:username', Component: ProfilePage },
          { path: 'search', Component: SearchPage },
          { path: 'dashboard', Component: DashboardPage },
          // The admin portal; the tab is in ?tab= (users, moderation, settings, logs).
          { path: 'admin', Component: AdminPage },
          { path: 'privacy-policy', Component: PrivacyPolicyPage },
          { path: 'terms-of-service', Component: TermsOfServicePage },
          { path: 'coming-soon', Component: ComingSoonPage },
          // One screen for both; it reads its mode from the path.
          { path: 'login', Component: LoginPage },
          { path: 'signup', Component: LoginPage },
          // The spec's auth screen: the sign-in page, both ways in, the same safe return.
          { path: 'auth', Component: LoginPage },
          { path: 'dev/mail', Component: DevMailPage },
          { path: 'test-crop-tool', Component: TestCropToolPage },
          { path: 'merchandise', Component: MerchandiseRoute },
          // One screen: browsing a category before any screenshot exists, or a merch product.
          { path: 'product/browse', Component: ProductRoute },
          { path: 'product/:productId', Component: ProductRoute },
          { path: 'checkout', Component: CheckoutPage },
          { path: 'success', Component: SuccessPage },
          // The buyer's order, from the secret link (?token=) in the confirmation email.
          { path: 'orders/:id', Component: OrderPage },
          { path: 'payment-setup', Component: PaymentSetupPage },
          { path: 'payment-portal', Component: PaymentPortalPage },
          { path: 'subscription-tiers', Component: SubscriptionTiersPage },
          // Where the subscription checkout returns (?session_id=...): verification, then next steps.
          { path: 'subscription-success', Component: SubscriptionSuccessPage },
          // The approval email's link (?email=...&token=...): signed, 24 hours, single use.
          { path: 'approve-subscription', Component: ApproveSubscriptionRoute },
          { path: '*', Component: NotFoundPage },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
