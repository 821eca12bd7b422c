/**
 * The payout methods step 1 offers: the server's list for the chosen country, or the spec's
 * defaults (section 9) when it has none or cannot be reached; and how a method's terms read.
 */
import { formatCents } from '../../../shared/money.ts';
import { CARD_PROCESSOR_COUNTRIES, paymentMethodsRoute, type PaymentMethodOption } from '../../../shared/schemas/payouts.ts';
import { isAbortError } from '../../lib/ApiError.ts';
import { request } from '../../lib/api.ts';

/** Spec section 9: used when the server's list is empty (or the server is not reached). */
export const DEFAULT_PAYMENT_METHODS: readonly PaymentMethodOption[] = [
  {
    method_name: 'paypal',
    display_name: 'PayPal Business',
    description: 'Paid to the PayPal account of your email address.',
    fees_percentage: 2.9,
    fees_fixed_cents: 30,
    processing_time_days: 1,
    min_payout_cents: 5000,
    is_available: true,
  },
  {
    method_name: 'ach',
    display_name: 'Direct bank transfer (ACH)',
    description: 'Paid straight into your US checking or savings account.',
    fees_percentage: 0.5,
    fees_fixed_cents: 25,
    processing_time_days: 3,
    min_payout_cents: 5000,
    is_available: true,
  },
  {
    method_name: 'stripe_connect',
    display_name: 'Stripe Connect',
    description: 'Paid through a Stripe account; Stripe asks for your details once.',
    fees_percentage: 2.9,
    fees_fixed_cents: 30,
    processing_time_days: 2,
    min_payout_cents: 2500,
    is_available: true,
  },
];

/** The card processor's countries (spec section 9) and a few others; US first, the default. */
export const PAYOUT_COUNTRIES = [
  { code: 'US', name: 'United States' },
  { code: 'CA', name: 'Canada' },
  { code: 'GB', name: 'United Kingdom' },
  { code: 'AU', name: 'Australia' },
  { code: 'DE', name: 'Germany' },
  { code: 'FR', name: 'France' },
  { code: 'IE', name: 'Ireland' },
  { code: 'NL', name: 'Netherlands' },
  { code: 'NZ', name: 'New Zealand' },
  { code: 'MX', name: 'Mexico' },
  { code: 'IN', name: 'India' },
  { code: 'JP', name: 'Japan' },
] as const;
export type PayoutCountry = (typeof PAYOUT_COUNTRIES)[number]['code'];
export const DEFAULT_COUNTRY: PayoutCountry = 'US';

export function isPayoutCountry(value: unknown): value is PayoutCountry {
  return PAYOUT_COUNTRIES.some((c) => c.code === value);
}

/**
 * What the country's creators may choose: the server's available methods, else the defaults,
 * without the card processor where it does not operate.
 */
export function methodsForCountry(fromServer: readonly PaymentMethodOption[] | null, country: string): PaymentMethodOption[] {
  const available = (fromServer ?? []).filter((m) => m.is_available);
  if (available.length > 0) return available;
  const cardProcessor = (CARD_PROCESSOR_COUNTRIES as readonly string[]).includes(country);
  return DEFAULT_PAYMENT_METHODS.filter((m) => cardProcessor || m.method_name !== 'stripe_connect');
}

/** GET /api/payment-methods, falling back to the defaults on an empty list or any failure but our own abort. */
export async function loadPaymentMethods(country: string, signal: AbortSignal): Promise<PaymentMethodOption[]> {
  try {
    const reply = await request(paymentMethodsRoute, { query: { country }, signal });
    return methodsForCountry(reply.methods, country);
  } catch (error) {
    if (isAbortError(error) || signal.aborted) throw error;
    return methodsForCountry(null, country);
  }
}

/** '$50' for whole dollars, '$0.30' otherwise. */
export function formatDollars(cents: number): string {
  return cents % 100 === 0 ? formatCents(cents).slice(0, -3) : formatCents(cents);
}

/** '2.9% + $0.30', '0.5%', '$0.25' or 'No fees'. */
export function formatFee(method: Pick<PaymentMethodOption, 'fees_percentage' | 'fees_fixed_cents'>): string {
  const parts: string[] = [];
  // Rounded to what a person reads (2.9, not 2.9000000000000004).
  if (method.fees_percentage > 0) parts.push(`${Number(method.fees_percentage.toFixed(2))}%`);
  if (method.fees_fixed_cents > 0) parts.push(formatCents(method.fees_fixed_cents));
  return parts.length > 0 ? parts.join(' + ') : 'No fees';
}

export function formatProcessing(days: number): string {
  return days === 0 ? 'Same day' : `${days} ${days === 1 ? 'day' : 'days'}`;
}

/** The method the creator picked, or the first one when the country does not offer it. */
export function chosenMethod(methods: readonly PaymentMethodOption[] | null, picked: string): PaymentMethodOption | null {
  return methods?.find((m) => m.method_name === picked) ?? methods?.[0] ?? null;
}

const COUNTRY_KEY = 'framemerch.payoutCountry';

/** The country chosen last time on this device (a preference, nothing about identity), else the default. */
export function rememberedCountry(): PayoutCountry {
  try {
    const value = globalThis.localStorage?.getItem(COUNTRY_KEY);
    return isPayoutCountry(value) ? value : DEFAULT_COUNTRY;
  } catch {
    return DEFAULT_COUNTRY;
  }
}

export function rememberCountry(country: PayoutCountry): void {
  try {
    globalThis.localStorage?.setItem(COUNTRY_KEY, country);
  } catch {
    // Storage can be disabled; the choice then lasts for this visit only.
  }
}
