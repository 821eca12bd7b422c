/**
 * The page rendered to markup (unit tests run in Node, without a DOM): who sees the form, the
 * redirect to /signup, the method cards from the fallback list, and each check's message shown
 * inline as an alert under the form.
 */
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import type * as Router from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionUser } from '../../../shared/schemas/auth.ts';
import { PAYOUT_MESSAGES } from '../../../shared/schemas/payouts.ts';
import { MethodStep, type StepProblem } from './MethodStep.tsx';
import { PaymentSetupPage } from './PaymentSetupPage.tsx';
import { TaxStep } from './TaxStep.tsx';
import { PAYMENT_SETUP_MESSAGES } from './paymentSetupFlow.ts';
import { checkMethodDraft, EMPTY_DRAFT, type MethodDraft } from './payoutForm.ts';
import { methodsForCountry } from './payoutMethods.ts';

const auth = vi.hoisted(() => ({ state: { status: 'loading', user: null as unknown } }));
vi.mock('../../stores/useAuth.ts', () => ({ useAuth: <T,>(select: (s: typeof auth.state) => T) => select(auth.state) }));
// A redirect happens in an effect, which markup never runs: show where it would go instead.
vi.mock('react-router', async (original) => ({
  ...(await original<typeof Router>()),
  Navigate: ({ to, state }: { to: string; state?: { message?: string } }) => (
    <output data-navigate={to}>{state?.message}</output>
  ),
}));
vi.mock('idb-keyval', () => ({ createStore: vi.fn(), get: vi.fn(), set: vi.fn(), del: vi.fn() }));

const CREATOR: SessionUser = {
  id: '00000000-0000-4000-8000-000000000001',
  email: 'ada@example.com',
  username: 'ada',
  display_name: 'Ada',
  role: 'creator',
  is_admin: false,
  profile_image_url: null,
  auth_picture_url: null,
};

function page(url: string, status: string, user: SessionUser | null = null) {
  auth.state = { status, user };
  return renderToStaticMarkup(
    <MemoryRouter initialEntries={[url]}>
      <PaymentSetupPage />
    </MemoryRouter>,
  );
}

const inRouter = (node: ReactNode) => renderToStaticMarkup(<MemoryRouter>{node}</MemoryRouter>);

function methodStep(draft: MethodDraft, problem: StepProblem | null = checkMethodDraft(draft)) {
  return inRouter(
    <MethodStep
      country="US"
      onCountry={() => undefined}
      methods={methodsForCountry([], 'US')}
      draft={draft}
      onDraft={() => undefined}
      problem={problem}
      busy={false}
      submitLabel="Continue"
      onSubmit={() => undefined}
    />,
  );
}

beforeEach(() => {
  auth.state = { status: 'loading', user: null };
});

describe('PaymentSetupPage', () => {
  it('sends a signed-out visitor outside the new-user flow to /signup with a message', () => {
    const html = page('/payment-setup', 'signed-out');
    expect(html).toContain('data-navigate="/signup?returnTo=%2Fpayment-setup"');
    expect(html).toContain(PAYMENT_SETUP_MESSAGES.signUpFirst);
    expect(html).not.toContain('<form');
  });

  it.each(['/payment-setup?flow=new_user', '/payment-setup?ref=new_user'])('works signed out in the new-user flow (%s)', (url) => {
    const html = page(url, 'signed-out');
    expect(html).not.toContain('data-navigate');
    expect(html).toMatch(/<h1[^>]*>Welcome to FrameMerch!<\/h1>/);
    expect(html).toContain('aria-label="Payment setup steps"');
    expect(html).toMatch(/aria-current="step".*Payment method/);
    expect(html).toContain('Payment email and tax information');
    expect(html).toMatch(/<h2[^>]*>Step 1: Payment method<\/h2>/);
    expect(html).toMatch(/<label[^>]*>Country<\/label><select[^>]*><option value="US" selected="">United States<\/option>/);
  });

  it('welcomes a signed-in creator by name; refuses a customer', () => {
    expect(page('/payment-setup', 'signed-in', CREATOR)).toContain('Welcome, Ada!');
    const customer = page('/payment-setup', 'signed-in', { ...CREATOR, role: 'customer' });
    expect(customer).toContain(PAYMENT_SETUP_MESSAGES.creatorsOnly);
    expect(customer).not.toContain('<form');
  });

  it('waits for the session check', () => {
    expect(page('/payment-setup?flow=new_user', 'loading')).toContain('Loading...');
  });
});

describe('MethodStep', () => {
  it('shows the fallback methods as choosable cards with their terms', () => {
    const html = methodStep({ ...EMPTY_DRAFT, method: 'ach' }, null);
    expect(html.match(/type="radio"/g)).toHaveLength(3);
    for (const name of ['PayPal Business', 'Direct bank transfer (ACH)', 'Stripe Connect']) expect(html).toContain(name);
    expect(html).toContain('Fee: 2.9% + $0.30');
    expect(html).toContain('Fee: 0.5% + $0.25');
    expect(html).toContain('Processing: 1 day');
    expect(html).toContain('Processing: 3 days');
    expect(html).toContain('Minimum payout: $50');
    expect(html).toContain('Minimum payout: $25');
    expect(html).toMatch(/type="radio"[^>]*checked="" value="ach"/);
  });

  it('asks for each method its own details, every input labelled', () => {
    const paypal = methodStep(EMPTY_DRAFT, null);
    expect(paypal).toMatch(/<label[^>]*>PayPal email<\/label><input[^>]*type="email"/);
    const ach = methodStep({ ...EMPTY_DRAFT, method: 'ach' }, null);
    expect(ach).toMatch(/<label[^>]*>Routing number<\/label><input[^>]*inputMode="numeric"/);
    expect(ach).toMatch(/<label[^>]*>Account number<\/label><input[^>]*autoComplete="off"/);
    expect(ach).toContain('Account holder name');
    expect(ach).toMatch(/<option value="checking" selected="">Checking<\/option><option value="savings">Savings<\/option>/);
    expect(methodStep({ ...EMPTY_DRAFT, method: 'stripe_connect' }, null)).toContain('Email for Stripe Connect');
    for (const html of [paypal, ach]) {
      const inputIds = [...html.matchAll(/<(?:input|select)[^>]*\bid="([^"]+)"/g)].map((m) => m[1]!);
      const labelled = [...html.matchAll(/<label[^>]*for="([^"]+)"/g)].map((m) => m[1]!);
      expect(inputIds.filter((id) => !labelled.includes(id))).toEqual([]);
    }
  });

  const ach: MethodDraft = { ...EMPTY_DRAFT, method: 'ach', routingNumber: '021000021', accountNumber: '000123456789', holderName: 'Ada' };
  it.each([
    ['a bad PayPal email', { ...EMPTY_DRAFT, paypalEmail: 'ada@' }, PAYOUT_MESSAGES.paypalEmail],
    ['a short routing number', { ...ach, routingNumber: '12345' }, PAYOUT_MESSAGES.routingNumber],
    ['a short account number', { ...ach, accountNumber: '12' }, PAYOUT_MESSAGES.accountNumber],
    ['no holder name', { ...ach, holderName: '' }, PAYOUT_MESSAGES.holderName],
    ['a bad Stripe Connect email', { ...EMPTY_DRAFT, method: 'stripe_connect', stripeEmail: 'nope' }, PAYOUT_MESSAGES.stripeEmail],
  ] as const)('shows the message for %s inline under the form as an alert', (_case, draft, message) => {
    const html = methodStep(draft);
    expect(html).toMatch(new RegExp(`<p id="[^"]+" class="payment-setup__problem" role="alert">${message}</p><button type="submit"`));
    // The input it is about is marked and points at the message.
    const problemId = /<p id="([^"]+)" class="payment-setup__problem"/.exec(html)![1]!;
    expect(html).toMatch(new RegExp(`aria-invalid="true" aria-describedby="${problemId}[^"]*"`));
  });

  it('shows a server refusal in the same place', () => {
    const html = methodStep(EMPTY_DRAFT, { field: null, message: PAYOUT_MESSAGES.notAuthenticated });
    expect(html).toContain(`role="alert">${PAYOUT_MESSAGES.notAuthenticated}</p>`);
    expect(html).not.toContain('aria-invalid');
  });

  it('shows no card while the country’s list loads', () => {
    const html = inRouter(
      <MethodStep country="US" onCountry={() => undefined} methods={null} draft={EMPTY_DRAFT} onDraft={() => undefined} problem={null} busy={false} submitLabel="Continue" onSubmit={() => undefined} />,
    );
    expect(html).toContain('Loading payment methods...');
    expect(html).toMatch(/<button type="submit"[^>]*disabled=""/);
  });
});

describe('TaxStep', () => {
  const props = { email: '', onEmail: () => undefined, busy: false, onSave: () => undefined, onSkip: () => undefined, onBack: () => undefined };

  it("offers Save and Skip for Now, shows the saved bank account's last 4 digits and Stripe's onboarding link", () => {
    const ach = inRouter(<TaxStep {...props} kept={false} problem={null} summary={{ method: 'ach', text: 'Bank account ending in 6789 (Checking)', onboardingUrl: null }} />);
    expect(ach).toMatch(/<h2[^>]*>Step 2: Payment email and tax information<\/h2>/);
    expect(ach).toContain('Bank account ending in 6789 (Checking)');
    expect(ach).toMatch(/<label[^>]*>Payment email<\/label><input[^>]*type="email"/);
    expect(ach).toContain('>Save</button>');
    expect(ach).toContain('>Skip for Now</button>');
    const stripe = inRouter(<TaxStep {...props} kept={false} problem={null} summary={{ method: 'stripe_connect', text: 'Stripe Connect: ada@example.com', onboardingUrl: '/pay/connect/onboard/acct_1' }} />);
    expect(stripe).toMatch(/<a[^>]*href="\/pay\/connect\/onboard\/acct_1"[^>]*>Continue Stripe onboarding/);
  });

  it('shows a bad payment email inline as an alert', () => {
    const html = inRouter(<TaxStep {...props} kept problem={PAYOUT_MESSAGES.taxEmail} summary={null} />);
    expect(html).toContain(`role="alert">${PAYOUT_MESSAGES.taxEmail}</p>`);
    expect(html).toContain('aria-invalid="true"');
  });
});
