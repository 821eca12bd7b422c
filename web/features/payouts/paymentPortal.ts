/**
 * /payment-portal as data, apart from the page so the rules can be tested without a browser:
 * who sees what, the four cards (spec section 2, with PAYOUT_MESSAGES' texts), the recent lists,
 * the statement link, and the method form's starting values. A failed read is logged and the
 * cards show blanks (spec section 8).
 */
import { CREATOR_SHARE_PERCENT } from '../../../shared/constants.ts';
import type { SessionUser } from '../../../shared/schemas/auth.ts';
import {
  DEFAULT_PAYOUT_THRESHOLD_CENTS,
  PAYOUT_MESSAGES,
  paymentPortalRoute,
  payoutStatementRoute,
  STATEMENT_MONTH_PATTERN,
  type PaymentMethodOption,
  type PaymentPortal,
  type PayoutMethodName,
  type PayoutSetup,
  type PayoutStatus,
  type PortalEarning,
  type PortalPayout,
} from '../../../shared/schemas/payouts.ts';
import { isAbortError } from '../../lib/ApiError.ts';
import { buildUrl, request } from '../../lib/api.ts';
import { isCreator } from '../../stores/roles.ts';
import type { AuthStatus } from '../../stores/useAuth.ts';
import { EMPTY_DRAFT, type MethodDraft } from './payoutForm.ts';
import { DEFAULT_PAYMENT_METHODS, formatDollars, formatProcessing } from './payoutMethods.ts';

export const PAYMENT_PORTAL_PATH = '/payment-portal';
/** What a card shows when its figure could not be read. */
export const BLANK = '—';
/** How long a signed-out visitor reads the message before going home. */
export const SIGNED_OUT_REDIRECT_MS = 3000;

export type PortalAccess = { kind: 'loading' } | { kind: 'signed-out' } | { kind: 'denied' } | { kind: 'portal' };

export function portalAccess(status: AuthStatus, user: SessionUser | null): PortalAccess {
  if (status === 'loading' || status === 'pending') return { kind: 'loading' };
  if (status !== 'signed-in' || !user) return { kind: 'signed-out' };
  return isCreator(user) ? { kind: 'portal' } : { kind: 'denied' };
}

/** $1,234.56 from cents (-$12.00 below zero). */
export function formatMoney(cents: number): string {
  const abs = Math.abs(cents);
  const dollars = Math.floor(abs / 100).toLocaleString('en-US');
  return `${cents < 0 ? '-' : ''}$${dollars}.${String(abs % 100).padStart(2, '0')}`;
}

/** 'Jul 1, 2025' from YYYY-MM-DD or an ISO timestamp, read in UTC (the days payouts and statements count in). */
export function formatDay(value: string): string {
  const date = new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(date.getTime())) return BLANK;
  return date.toLocaleDateString('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric', year: 'numeric' });
}

/** The current month (UTC), YYYY-MM: the latest a statement may be asked for. */
export function currentMonth(now: Date = new Date()): string {
  return now.toISOString().slice(0, 7);
}

/** A month the server gives a statement for: YYYY-MM, not after `latest` (the current month). */
export function isStatementMonth(month: string, latest: string): boolean {
  return new RegExp(STATEMENT_MONTH_PATTERN).test(month) && month <= latest;
}

/** Where 'Download statement (CSV)' points for a month. */
export function statementUrl(month: string): string {
  return buildUrl(payoutStatementRoute.url, undefined, { month });
}

export const METHOD_NAMES: Record<PayoutMethodName, string> = { paypal: 'PayPal', ach: 'Bank transfer (ACH)', stripe_connect: 'Stripe Connect' };

/** Payouts can go out: switched on, with the chosen method's details saved (as the server decides). */
export function isSetUp(setup: PayoutSetup): boolean {
  if (!setup.payout_enabled) return false;
  if (setup.preferred_payment_method === 'paypal') return setup.paypal_email !== null;
  if (setup.preferred_payment_method === 'ach') return setup.ach !== null;
  if (setup.preferred_payment_method === 'stripe_connect') return setup.stripe_connect !== null;
  return false;
}

/** Where the money goes, as the card shows it: the PayPal email, 'Bank account ••••1234' or the Stripe Connect email. */
export function walletAddress(setup: PayoutSetup): string | null {
  switch (setup.preferred_payment_method) {
    case 'paypal':
      return setup.paypal_email;
    case 'ach':
      return setup.ach ? `Bank account ••••${setup.ach.account_last4}` : null;
    case 'stripe_connect':
      return setup.stripe_connect?.email ?? null;
    default:
      return null;
  }
}

export interface PortalCard {
  id: 'method' | 'total' | 'pending' | 'next';
  title: string;
  value: string;
  /** Lines under the value. */
  notes: string[];
  /** 'good' marks Complete and Ready for payout. */
  tone?: 'good' | 'warn';
}

/** 'Min $50 required', or the creator's own threshold in the same words. */
export function minimumText(thresholdCents: number): string {
  return thresholdCents === DEFAULT_PAYOUT_THRESHOLD_CENTS ? PAYOUT_MESSAGES.minimumRequired : `Min ${formatDollars(thresholdCents)} required`;
}

/** The four cards; with no portal (its read failed) every figure is a blank. */
export function portalCards(portal: PaymentPortal | null): PortalCard[] {
  if (!portal) {
    return [
      { id: 'method', title: 'Payment Method', value: BLANK, notes: [] },
      { id: 'total', title: 'Total Earnings', value: BLANK, notes: ['Lifetime'] },
      { id: 'pending', title: 'Pending Payout', value: BLANK, notes: [] },
      { id: 'next', title: 'Next Payout', value: BLANK, notes: [PAYOUT_MESSAGES.monthlyOnTheFirst] },
    ];
  }
  const setUp = isSetUp(portal.setup);
  const wallet = walletAddress(portal.setup);
  const method = portal.setup.preferred_payment_method;
  return [
    {
      id: 'method',
      title: 'Payment Method',
      value: setUp ? 'Complete' : 'Not Set Up',
      notes: setUp && method ? [METHOD_NAMES[method], ...(wallet ? [wallet] : [])] : [],
      tone: setUp ? 'good' : 'warn',
    },
    { id: 'total', title: 'Total Earnings', value: formatMoney(portal.total_earnings_cents), notes: ['Lifetime'] },
    {
      id: 'pending',
      title: 'Pending Payout',
      value: formatMoney(portal.pending_payout_cents),
      notes: [portal.ready_for_payout ? PAYOUT_MESSAGES.readyForPayout : minimumText(portal.payout_threshold_cents)],
      tone: portal.ready_for_payout ? 'good' : undefined,
    },
    {
      id: 'next',
      title: 'Next Payout',
      value: portal.next_payout_date ? formatDay(portal.next_payout_date) : PAYOUT_MESSAGES.notScheduled,
      notes: [PAYOUT_MESSAGES.monthlyOnTheFirst, ...(portal.last_payout_date ? [`Last payout: ${formatDay(portal.last_payout_date)}`] : [])],
    },
  ];
}

/** 'Connect payment method' until a method is saved, then 'Edit payment method'. */
export function methodButtonLabel(portal: PaymentPortal | null): string {
  return portal?.setup.preferred_payment_method ? 'Edit payment method' : 'Connect payment method';
}

export const STATUS_LABELS: Record<PayoutStatus, string> = { pending: 'Pending', processing: 'Processing', paid: 'Paid', failed: 'Failed' };

export interface EarningLine {
  key: string;
  date: string;
  what: string;
  detail: string;
  amount: string;
  kind: PortalEarning['kind'];
}

/** An earning as the list shows it: what was sold, from which video, the order's short reference. */
export function earningLine(e: PortalEarning, index: number): EarningLine {
  const detail = [e.video_title ? `From “${e.video_title}”` : null, e.order_ref ? `Order ${e.order_ref}` : null].filter(Boolean).join(' · ');
  return {
    key: `${e.date}-${index}`,
    date: formatDay(e.date),
    what: e.kind === 'reversal' ? `Refund: ${e.product_name ?? e.source}` : (e.product_name ?? e.source),
    detail,
    amount: formatMoney(e.creator_share_cents),
    kind: e.kind,
  };
}

export interface PayoutLine {
  key: string;
  date: string;
  method: string;
  amount: string;
  fee: string;
  status: PayoutStatus;
  badge: string;
}

export function payoutLine(p: PortalPayout, index: number): PayoutLine {
  return {
    key: `${p.period}-${index}`,
    date: formatDay(p.date),
    method: METHOD_NAMES[p.method],
    amount: formatMoney(p.amount_cents),
    fee: p.fee_cents > 0 ? `Fee ${formatMoney(p.fee_cents)}` : 'No fee',
    status: p.status,
    badge: STATUS_LABELS[p.status],
  };
}

/** The info cards: how payouts work (spec section 9), with each method's processing time. */
export function infoCards(methods: readonly PaymentMethodOption[] = DEFAULT_PAYMENT_METHODS): { title: string; lines: string[] }[] {
  return [
    {
      title: 'How payouts work',
      lines: [
        'Payouts go out monthly on the 1st (UTC), for everything earned up to the end of the month before.',
        `The minimum payout is ${formatDollars(DEFAULT_PAYOUT_THRESHOLD_CENTS)}; a smaller balance carries over to the next month.`,
      ],
    },
    {
      title: 'Processing time',
      lines: methods.map((m) => `${m.display_name}: ${formatProcessing(m.processing_time_days)}`),
    },
    {
      title: 'Your share',
      lines: [
        `You earn ${CREATOR_SHARE_PERCENT}% of the margin of every item sold from your videos.`,
        'A refunded sale is taken back from your balance, even after it was paid out.',
      ],
    },
  ];
}

/** The method form's starting values: the saved emails and method; bank numbers are never filled in. */
export function draftFromSetup(setup: PayoutSetup | null): MethodDraft {
  if (!setup) return EMPTY_DRAFT;
  return {
    ...EMPTY_DRAFT,
    method: setup.preferred_payment_method ?? EMPTY_DRAFT.method,
    paypalEmail: setup.paypal_email ?? '',
    holderName: setup.ach?.holder_name ?? '',
    accountType: setup.ach?.account_type ?? EMPTY_DRAFT.accountType,
    stripeEmail: setup.stripe_connect?.email ?? '',
  };
}

/** Goes home after SIGNED_OUT_REDIRECT_MS; answers the cancel (the effect's cleanup). */
export function goHomeLater(goHome: () => void, ms: number = SIGNED_OUT_REDIRECT_MS): () => void {
  const timer = setTimeout(goHome, ms);
  return () => clearTimeout(timer);
}

/** Whether the browser's history has a page of this app before this one (React Router counts them in history.state.idx). */
export function canGoBack(historyState: unknown): boolean {
  const idx = (historyState as { idx?: unknown } | null)?.idx;
  return typeof idx === 'number' && idx > 0;
}

/** GET /api/payouts/portal; a failure is logged and answered as null (the cards show blanks). */
export async function loadPortal(signal: AbortSignal, log: (...args: unknown[]) => void = console.warn): Promise<PaymentPortal | null> {
  try {
    const { success: _success, ...portal } = await request(paymentPortalRoute, { signal });
    return portal;
  } catch (error) {
    if (isAbortError(error) || signal.aborted) throw error;
    log('Payment portal: could not load the portal', error);
    return null;
  }
}
