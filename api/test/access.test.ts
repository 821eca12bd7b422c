/**
 * The role table: every API route, the role it needs, and a request that reaches its handler.
 * Each row is tried as an anonymous visitor, a customer, a creator and an admin.
 */
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ROUTES } from '../../shared/schemas/index.ts';
import type { Access } from '../../shared/schemas/route.ts';
import { createSession, SESSION_COOKIE } from '../platform/sessions/sessions.ts';
import { createUser } from '../modules/accounts/index.ts';
import { ORIGIN } from './browser.ts';
import { testApp, testConfig, type TestApp } from './harness.ts';

type Role = 'anonymous' | 'customer' | 'creator' | 'admin';
const ROLES: Role[] = ['anonymous', 'customer', 'creator', 'admin'];
const ALLOWED: Record<Access, Role[]> = {
  public: ['anonymous', 'customer', 'creator', 'admin'],
  user: ['customer', 'creator', 'admin'],
  creator: ['creator', 'admin'],
  admin: ['admin'],
};

interface Row {
  method: string;
  url: string;
  needs: Access;
  /** The request to send as this user (ids are the caller's own where a route takes one). */
  request: (self: { id: string } | null) => InjectOptions;
}

const NO_USER = '00000000-0000-4000-8000-000000000000';
const NO_UPLOAD = '0123456789abcdef0123456789abcdef';

const TABLE: Row[] = [
  { method: 'GET', url: '/api/health', needs: 'public', request: () => ({ url: '/api/health' }) },
  // The app's clock: readable by admins; moving it is refused (409) unless TEST_CLOCK is on, as it is not here.
  { method: 'GET', url: '/api/admin/clock', needs: 'admin', request: () => ({ url: '/api/admin/clock' }) },
  { method: 'POST', url: '/api/admin/clock', needs: 'admin', request: () => ({ method: 'POST', url: '/api/admin/clock', payload: { to: '2999-01-01T00:00:00Z' } }) },
  // The admin portal: figures and lists for admins; each user action aims at a user who does not exist (404).
  { method: 'GET', url: '/api/admin/dashboard-stats', needs: 'admin', request: (self) => ({ url: `/api/admin/dashboard-stats?user_id=${self?.id ?? NO_USER}` }) },
  { method: 'GET', url: '/api/admin/users', needs: 'admin', request: () => ({ url: '/api/admin/users?q=a&status=active&limit=5' }) },
  { method: 'POST', url: '/api/admin/users/:id/suspend', needs: 'admin', request: () => ({ method: 'POST', url: `/api/admin/users/${NO_USER}/suspend` }) },
  { method: 'POST', url: '/api/admin/users/:id/activate', needs: 'admin', request: () => ({ method: 'POST', url: `/api/admin/users/${NO_USER}/activate` }) },
  { method: 'DELETE', url: '/api/admin/users/:id', needs: 'admin', request: () => ({ method: 'DELETE', url: `/api/admin/users/${NO_USER}`, payload: { confirm: true } }) },
  { method: 'GET', url: '/api/admin/logs', needs: 'admin', request: () => ({ url: '/api/admin/logs?target_type=user&limit=5' }) },
  // Orders: the list, and one order, a refund and a retried fulfilment of an order that does not exist (404).
  { method: 'GET', url: '/api/admin/orders', needs: 'admin', request: () => ({ url: '/api/admin/orders?q=a&status=paid&limit=5' }) },
  { method: 'GET', url: '/api/admin/orders/:id', needs: 'admin', request: () => ({ url: `/api/admin/orders/${NO_USER}` }) },
  { method: 'POST', url: '/api/admin/orders/:id/refund', needs: 'admin', request: () => ({ method: 'POST', url: `/api/admin/orders/${NO_USER}/refund`, payload: { confirm: true } }) },
  { method: 'POST', url: '/api/admin/orders/:id/retry-fulfilment', needs: 'admin', request: () => ({ method: 'POST', url: `/api/admin/orders/${NO_USER}/retry-fulfilment` }) },
  { method: 'GET', url: '/api/admin/payment-reconciliations', needs: 'admin', request: () => ({ url: '/api/admin/payment-reconciliations' }) },
  { method: 'POST', url: '/api/admin/payment-reconciliations', needs: 'admin', request: () => ({ method: 'POST', url: '/api/admin/payment-reconciliations' }) },
  // The admin's payouts and subscriptions: the runs and lists; retrying a payout that does not exist (404), so nothing is sent.
  { method: 'GET', url: '/api/admin/payouts/runs', needs: 'admin', request: () => ({ url: '/api/admin/payouts/runs?limit=5' }) },
  { method: 'GET', url: '/api/admin/payouts', needs: 'admin', request: () => ({ url: '/api/admin/payouts?period=2025-01&status=failed&limit=5' }) },
  { method: 'POST', url: '/api/admin/payouts/:id/retry', needs: 'admin', request: () => ({ method: 'POST', url: `/api/admin/payouts/${NO_USER}/retry` }) },
  { method: 'GET', url: '/api/admin/subscriptions', needs: 'admin', request: () => ({ url: '/api/admin/subscriptions?tier=pro&status=active&q=a&limit=5' }) },
  // System settings: reading them, and saving one that does not exist (404), so no setting changes; the banner is public.
  { method: 'GET', url: '/api/admin/settings', needs: 'admin', request: () => ({ url: '/api/admin/settings' }) },
  { method: 'PUT', url: '/api/admin/settings/:key', needs: 'admin', request: () => ({ method: 'PUT', url: '/api/admin/settings/no_such_setting', payload: { value: true } }) },
  { method: 'GET', url: '/api/settings/public', needs: 'public', request: () => ({ url: '/api/settings/public' }) },
  // Moderation: the list, and approving, rejecting or deleting a video that does not exist (404).
  { method: 'GET', url: '/api/admin/videos', needs: 'admin', request: () => ({ url: '/api/admin/videos?status=pending' }) },
  { method: 'POST', url: '/api/admin/videos/:id/approve', needs: 'admin', request: () => ({ method: 'POST', url: `/api/admin/videos/${NO_USER}/approve` }) },
  { method: 'POST', url: '/api/admin/videos/:id/reject', needs: 'admin', request: () => ({ method: 'POST', url: `/api/admin/videos/${NO_USER}/reject` }) },
  { method: 'DELETE', url: '/api/admin/videos/:id', needs: 'admin', request: () => ({ method: 'DELETE', url: `/api/admin/videos/${NO_USER}` }) },
  { method: 'GET', url: '/api/videos', needs: 'public', request: () => ({ url: '/api/videos' }) },
  { method: 'GET', url: '/api/videos/:id', needs: 'public', request: () => ({ url: `/api/videos/${NO_USER}` }) },
  { method: 'GET', url: '/api/creators/newest', needs: 'public', request: () => ({ url: '/api/creators/newest' }) },
  { method: 'GET', url: '/api/catalogue/products', needs: 'public', request: () => ({ url: '/api/catalogue/products' }) },
  { method: 'GET', url: '/media/:bucket/*', needs: 'public', request: () => ({ url: '/media/videos/ab/none.mp4' }) },
  { method: 'POST', url: '/api/auth/signup', needs: 'public', request: () => ({ method: 'POST', url: '/api/auth/signup', payload: { email: 'x', password: '' } }) },
  { method: 'POST', url: '/api/auth/login', needs: 'public', request: () => ({ method: 'POST', url: '/api/auth/login', payload: { email: 'x', password: '' } }) },
  // Signed out is an answer here (200 with no user), not a refusal.
  { method: 'GET', url: '/api/auth/me', needs: 'public', request: () => ({ url: '/api/auth/me' }) },
  { method: 'POST', url: '/api/auth/logout', needs: 'public', request: () => ({ method: 'POST', url: '/api/auth/logout' }) },
  { method: 'GET', url: '/api/auth/google/login', needs: 'public', request: () => ({ url: '/api/auth/google/login' }) },
  { method: 'GET', url: '/api/auth/google/callback', needs: 'public', request: () => ({ url: '/api/auth/google/callback' }) },
  {
    method: 'DELETE',
    url: '/api/users/:id/delete-account',
    needs: 'user',
    // Deleting someone who does not exist: allowed callers reach the handler and get 404 (admin) or 403 (not theirs).
    request: (self) => ({ method: 'DELETE', url: `/api/users/${self?.id ?? NO_USER}/delete-account?dry=1` }),
  },
  { method: 'POST', url: '/api/send-welcome-email', needs: 'public', request: () => ({ method: 'POST', url: '/api/send-welcome-email', payload: { email: 'bad' } }) },
  { method: 'POST', url: '/api/send-subscription-email', needs: 'public', request: () => ({ method: 'POST', url: '/api/send-subscription-email', payload: { email: 'bad' } }) },
  // A subscription approval link: one that names nothing is refused by the handler (400), whoever presents it.
  {
    method: 'POST',
    url: '/api/subscriptions/approve',
    needs: 'public',
    request: () => ({ method: 'POST', url: '/api/subscriptions/approve', payload: { email: 'nobody@example.com', token: `${NO_USER}.4102444800.${'A'.repeat(43)}` } }),
  },
  { method: 'GET', url: '/api/dev/mail', needs: 'admin', request: () => ({ url: '/api/dev/mail' }) },
  // One message through its secret link: a wrong token finds nothing (404), whoever asks.
  { method: 'GET', url: '/api/dev/mail/:id', needs: 'public', request: () => ({ url: `/api/dev/mail/${NO_USER}?token=notthetoken0` }) },
  { method: 'GET', url: '/api/channels/:slug', needs: 'public', request: () => ({ url: '/api/channels/nobodyhere' }) },
  { method: 'GET', url: '/api/profiles/:slug', needs: 'public', request: () => ({ url: '/api/profiles/nobodyhere' }) },
  { method: 'GET', url: '/api/search/channels', needs: 'public', request: () => ({ url: '/api/search/channels?q=ab' }) },
  { method: 'POST', url: '/api/videos/:id/views', needs: 'public', request: () => ({ method: 'POST', url: `/api/videos/${NO_USER}/views` }) },
  { method: 'POST', url: '/api/videos', needs: 'creator', request: () => ({ method: 'POST', url: '/api/videos', payload: {} }) },
  // Resumable uploads (tus): an ill-formed length, or an upload that does not exist, refused by the handler (400/404).
  { method: 'POST', url: '/api/uploads', needs: 'creator', request: () => ({ method: 'POST', url: '/api/uploads', headers: { 'tus-resumable': '1.0.0', 'upload-length': 'abc' } }) },
  { method: 'HEAD', url: '/api/uploads/:id', needs: 'creator', request: () => ({ method: 'HEAD', url: `/api/uploads/${NO_UPLOAD}`, headers: { 'tus-resumable': '1.0.0' } }) },
  {
    method: 'PATCH',
    url: '/api/uploads/:id',
    needs: 'creator',
    request: () => ({
      method: 'PATCH',
      url: `/api/uploads/${NO_UPLOAD}`,
      headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      payload: Buffer.alloc(16),
    }),
  },
  { method: 'DELETE', url: '/api/uploads/:id', needs: 'creator', request: () => ({ method: 'DELETE', url: `/api/uploads/${NO_UPLOAD}`, headers: { 'tus-resumable': '1.0.0' } }) },
  { method: 'POST', url: '/api/videos/resumable', needs: 'creator', request: () => ({ method: 'POST', url: '/api/videos/resumable', payload: {} }) },
  { method: 'GET', url: '/api/studio/videos', needs: 'creator', request: () => ({ url: '/api/studio/videos' }) },
  { method: 'DELETE', url: '/api/videos/:id', needs: 'creator', request: () => ({ method: 'DELETE', url: `/api/videos/${NO_USER}` }) },
  { method: 'GET', url: '/api/studio/profile', needs: 'creator', request: () => ({ url: '/api/studio/profile' }) },
  { method: 'PATCH', url: '/api/studio/profile', needs: 'creator', request: () => ({ method: 'PATCH', url: '/api/studio/profile', payload: {} }) },
  { method: 'POST', url: '/api/studio/profile/:kind', needs: 'creator', request: () => ({ method: 'POST', url: '/api/studio/profile/avatar', payload: {} }) },
  { method: 'POST', url: '/api/users/ensure-exists', needs: 'user', request: () => ({ method: 'POST', url: '/api/users/ensure-exists', payload: {} }) },
  {
    method: 'POST',
    url: '/api/users/update-channel',
    needs: 'creator',
    request: () => ({ method: 'POST', url: '/api/users/update-channel', payload: { channel_slug: 'Not A Slug!' } }),
  },
  {
    method: 'POST',
    url: '/api/capture-screenshot',
    needs: 'public',
    request: () => ({ method: 'POST', url: '/api/capture-screenshot', payload: { video_url: '/media/videos/ab/none.mp4', timestamp: 1 } }),
  },
  {
    method: 'POST',
    url: '/api/capture-multiple-screenshots',
    needs: 'public',
    request: () => ({ method: 'POST', url: '/api/capture-multiple-screenshots', payload: { video_url: '/media/videos/ab/none.mp4', timestamps: [1, 2] } }),
  },
  { method: 'POST', url: '/api/process-shirt-image', needs: 'public', request: () => ({ method: 'POST', url: '/api/process-shirt-image', payload: { image_data: 'data:image/png;base64,AAAA' } }) },
  {
    method: 'POST',
    url: '/api/process-thumbnail-print-quality',
    needs: 'public',
    request: () => ({ method: 'POST', url: '/api/process-thumbnail-print-quality', payload: { thumbnail_data: 'data:image/png;base64,AAAA' } }),
  },
  {
    method: 'POST',
    url: '/api/create-product',
    needs: 'user',
    request: () => ({ method: 'POST', url: '/api/create-product', payload: { videoUrl: '/media/videos/ab/none.mp4', screenshots: [] } }),
  },
  { method: 'GET', url: '/api/product/browse', needs: 'public', request: () => ({ url: '/api/product/browse?category=mugs' }) },
  { method: 'GET', url: '/api/product/:productId', needs: 'public', request: () => ({ url: `/api/product/${NO_USER}` }) },
  { method: 'GET', url: '/api/video-info', needs: 'public', request: () => ({ url: `/api/video-info?id=${NO_USER}` }) },
  // An unsigned event reaches the handler and is refused there (400), whoever sends it.
  { method: 'POST', url: '/api/webhooks/stripe', needs: 'public', request: () => ({ method: 'POST', url: '/api/webhooks/stripe', payload: { id: 'evt_x', type: 'x', data: { object: {} } } }) },
  { method: 'GET', url: '/api/studio/analytics', needs: 'creator', request: () => ({ url: '/api/studio/analytics' }) },
  // Payouts: the methods on offer are public; the setup is the signed-in creator's (a bad email is refused by the handler, 400, so nothing is saved).
  { method: 'GET', url: '/api/payment-methods', needs: 'public', request: () => ({ url: '/api/payment-methods?country=US' }) },
  { method: 'GET', url: '/api/payouts/setup', needs: 'creator', request: () => ({ url: '/api/payouts/setup' }) },
  { method: 'PUT', url: '/api/payouts/method', needs: 'creator', request: () => ({ method: 'PUT', url: '/api/payouts/method', payload: { method: 'paypal', paypal_email: 'bad' } }) },
  { method: 'PUT', url: '/api/payouts/tax-info', needs: 'creator', request: () => ({ method: 'PUT', url: '/api/payouts/tax-info', payload: { email: 'bad' } }) },
  // The payout run of a month whose 1st has not come is refused by the handler (400), so nothing runs.
  { method: 'POST', url: '/api/admin/payouts/run', needs: 'admin', request: () => ({ method: 'POST', url: '/api/admin/payouts/run', payload: { period: '2999-12' } }) },
  // A period's ACH file and its upload confirmation: NACHA is not configured here, so the handler answers 404 / confirms nothing.
  { method: 'GET', url: '/api/admin/payouts/ach/:period', needs: 'admin', request: () => ({ url: '/api/admin/payouts/ach/2025-01' }) },
  { method: 'POST', url: '/api/admin/payouts/ach/:period/confirm', needs: 'admin', request: () => ({ method: 'POST', url: '/api/admin/payouts/ach/2025-01/confirm' }) },
  // The payment portal and a month's statement (CSV) are the signed-in creator's own.
  { method: 'GET', url: '/api/payouts/portal', needs: 'creator', request: () => ({ url: '/api/payouts/portal' }) },
  { method: 'GET', url: '/api/payouts/statement', needs: 'creator', request: () => ({ url: '/api/payouts/statement?month=2025-01' }) },
  // Without the webhook token (none is configured here) the handler answers 404, whoever calls.
  { method: 'POST', url: '/api/webhooks/printful', needs: 'public', request: () => ({ method: 'POST', url: '/api/webhooks/printful?token=wrong', payload: { type: 'order_updated', data: {} } }) },
  { method: 'GET', url: '/track/:number', needs: 'public', request: () => ({ url: '/track/FM000000000000' }) },
  // Checkout: empty carts and unknown sessions or orders, refused by the handlers (400/404), whoever asks.
  { method: 'POST', url: '/api/calculate-shipping', needs: 'public', request: () => ({ method: 'POST', url: '/api/calculate-shipping', payload: { shipping_address: { zip: '10001', country_code: 'US' }, cart: [] } }) },
  {
    method: 'POST',
    url: '/api/create-checkout-session',
    needs: 'public',
    request: () => ({ method: 'POST', url: '/api/create-checkout-session', payload: { shipping_address: { zip: '10001', country_code: 'US' }, cart: [] } }),
  },
  { method: 'POST', url: '/api/place-order', needs: 'public', request: () => ({ method: 'POST', url: '/api/place-order', payload: { shipping_address: { zip: '10001', country_code: 'US' }, cart: [] } }) },
  { method: 'GET', url: '/api/checkout/sessions/:sessionId', needs: 'public', request: () => ({ url: '/api/checkout/sessions/cs_test_nothinghere' }) },
  { method: 'GET', url: '/api/orders/:id', needs: 'public', request: () => ({ url: `/api/orders/${NO_USER}?token=notthetoken0` }) },
  { method: 'GET', url: '/pay/:sessionId', needs: 'public', request: () => ({ url: '/pay/cs_test_nothinghere' }) },
  { method: 'POST', url: '/pay/:sessionId', needs: 'public', request: () => ({ method: 'POST', url: '/pay/cs_test_nothinghere', payload: 'card_number=4242424242424242' }) },
  // Payout webhooks: an unsigned event reaches the handler and is refused there (400), whoever sends it.
  {
    method: 'POST',
    url: '/api/webhooks/paypal-payouts',
    needs: 'public',
    request: () => ({ method: 'POST', url: '/api/webhooks/paypal-payouts', payload: { id: 'WH-x', event_type: 'PAYMENT.PAYOUTS-ITEM.SUCCEEDED', resource: {} } }),
  },
  { method: 'POST', url: '/api/webhooks/stripe-connect', needs: 'public', request: () => ({ method: 'POST', url: '/api/webhooks/stripe-connect', payload: { id: 'evt_x', type: 'x', data: { object: {} } } }) },
  // The embedded Stripe Connect onboarding page: an unknown link finds nothing (404), whoever asks.
  { method: 'GET', url: '/pay/connect/:token', needs: 'public', request: () => ({ url: '/pay/connect/nothinghere_nothinghere' }) },
  { method: 'POST', url: '/pay/connect/:token', needs: 'public', request: () => ({ method: 'POST', url: '/pay/connect/nothinghere_nothinghere', payload: 'decision=complete' }) },
  // Subscriptions: the signed-in user's own. Each allowed caller opens a Pro checkout at the
  // embedded provider (nothing is paid); unknown sessions find nothing (404); nobody here has a
  // customer to manage (404).
  { method: 'POST', url: '/api/subscriptions/checkout', needs: 'user', request: () => ({ method: 'POST', url: '/api/subscriptions/checkout', payload: { tier: 'pro' } }) },
  { method: 'POST', url: '/api/subscriptions/activate', needs: 'user', request: () => ({ method: 'POST', url: '/api/subscriptions/activate', payload: { session_id: 'cs_test_nothinghere' } }) },
  { method: 'GET', url: '/api/subscriptions/verify/:sessionId', needs: 'user', request: () => ({ url: '/api/subscriptions/verify/cs_test_nothinghere' }) },
  { method: 'GET', url: '/api/subscriptions/me', needs: 'user', request: () => ({ url: '/api/subscriptions/me' }) },
  { method: 'POST', url: '/api/subscriptions/manage', needs: 'user', request: () => ({ method: 'POST', url: '/api/subscriptions/manage' }) },
  // A profile's tier is public; an unknown name is 404 'User not found', whoever asks.
  { method: 'GET', url: '/api/users/:username/subscription', needs: 'public', request: () => ({ url: '/api/users/nobodyhere/subscription' }) },
  // The embedded provider's subscription manage page: an unknown link finds nothing (404), whoever
  // asks; its form, posted from this site, cancels nothing there (404).
  { method: 'GET', url: '/pay/manage/:token', needs: 'public', request: () => ({ url: '/pay/manage/nothinghere_nothinghere' }) },
  {
    method: 'POST',
    url: '/pay/manage/:token',
    needs: 'public',
    request: () => ({ method: 'POST', url: '/pay/manage/nothinghere_nothinghere', payload: 'action=cancel', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
  },
];

let t: TestApp;
const ids = new Map<Role, string>();

beforeAll(async () => {
  t = await testApp({ config: await testConfig({ PUBLIC_URL: ORIGIN }) });
  for (const role of ['customer', 'creator', 'admin'] as const) {
    const user = await createUser(t.db, { email: `${role}@example.com`, displayName: role, role: role === 'customer' ? 'customer' : 'creator', emailVerified: true });
    if (role === 'admin') await t.db.updateTable('users').set({ is_admin: true, role: 'customer' }).where('id', '=', user.id).execute();
    ids.set(role, user.id);
  }
});
afterAll(async () => t?.close());

describe('the role table', () => {
  it('lists every API route once, with the access the route declares', () => {
    const declared = API_ROUTES.map((r) => `${r.method} ${r.url} ${r.access}`).sort();
    expect(TABLE.map((r) => `${r.method} ${r.url} ${r.needs}`).sort()).toEqual(declared);
  });

  for (const row of TABLE) {
    it(`${row.method} ${row.url} needs ${row.needs}`, async () => {
      for (const role of ROLES) {
        const opts = row.request(role === 'anonymous' ? null : { id: ids.get(role)! });
        // Deleting an account is tried on a stranger's id, so no test user is really deleted.
        if (row.url.endsWith('delete-account')) opts.url = `/api/users/${NO_USER}/delete-account`;
        const headers: Record<string, string> = {
          host: 'localhost:3000',
          ...(opts.headers as Record<string, string> | undefined),
          ...(opts.method && opts.method !== 'GET' ? { origin: ORIGIN } : {}),
        };
        // A fresh session for each request, since one of the rows is logout.
        const session = role === 'anonymous' ? null : await createSession(t.db, ids.get(role)!, 1, {});
        const res = await t.app.inject({ ...opts, headers, ...(session ? { cookies: { [SESSION_COOKIE]: session.token } } : {}) });
        const allowed = ALLOWED[row.needs].includes(role);
        if (allowed) {
          if (row.url.endsWith('delete-account')) {
            // Reached the handler: a stranger's account is 403 for users, unknown (404) for the admin.
            expect(res.statusCode, `${role}`).toBe(role === 'admin' ? 404 : 403);
            expect(res.json().error, role).toBe(role === 'admin' ? 'User not found' : 'Access denied.');
          } else {
            expect([401, 403], `${role} got ${res.statusCode}: ${res.body.slice(0, 200)}`).not.toContain(res.statusCode);
          }
        } else {
          expect(res.statusCode, role).toBe(role === 'anonymous' ? 401 : 403);
          // A HEAD answer has no body to read the code from.
          if (opts.method !== 'HEAD') expect(res.json().code, role).toBe(role === 'anonymous' ? 'UNAUTHENTICATED' : 'FORBIDDEN');
        }
      }
    });
  }
});
