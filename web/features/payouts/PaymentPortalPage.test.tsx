/**
 * The payment portal rendered to markup (unit tests run in Node, without a DOM): the signed-out
 * message with Go Home, Access denied for customers, the page's frame for a creator, and its
 * content from a portal reply: the four cards, the method button, the lists with status badges,
 * the statement link and the info cards; blanks when the read failed; and the method modal,
 * which is payment setup's own form.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionUser } from '../../../shared/schemas/auth.ts';
import { PAYOUT_MESSAGES, PORTAL_MESSAGES, type PaymentPortal, type PayoutSetup } from '../../../shared/schemas/payouts.ts';
import { PaymentPortalPage, PortalView } from './PaymentPortalPage.tsx';
import { PortalMethodModal } from './PortalMethodModal.tsx';
import { BLANK, currentMonth, infoCards } from './paymentPortal.ts';

const auth = vi.hoisted(() => ({ state: { status: 'loading', user: null as unknown } }));
vi.mock('../../stores/useAuth.ts', () => ({ useAuth: <T,>(select: (s: typeof auth.state) => T) => select(auth.state) }));
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

const ACH: PayoutSetup = {
  preferred_payment_method: 'ach',
  payout_enabled: true,
  paypal_email: null,
  ach: { routing_last4: '0021', account_last4: '6789', account_type: 'checking', holder_name: 'Ada Lovelace', verified: false },
  stripe_connect: null,
  tax_email: null,
  tax_info_verified: false,
  payout_threshold_cents: 5000,
};

const PORTAL: PaymentPortal = {
  setup: ACH,
  total_earnings_cents: 123_456,
  pending_payout_cents: 5210,
  payout_threshold_cents: 5000,
  ready_for_payout: true,
  last_payout_date: '2025-07-01',
  next_payout_date: '2025-08-01',
  recent_earnings: [
    { date: '2025-07-20T10:00:00.000Z', kind: 'reversal', source: 'Product Sale', product_name: 'Classic Mug', video_title: 'Sunset <b>live</b>', order_ref: 'ABCD1234', creator_share_cents: -455 },
    { date: '2025-07-04T10:00:00.000Z', kind: 'sale', source: 'Product Sale', product_name: 'Classic Mug', video_title: 'Sunset <b>live</b>', order_ref: 'ABCD1234', creator_share_cents: 455 },
  ],
  recent_payouts: [
    { date: '2025-07-01', period: '2025-07', amount_cents: 123_456, fee_cents: 642, method: 'ach', status: 'paid' },
    { date: '2025-06-01', period: '2025-06', amount_cents: 9000, fee_cents: 70, method: 'ach', status: 'failed' },
    { date: '2025-05-01', period: '2025-05', amount_cents: 8000, fee_cents: 65, method: 'paypal', status: 'processing' },
    { date: '2025-04-01', period: '2025-04', amount_cents: 7000, fee_cents: 0, method: 'paypal', status: 'pending' },
  ],
};

function page(status: string, user: SessionUser | null = null) {
  auth.state = { status, user };
  return renderToStaticMarkup(
    <MemoryRouter initialEntries={['/payment-portal']}>
      <PaymentPortalPage />
    </MemoryRouter>,
  );
}

const view = (portal: PaymentPortal | null, loading = false) =>
  renderToStaticMarkup(
    <MemoryRouter>
      <PortalView portal={portal} loading={loading} onEditMethod={() => undefined} />
    </MemoryRouter>,
  );

/** The markup's text, tags removed (entities left as they are). */
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

beforeEach(() => {
  auth.state = { status: 'loading', user: null };
});

describe('PaymentPortalPage', () => {
  it("signed out: 'Please log in to access the payment portal.' with a Go Home button", () => {
    const html = page('signed-out');
    expect(PAYOUT_MESSAGES.signInToAccessPortal).toBe('Please log in to access the payment portal.');
    expect(html).toContain(`<p class="status__title">${PAYOUT_MESSAGES.signInToAccessPortal}</p>`);
    expect(html).toMatch(/<button type="button" class="button button--primary">Go Home<\/button>/);
    expect(html).not.toContain('payment-portal__cards');
  });

  it('refuses a customer as the dashboard does', () => {
    const html = page('signed-in', { ...CREATOR, role: 'customer' });
    expect(html).toContain('Access denied');
    expect(html).toContain(PORTAL_MESSAGES.creatorsOnly);
    expect(html).toContain('href="/"');
    expect(html).not.toContain('payment-portal__cards');
  });

  it('waits for the session check', () => {
    expect(page('loading')).toContain('Loading...');
  });

  it('shows a creator the Back button, the title, and the cards while the portal loads', () => {
    const html = page('signed-in', CREATOR);
    expect(html).toMatch(/<button type="button" class="button button--ghost payment-portal__back"><span aria-hidden="true">←<\/span> Back<\/button>/);
    expect(html).toMatch(/<h1[^>]*>Payment portal<\/h1>/);
    expect(html).toContain('aria-busy="true"');
    for (const title of ['Payment Method', 'Total Earnings', 'Pending Payout', 'Next Payout']) expect(html).toContain(`>${title}</h2>`);
    // The method button waits for the setup.
    expect(html).toMatch(/<button type="button" class="button button--primary" disabled="">Connect payment method<\/button>/);
  });
});

describe('PortalView', () => {
  it('shows the four cards with the spec’s texts', () => {
    const html = view(PORTAL);
    const cards = [...html.matchAll(/<li class="payment-portal__card[^"]*">(.*?)<\/li>/g)].map((m) => text(m[1]!).trim());
    expect(cards).toEqual([
      'Payment Method Complete Bank transfer (ACH) Bank account ••••6789',
      'Total Earnings $1,234.56 Lifetime',
      'Pending Payout $52.10 Ready for payout',
      'Next Payout Aug 1, 2025 Monthly on the 1st Last payout: Jul 1, 2025',
    ]);
    expect(html).toContain('payment-portal__card--good');
    expect(html).toContain('>Edit payment method</button>');
    // Only the last 4 digits of the bank account.
    expect(html).not.toMatch(/0{3}12345/);
  });

  it("not set up: 'Not Set Up', 'Min $50 required', 'Not scheduled', and a button to connect", () => {
    const html = text(
      view({ ...PORTAL, setup: { ...ACH, preferred_payment_method: null, payout_enabled: false, ach: null }, ready_for_payout: false, pending_payout_cents: 1200, next_payout_date: null, last_payout_date: null }),
    );
    expect(html).toContain('Payment Method Not Set Up');
    expect(html).toContain('Pending Payout $12.00 Min $50 required');
    expect(html).toContain('Next Payout Not scheduled Monthly on the 1st');
    expect(html).not.toContain('Last payout');
    expect(html).toContain('Connect payment method');
  });

  it('lists recent earnings (refunds negative) and payouts with their status badges, text escaped', () => {
    const html = view(PORTAL);
    expect(html).toMatch(/<h2[^>]*>Recent earnings<\/h2>/);
    expect(html).toContain('Refund: Classic Mug');
    expect(html).toContain('From “Sunset &lt;b&gt;live&lt;/b&gt;” · Order ABCD1234');
    expect(html).not.toContain('<b>live</b>');
    expect(html).toContain('payment-portal__amount payment-portal__amount--negative">-$4.55</span>');
    expect(html).toContain('class="payment-portal__amount">$4.55</span>');
    expect(html).toMatch(/<h2[^>]*>Recent payouts<\/h2>/);
    const badges = [...html.matchAll(/class="payment-portal__badge payment-portal__badge--(\w+)">(\w+)<\/span>/g)].map((m) => [m[1], m[2]]);
    expect(badges).toEqual([
      ['paid', 'Paid'],
      ['failed', 'Failed'],
      ['processing', 'Processing'],
      ['pending', 'Pending'],
    ]);
    expect(text(html)).toContain('$1,234.56 Bank transfer (ACH) · Fee $6.42 Paid Jul 1, 2025');
  });

  it('says so when there is nothing yet', () => {
    const html = view({ ...PORTAL, recent_earnings: [], recent_payouts: [] });
    expect(html).toContain('No earnings yet.');
    expect(html).toContain('No payouts yet.');
  });

  it('shows blanks when the portal could not be read (the failure is only logged)', () => {
    const html = view(null);
    const values = [...html.matchAll(/<p class="payment-portal__card-value">([^<]*)<\/p>/g)].map((m) => m[1]);
    expect(values).toEqual([BLANK, BLANK, BLANK, BLANK]);
    expect(html).not.toContain('role="alert"');
    expect(html.match(new RegExp(`<p class="payment-portal__empty">${BLANK}</p>`, 'g'))).toHaveLength(2);
    expect(html).toContain('>Connect payment method</button>');
  });

  it('offers this month’s statement as a CSV download, with a month picker that stops at this month', () => {
    const html = view(PORTAL);
    const month = currentMonth();
    expect(html).toMatch(new RegExp(`<input id="[^"]+" class="field__control" type="month" min="2000-01" max="${month}" placeholder="YYYY-MM" value="${month}"/>`));
    expect(html).toMatch(/<label class="field__label" for="([^"]+)">Month<\/label><input id="\1"/);
    expect(html).toContain(`<a class="button button--ghost" href="/api/payouts/statement?month=${month}" download="">Download statement (CSV)</a>`);
  });

  it('explains how payouts work in info cards', () => {
    const html = view(PORTAL);
    expect(html).toContain('<ul class="payment-portal__info" aria-label="About payouts">');
    for (const card of infoCards()) {
      expect(html).toContain(`<h2 class="payment-portal__heading">${card.title}</h2>`);
      for (const line of card.lines) expect(html).toContain(`<p>${line}</p>`);
    }
  });
});

describe('PortalMethodModal', () => {
  it("is payment setup's method form in a modal, started from the saved setup, bank numbers empty", () => {
    const html = renderToStaticMarkup(<PortalMethodModal setup={ACH} onClose={() => undefined} onSaved={() => undefined} />);
    expect(html).toMatch(/<dialog class="modal" aria-modal="true" aria-labelledby="([^"]+)"><div class="modal__panel"><div class="modal__header"><h2 class="modal__title" id="\1">Edit payment method<\/h2>/);
    expect(html).toMatch(/<h2[^>]*>How you get paid<\/h2>/);
    expect(html).toContain('Loading payment methods...');
    expect(html).toContain('>Save payment method</button>');
    expect(renderToStaticMarkup(<PortalMethodModal setup={null} onClose={() => undefined} onSaved={() => undefined} />)).toContain('>Connect payment method</h2>');
  });
});
