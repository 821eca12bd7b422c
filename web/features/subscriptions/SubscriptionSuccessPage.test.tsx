/**
 * /subscription-success rendered to markup (no DOM): 'Verifying...' first, the sign-in request
 * when signed out, each error with the way back to the plans, and success with the next steps
 * and the creator's channel link; a link without a session id is not verified at all.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SUBSCRIPTION_MESSAGES } from '../../../shared/schemas/subscriptions.ts';
import { SubscriptionSuccessPage, SubscriptionSuccessView } from './SubscriptionSuccessPage.tsx';
import type { SuccessState } from './subscriptionSuccess.ts';
import { TRIALING_PRO } from './subscriptionFixtures.ts';

const auth = vi.hoisted(() => ({ state: { status: 'loading', user: null as unknown } }));
vi.mock('../../stores/useAuth.ts', () => ({ useAuth: <T,>(select: (s: typeof auth.state) => T) => select(auth.state) }));
vi.mock('idb-keyval', () => ({ createStore: vi.fn(), get: vi.fn(), set: vi.fn(), del: vi.fn() }));

const SUB = TRIALING_PRO;

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&#x27;/g, "'").replace(/\s+/g, ' ').trim();

const view = (state: SuccessState, channelPath: string | null = '/channel/maker') =>
  renderToStaticMarkup(
    <MemoryRouter>
      <SubscriptionSuccessView state={state} channelPath={channelPath} signInPath="/login?return=%2Fsubscription-success" locale="en-US" />
    </MemoryRouter>,
  );

function page(url: string, status: string, user: unknown = null) {
  auth.state = { status, user };
  return renderToStaticMarkup(
    <MemoryRouter initialEntries={[url]}>
      <SubscriptionSuccessPage />
    </MemoryRouter>,
  );
}

const MAKER = { id: 'u1', username: 'maker', role: 'creator', is_admin: false, email: 'm@example.com', display_name: 'Maker' };

beforeEach(() => {
  auth.state = { status: 'loading', user: null };
});

describe('SubscriptionSuccessView', () => {
  it("verifying: 'Verifying...', announced politely", () => {
    const html = view({ kind: 'verifying', attempt: 2 });
    expect(html).toContain('role="status"');
    expect(text(html)).toBe('Verifying...');
  });

  it('signed out: asks to sign in, with the way back here', () => {
    const html = view({ kind: 'signed-out', message: SUBSCRIPTION_MESSAGES.signIn });
    expect(text(html)).toBe('Please sign in to view your instructions and personal link Sign in');
    expect(html).toContain('href="/login?return=%2Fsubscription-success"');
  });

  it.each([SUBSCRIPTION_MESSAGES.unableToVerify, SUBSCRIPTION_MESSAGES.verificationFailed, SUBSCRIPTION_MESSAGES.verifyFailed, SUBSCRIPTION_MESSAGES.activateFailed])(
    'error %s: an alert, and the way back to the plans',
    (message) => {
      const html = view({ kind: 'error', message });
      expect(html).toContain('role="alert"');
      expect(html).toContain(`<p class="status__title">${message.replace(/'/g, '&#x27;')}</p>`);
      expect(html).toContain('href="/subscription-tiers"');
    },
  );

  it("success: Pro, the trial's end, next steps and the creator's channel", () => {
    const html = view({ kind: 'success', subscription: SUB });
    const t = text(html);
    expect(t).toContain('Welcome to Pro! Your subscription is active.');
    expect(t).toContain('Your free trial runs until Friday, March 8, 2030.');
    expect(t).toContain('Next steps');
    expect(html).toContain('href="/upload"');
    expect(html).toContain('href="/payment-setup"');
    expect(html).toMatch(/<a class="button button--primary" href="\/channel\/maker"[^>]*>Go to your channel<\/a>/);
  });

  it('success without a trial: no trial line; no channel link without a channel', () => {
    const html = view({ kind: 'success', subscription: { ...SUB, status: 'active', stripe_status: 'active' } }, null);
    expect(text(html)).not.toContain('free trial');
    expect(html).not.toContain('Go to your channel');
  });
});

describe('SubscriptionSuccessPage', () => {
  it("signed in: 'Verifying...' first", () => {
    const html = page('/subscription-success?session_id=cs_test_1', 'signed-in', MAKER);
    expect(html).toContain('<h1 id="subscription-success-title" class="subscription-result__title">Your subscription</h1>');
    expect(text(html)).toContain('Verifying...');
  });

  it('while the session is read: verifying, never the sign-in request', () => {
    expect(text(page('/subscription-success?session_id=cs_test_1', 'loading'))).toContain('Verifying...');
  });

  it('signed out: the sign-in request', () => {
    expect(text(page('/subscription-success?session_id=cs_test_1', 'signed-out'))).toContain(SUBSCRIPTION_MESSAGES.signIn);
  });
});
