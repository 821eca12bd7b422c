/**
 * The payment portal's rules without a browser: who sees it, money and dates as people read
 * them, the four cards with the spec's texts, blanks when the read fails (logged only), the
 * lists' lines, the statement link, the method form's starting values and the Back button.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionUser } from '../../../shared/schemas/auth.ts';
import { PAYOUT_MESSAGES, type PaymentPortal, type PayoutSetup } from '../../../shared/schemas/payouts.ts';
import {
  BLANK,
  canGoBack,
  currentMonth,
  draftFromSetup,
  earningLine,
  formatDay,
  formatMoney,
  goHomeLater,
  infoCards,
  isSetUp,
  isStatementMonth,
  loadPortal,
  methodButtonLabel,
  minimumText,
  payoutLine,
  portalAccess,
  portalCards,
  SIGNED_OUT_REDIRECT_MS,
  statementUrl,
  walletAddress,
} from './paymentPortal.ts';
import { EMPTY_DRAFT } from './payoutForm.ts';

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

const NO_SETUP: PayoutSetup = {
  preferred_payment_method: null,
  payout_enabled: false,
  paypal_email: null,
  ach: null,
  stripe_connect: null,
  tax_email: null,
  tax_info_verified: false,
  payout_threshold_cents: 5000,
};
const PAYPAL: PayoutSetup = { ...NO_SETUP, preferred_payment_method: 'paypal', payout_enabled: true, paypal_email: 'ada@paypal.example' };
const ACH: PayoutSetup = {
  ...NO_SETUP,
  preferred_payment_method: 'ach',
  payout_enabled: true,
  ach: { routing_last4: '0021', account_last4: '1234', account_type: 'savings', holder_name: 'Ada Lovelace', verified: false },
};
const STRIPE: PayoutSetup = { ...NO_SETUP, preferred_payment_method: 'stripe_connect', payout_enabled: true, stripe_connect: { email: 'ada@stripe.example', status: 'pending' } };

const portal = (over: Partial<PaymentPortal> = {}): PaymentPortal => ({
  setup: PAYPAL,
  total_earnings_cents: 123_456,
  pending_payout_cents: 4999,
  payout_threshold_cents: 5000,
  ready_for_payout: false,
  last_payout_date: null,
  next_payout_date: '2025-08-01',
  recent_earnings: [],
  recent_payouts: [],
  ...over,
});

describe('portalAccess', () => {
  it('waits for the session, sends signed-out visitors away, refuses customers, lets creators and admins in', () => {
    expect(portalAccess('loading', null)).toEqual({ kind: 'loading' });
    expect(portalAccess('pending', null)).toEqual({ kind: 'loading' });
    expect(portalAccess('signed-out', null)).toEqual({ kind: 'signed-out' });
    expect(portalAccess('signed-in', CREATOR)).toEqual({ kind: 'portal' });
    expect(portalAccess('signed-in', { ...CREATOR, role: 'customer' })).toEqual({ kind: 'denied' });
    expect(portalAccess('signed-in', { ...CREATOR, role: 'customer', is_admin: true })).toEqual({ kind: 'portal' });
  });
});

describe('formatMoney and formatDay', () => {
  it('writes cents as $1,234.56, with thousands separators and a sign', () => {
    expect([0, 5, 99, 100, 123_456, 100_000_000, -6000, -123_456_789].map(formatMoney)).toEqual([
      '$0.00',
      '$0.05',
      '$0.99',
      '$1.00',
      '$1,234.56',
      '$1,000,000.00',
      '-$60.00',
      '-$1,234,567.89',
    ]);
  });

  it('reads days in UTC', () => {
    expect(formatDay('2025-07-01')).toBe('Jul 1, 2025');
    expect(formatDay('2025-01-31T23:59:59.000Z')).toBe('Jan 31, 2025');
    expect(formatDay('nonsense')).toBe(BLANK);
  });
});

describe('the cards', () => {
  it('show blanks when the portal could not be read', () => {
    const cards = portalCards(null);
    expect(cards.map((c) => [c.title, c.value])).toEqual([
      ['Payment Method', BLANK],
      ['Total Earnings', BLANK],
      ['Pending Payout', BLANK],
      ['Next Payout', BLANK],
    ]);
  });

  it('no setup: Not Set Up, Min $50 required, Not scheduled, Monthly on the 1st', () => {
    const cards = portalCards(portal({ setup: NO_SETUP, next_payout_date: null, total_earnings_cents: 0, pending_payout_cents: 0 }));
    expect(cards).toEqual([
      { id: 'method', title: 'Payment Method', value: 'Not Set Up', notes: [], tone: 'warn' },
      { id: 'total', title: 'Total Earnings', value: '$0.00', notes: ['Lifetime'] },
      { id: 'pending', title: 'Pending Payout', value: '$0.00', notes: [PAYOUT_MESSAGES.minimumRequired], tone: undefined },
      { id: 'next', title: 'Next Payout', value: PAYOUT_MESSAGES.notScheduled, notes: [PAYOUT_MESSAGES.monthlyOnTheFirst] },
    ]);
    expect(PAYOUT_MESSAGES.minimumRequired).toBe('Min $50 required');
    expect(PAYOUT_MESSAGES.notScheduled).toBe('Not scheduled');
  });

  it('PayPal below $50: Complete with the email, the balance and Min $50 required; the next 1st and the last payout', () => {
    const [method, total, pending, next] = portalCards(portal({ last_payout_date: '2025-07-01' }));
    expect(method).toMatchObject({ value: 'Complete', notes: ['PayPal', 'ada@paypal.example'], tone: 'good' });
    expect(total).toMatchObject({ value: '$1,234.56' });
    expect(pending).toMatchObject({ value: '$49.99', notes: ['Min $50 required'] });
    expect(next).toMatchObject({ value: 'Aug 1, 2025', notes: ['Monthly on the 1st', 'Last payout: Jul 1, 2025'] });
  });

  it('ready: Ready for payout; a negative balance is shown as such', () => {
    expect(portalCards(portal({ pending_payout_cents: 5000, ready_for_payout: true }))[2]).toMatchObject({ value: '$50.00', notes: ['Ready for payout'], tone: 'good' });
    expect(portalCards(portal({ pending_payout_cents: -6000 }))[2]).toMatchObject({ value: '-$60.00', notes: ['Min $50 required'] });
    expect(minimumText(2500)).toBe('Min $25 required');
  });

  it('names the wallet: PayPal email, Bank account ••••1234, the Stripe Connect email', () => {
    expect(walletAddress(PAYPAL)).toBe('ada@paypal.example');
    expect(walletAddress(ACH)).toBe('Bank account ••••1234');
    expect(walletAddress(STRIPE)).toBe('ada@stripe.example');
    expect(walletAddress(NO_SETUP)).toBeNull();
    expect(portalCards(portal({ setup: ACH }))[0]!.notes).toEqual(['Bank transfer (ACH)', 'Bank account ••••1234']);
    expect(portalCards(portal({ setup: STRIPE }))[0]!.notes).toEqual(['Stripe Connect', 'ada@stripe.example']);
  });

  it('is set up only when on and the chosen method is saved', () => {
    expect([NO_SETUP, PAYPAL, ACH, STRIPE].map(isSetUp)).toEqual([false, true, true, true]);
    expect(isSetUp({ ...PAYPAL, payout_enabled: false })).toBe(false);
    expect(isSetUp({ ...PAYPAL, paypal_email: null })).toBe(false);
  });

  it('offers to connect a method, then to edit it', () => {
    expect(methodButtonLabel(null)).toBe('Connect payment method');
    expect(methodButtonLabel(portal({ setup: NO_SETUP }))).toBe('Connect payment method');
    expect(methodButtonLabel(portal())).toBe('Edit payment method');
  });
});

describe('the lists', () => {
  it('an earning: what was sold, the video and order, the share; a reversal as a refund', () => {
    const sale = { date: '2025-07-04T10:00:00.000Z', kind: 'sale', source: 'Product Sale', product_name: 'Mug', video_title: 'Sunset', order_ref: 'ABCD1234', creator_share_cents: 455 } as const;
    expect(earningLine(sale, 0)).toEqual({ key: '2025-07-04T10:00:00.000Z-0', date: 'Jul 4, 2025', what: 'Mug', detail: 'From “Sunset” · Order ABCD1234', amount: '$4.55', kind: 'sale' });
    expect(earningLine({ ...sale, kind: 'reversal', creator_share_cents: -455 }, 1)).toMatchObject({ what: 'Refund: Mug', amount: '-$4.55' });
    expect(earningLine({ ...sale, product_name: null, video_title: null, order_ref: null }, 2)).toMatchObject({ what: 'Product Sale', detail: '' });
  });

  it('a payout: amount, method, fee and its status badge', () => {
    const paid = { date: '2025-07-01', period: '2025-07', amount_cents: 123_456, fee_cents: 3610, method: 'paypal', status: 'paid' } as const;
    expect(payoutLine(paid, 0)).toEqual({ key: '2025-07-0', date: 'Jul 1, 2025', method: 'PayPal', amount: '$1,234.56', fee: 'Fee $36.10', status: 'paid', badge: 'Paid' });
    expect(
      (['pending', 'processing', 'paid', 'failed'] as const).map((status) => payoutLine({ ...paid, status, fee_cents: 0 }, 0)).map((l) => [l.badge, l.fee]),
    ).toEqual([
      ['Pending', 'No fee'],
      ['Processing', 'No fee'],
      ['Paid', 'No fee'],
      ['Failed', 'No fee'],
    ]);
  });
});

describe('the statement link', () => {
  it('points at the month, which must be a month and not in the future', () => {
    expect(statementUrl('2025-06')).toBe('/api/payouts/statement?month=2025-06');
    expect(currentMonth(new Date('2025-07-31T23:59:59Z'))).toBe('2025-07');
    expect(isStatementMonth('2025-06', '2025-07')).toBe(true);
    expect(isStatementMonth('2025-07', '2025-07')).toBe(true);
    for (const bad of ['2025-08', '', '2025-13', '2025-7', '1999-12', 'abc']) expect(isStatementMonth(bad, '2025-07'), bad).toBe(false);
  });
});

describe('the info cards', () => {
  it('say monthly on the 1st, the $50 minimum, each method’s processing days and the 70% share', () => {
    const text = infoCards()
      .flatMap((c) => [c.title, ...c.lines])
      .join('\n');
    expect(text).toContain('monthly on the 1st');
    expect(text).toContain('The minimum payout is $50');
    expect(text).toContain('PayPal Business: 1 day');
    expect(text).toContain('Direct bank transfer (ACH): 3 days');
    expect(text).toContain('Stripe Connect: 2 days');
    expect(text).toContain('70%');
  });
});

describe('the method form in the modal', () => {
  it('starts from the saved method and emails; bank numbers are never filled in', () => {
    expect(draftFromSetup(null)).toEqual(EMPTY_DRAFT);
    expect(draftFromSetup(PAYPAL)).toEqual({ ...EMPTY_DRAFT, method: 'paypal', paypalEmail: 'ada@paypal.example' });
    expect(draftFromSetup(ACH)).toEqual({ ...EMPTY_DRAFT, method: 'ach', holderName: 'Ada Lovelace', accountType: 'savings', routingNumber: '', accountNumber: '' });
    expect(draftFromSetup(STRIPE)).toMatchObject({ method: 'stripe_connect', stripeEmail: 'ada@stripe.example' });
  });
});

describe('navigation', () => {
  afterEach(() => vi.useRealTimers());

  it('Back goes back only when this app has a page before this one', () => {
    expect(canGoBack({ idx: 2 })).toBe(true);
    expect(canGoBack({ idx: 0 })).toBe(false);
    expect(canGoBack(null)).toBe(false);
    expect(canGoBack({})).toBe(false);
  });

  it('a signed-out visitor goes home after 3 s, unless the page went first', () => {
    vi.useFakeTimers();
    const home = vi.fn();
    goHomeLater(home);
    vi.advanceTimersByTime(SIGNED_OUT_REDIRECT_MS - 1);
    expect(home).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(home).toHaveBeenCalledTimes(1);
    const cancelled = vi.fn();
    goHomeLater(cancelled)();
    vi.advanceTimersByTime(SIGNED_OUT_REDIRECT_MS);
    expect(cancelled).not.toHaveBeenCalled();
    expect(SIGNED_OUT_REDIRECT_MS).toBe(3000);
  });
});

describe('loadPortal', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('answers the portal without the success flag', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ success: true, ...portal() }), { status: 200 })));
    expect(await loadPortal(new AbortController().signal)).toEqual(portal());
  });

  it('logs a failure and answers null, for the cards to show blanks', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ success: false, error: 'Boom', code: 'INTERNAL' }), { status: 500 })));
    const log = vi.fn();
    expect(await loadPortal(new AbortController().signal, log)).toBeNull();
    expect(log).toHaveBeenCalledTimes(1);
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('offline'))));
    expect(await loadPortal(new AbortController().signal, log)).toBeNull();
    expect(log).toHaveBeenCalledTimes(2);
  });

  it('lets an abort through', async () => {
    const controller = new AbortController();
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(Object.assign(new Error('aborted'), { name: 'AbortError' }))));
    controller.abort();
    await expect(loadPortal(controller.signal, vi.fn())).rejects.toMatchObject({ name: 'AbortError' });
  });
});
