/**
 * The checkout page's rules, as pure functions: the shipping quote's states, what a quote reply
 * and a failure mean in the spec's words (sections 5 and 8), when Place Order may go ahead, and
 * the request bodies. Prices on the page come from the cart and are for display only: the
 * server prices the order itself.
 */
import { CHECKOUT_MESSAGES, ZIP_AUTO_LENGTH, type CheckoutBody, type CheckoutCountry } from '../../../shared/schemas/checkout.ts';
import { isApiError, isTimeoutError } from '../../lib/ApiError.ts';
import type { CartItem } from '../../stores/cart/cartRecord.ts';

export { COUNTRY_NAMES } from '../../../shared/schemas/checkout.ts';

/** What a quote is for: the cart's lines and the address. A quote for other inputs is no quote. */
export function quoteKey(items: readonly Pick<CartItem, 'variant_id' | 'qty'>[], zip: string, country: string): string {
  return JSON.stringify([zip.trim().toUpperCase(), country, items.map((i) => [i.variant_id, i.qty])]);
}

export type ShippingState =
  | { status: 'idle' }
  | { status: 'loading'; key: string }
  | { status: 'calculated'; key: string; cents: number; method: string }
  | { status: 'error'; key: string; message: string };

export type ShippingAction =
  | { type: 'start'; key: string }
  | { type: 'done'; key: string; cents: number; method: string }
  | { type: 'fail'; key: string; message: string };

/** An answer only lands on the request it answers; a later request (or an input change) wins. */
export function shippingReducer(state: ShippingState, action: ShippingAction): ShippingState {
  switch (action.type) {
    case 'start':
      return { status: 'loading', key: action.key };
    case 'done':
      if (state.status !== 'loading' || state.key !== action.key) return state;
      return { status: 'calculated', key: action.key, cents: action.cents, method: action.method };
    case 'fail':
      if (state.status !== 'loading' || state.key !== action.key) return state;
      return { status: 'error', key: action.key, message: action.message };
  }
}

/** The state for the inputs on the page now: changing the ZIP, country or cart makes it idle again. */
export function shippingFor(state: ShippingState, key: string): ShippingState {
  return state.status !== 'idle' && state.key === key ? state : { status: 'idle' };
}

/** Spec section 4: calculate on its own once the ZIP is long enough, when idle and the cart holds something. */
export function shouldAutoCalculate(zip: string, shipping: ShippingState, cartSize: number): boolean {
  return zip.trim().length >= ZIP_AUTO_LENGTH && shipping.status === 'idle' && cartSize > 0;
}

export type QuoteResult = { ok: true; cents: number; method: string } | { ok: false; message: string };

/**
 * A quote reply: the cost (shipping_cost, or the spec's other names for it) must parse to a number
 * above 0. The exact cents are taken when the server gives them and agree with the dollars.
 */
export function parseShippingReply(reply: unknown): QuoteResult {
  const r = (typeof reply === 'object' && reply !== null ? reply : {}) as Record<string, unknown>;
  const name = ['shipping_cost', 'cost', 'price', 'amount'].find((n) => n in r);
  const raw = name === undefined ? undefined : r[name];
  const dollars = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw.trim().replace(/^\$/, '')) : Number.NaN;
  if (!Number.isFinite(dollars) || dollars <= 0) return { ok: false, message: CHECKOUT_MESSAGES.invalidShippingCost(String(raw)) };
  const fromDollars = Math.round(dollars * 100);
  const exact = r.shipping_cost_cents;
  const cents = Number.isSafeInteger(exact) && Math.abs((exact as number) - fromDollars) <= 1 ? (exact as number) : fromDollars;
  const method = typeof r.shipping_method === 'string' ? r.shipping_method : typeof r.method === 'string' ? r.method : 'Standard';
  return { ok: true, cents, method };
}

/** Spec section 8 'Shipping': 404, the server not reached, the server's own error, else the default. */
export function shippingErrorMessage(error: unknown): string {
  if (isTimeoutError(error)) return CHECKOUT_MESSAGES.shippingNetwork('the server did not answer in time');
  if (isApiError(error)) {
    if (error.status === 404) return CHECKOUT_MESSAGES.shippingNotFound;
    if (error.status === 0) return CHECKOUT_MESSAGES.shippingNetwork('the server could not be reached');
    if (error.serverError) return error.serverError;
    return CHECKOUT_MESSAGES.shippingDefault;
  }
  if (error instanceof TypeError) return CHECKOUT_MESSAGES.shippingNetwork(error.message);
  return CHECKOUT_MESSAGES.shippingDefault;
}

/** Spec section 8 'Checkout': the server's error, the server not reached, a refusal with no text, anything else. */
export function checkoutErrorMessage(error: unknown): string {
  if (isApiError(error)) {
    if (error.status === 0) return CHECKOUT_MESSAGES.checkoutNetwork;
    if (error.serverError) return CHECKOUT_MESSAGES.checkoutError(error.serverError);
    return CHECKOUT_MESSAGES.checkoutFailed;
  }
  return CHECKOUT_MESSAGES.checkoutException(error instanceof Error ? error.message : String(error));
}

/**
 * Spec section 5: what stops Place Order before anything is sent. 'calculate' means the quote has
 * not been made yet: the page makes it first and goes on only if it succeeds.
 */
export function placeOrderCheck(zip: string, shipping: ShippingState): { kind: 'block'; message: string } | { kind: 'calculate' } | { kind: 'go' } {
  if (zip.trim() === '') return { kind: 'block', message: CHECKOUT_MESSAGES.zipBeforeProceeding };
  if (shipping.status === 'loading') return { kind: 'block', message: CHECKOUT_MESSAGES.waitForShipping };
  if (shipping.status !== 'calculated') return { kind: 'calculate' };
  return { kind: 'go' };
}

export function shippingBody(items: readonly CartItem[], zip: string, country: CheckoutCountry) {
  return {
    shipping_address: { zip: zip.trim(), country_code: country },
    cart: items.map((i) => ({ variant_id: i.variant_id, quantity: i.qty })),
  };
}

/** The checkout body: what to print and where to; no price, name or creator (the server ignores them). */
export function checkoutBody(
  items: readonly CartItem[],
  zip: string,
  country: CheckoutCountry,
  email: string,
  idempotencyKey: string,
  smsConsent = false,
): CheckoutBody {
  const body: CheckoutBody = {
    shipping_address: { zip: zip.trim(), country_code: country },
    cart: items.map((i) => ({ product_id: i.product_id, variant_id: i.variant_id, quantity: i.qty, selected_screenshot: i.selected_screenshot })),
    sms_consent: smsConsent,
    idempotency_key: idempotencyKey,
  };
  if (email.trim() !== '') body.email = email.trim();
  return body;
}

/** A new idempotency key: letters, digits, '-' and '_' only, as the server accepts. */
export function newIdempotencyKey(random: () => string = () => crypto.randomUUID()): string {
  return `co_${random().replace(/[^A-Za-z0-9_-]/g, '')}`;
}

/**
 * One key per checkout attempt: the same cart, address and email reuse the last key (so a double
 * click or a retry after a lost reply finds the same order); anything changed gets a new one.
 */
export function attemptKey(previous: { fingerprint: string; key: string } | null, body: Omit<CheckoutBody, 'idempotency_key'>, fresh: () => string) {
  const fingerprint = JSON.stringify([body.shipping_address, body.cart, body.email ?? null, body.sms_consent ?? false]);
  if (previous && previous.fingerprint === fingerprint) return previous;
  return { fingerprint, key: fresh() };
}

/** Where Continue Shopping goes: the product page of the last item added, or the merchandise page. */
export function continueShoppingPath(items: readonly Pick<CartItem, 'product_id'>[]): string {
  const last = items.at(-1);
  return last ? `/product/${encodeURIComponent(last.product_id)}` : '/merchandise';
}
