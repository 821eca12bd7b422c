import { describe, expect, it } from 'vitest';
import { CHECKOUT_MESSAGES } from '../../../shared/schemas/checkout.ts';
import { ApiError } from '../../lib/ApiError.ts';
import type { CartItem } from '../../stores/cart/cartRecord.ts';
import { cartItem } from './checkoutFixtures.ts';
import {
  attemptKey,
  checkoutBody,
  checkoutErrorMessage,
  continueShoppingPath,
  newIdempotencyKey,
  parseShippingReply,
  placeOrderCheck,
  quoteKey,
  shippingErrorMessage,
  shippingFor,
  shippingReducer,
  shouldAutoCalculate,
  type ShippingState,
} from './checkoutLogic.ts';

/** The fixture's line with two of it, unless told otherwise. */
const line = (over: Partial<CartItem> = {}): CartItem => cartItem({ qty: 2, ...over });

describe('the shipping quote states', () => {
  const key = quoteKey([line()], '10001', 'US');

  it('goes idle, loading, calculated, and an answer only lands on the request it answers', () => {
    let s: ShippingState = { status: 'idle' };
    s = shippingReducer(s, { type: 'start', key });
    expect(shippingFor(s, key)).toEqual({ status: 'loading', key });
    // An answer for an earlier request is dropped.
    expect(shippingReducer(s, { type: 'done', key: 'older', cents: 100, method: 'Standard' })).toBe(s);
    s = shippingReducer(s, { type: 'done', key, cents: 475, method: 'Standard' });
    expect(s).toEqual({ status: 'calculated', key, cents: 475, method: 'Standard' });
    // A late failure does not undo a quote.
    expect(shippingReducer(s, { type: 'fail', key, message: 'x' })).toBe(s);
  });

  it('is idle again once the ZIP, the country or the cart changes, so it is asked again', () => {
    const calculated: ShippingState = { status: 'calculated', key, cents: 475, method: 'Standard' };
    expect(shippingFor(calculated, key).status).toBe('calculated');
    expect(shippingFor(calculated, quoteKey([line()], '10002', 'US'))).toEqual({ status: 'idle' });
    expect(shippingFor(calculated, quoteKey([line()], '10001', 'CA'))).toEqual({ status: 'idle' });
    expect(shippingFor(calculated, quoteKey([line({ qty: 3 })], '10001', 'US'))).toEqual({ status: 'idle' });
    // Spaces around the ZIP and its case are not a change.
    expect(shippingFor(calculated, quoteKey([line()], ' 10001 ', 'US')).status).toBe('calculated');
  });

  it('calculates on its own from 5 characters, when idle and the cart holds something', () => {
    const idle: ShippingState = { status: 'idle' };
    expect(shouldAutoCalculate('1000', idle, 1)).toBe(false);
    expect(shouldAutoCalculate('10001', idle, 1)).toBe(true);
    expect(shouldAutoCalculate('SW1A 1AA', idle, 1)).toBe(true);
    expect(shouldAutoCalculate('    10', idle, 1)).toBe(false);
    expect(shouldAutoCalculate('10001', idle, 0)).toBe(false);
    expect(shouldAutoCalculate('10001', { status: 'loading', key }, 1)).toBe(false);
    expect(shouldAutoCalculate('10001', { status: 'calculated', key, cents: 1, method: 'Standard' }, 1)).toBe(false);
    // A failed quote is not asked again until something changes.
    expect(shouldAutoCalculate('10001', { status: 'error', key, message: 'x' }, 1)).toBe(false);
  });
});

describe('a quote reply', () => {
  it('takes the exact cents with the method', () => {
    expect(parseShippingReply({ success: true, shipping_cost: 4.75, shipping_cost_cents: 475, shipping_method: 'Standard' })).toEqual({
      ok: true,
      cents: 475,
      method: 'Standard',
    });
  });

  it("reads the spec's other names for the cost, and dollars given as text", () => {
    expect(parseShippingReply({ cost: '9.99', method: 'Express' })).toEqual({ ok: true, cents: 999, method: 'Express' });
    expect(parseShippingReply({ amount: 14.99 })).toEqual({ ok: true, cents: 1499, method: 'Standard' });
    // Cents that disagree with the dollars are not trusted over them.
    expect(parseShippingReply({ shipping_cost: 4.75, shipping_cost_cents: 9999 })).toMatchObject({ cents: 475 });
  });

  it('refuses a cost that is not a number above 0, quoting what came', () => {
    for (const [reply, shown] of [
      [{ shipping_cost: 0 }, '0'],
      [{ shipping_cost: -1 }, '-1'],
      [{ shipping_cost: 'free' }, 'free'],
      [{ shipping_cost: null }, 'null'],
      [{}, 'undefined'],
    ] as const) {
      expect(parseShippingReply(reply)).toEqual({ ok: false, message: CHECKOUT_MESSAGES.invalidShippingCost(shown) });
    }
    expect(CHECKOUT_MESSAGES.invalidShippingCost('0')).toBe('Invalid shipping cost received (0). Please verify your ZIP code and try again.');
  });
});

describe('failure messages', () => {
  it("shipping: 404, the server not reached, the server's error, else the default", () => {
    expect(shippingErrorMessage(new ApiError(404, 'NOT_FOUND', 'x', 'Route not found'))).toBe(CHECKOUT_MESSAGES.shippingNotFound);
    expect(shippingErrorMessage(new ApiError(0, 'NETWORK_ERROR', 'x'))).toBe(
      'Network error: the server could not be reached. Please check your connection and try again.',
    );
    expect(shippingErrorMessage(Object.assign(new Error('t'), { name: 'TimeoutError' }))).toBe(CHECKOUT_MESSAGES.shippingNetwork('the server did not answer in time'));
    expect(shippingErrorMessage(new ApiError(400, 'BAD_ZIP', 'x', 'Please enter a valid ZIP / Postal Code.'))).toBe('Please enter a valid ZIP / Postal Code.');
    expect(shippingErrorMessage(new ApiError(502, 'NOT_JSON', 'x'))).toBe(CHECKOUT_MESSAGES.shippingDefault);
    expect(shippingErrorMessage(new Error('?'))).toBe(CHECKOUT_MESSAGES.shippingDefault);
  });

  it("checkout: the server's error, the server not reached, a refusal without text, anything else", () => {
    expect(checkoutErrorMessage(new ApiError(400, 'CART_EMPTY', 'x', 'Your cart is empty.'))).toBe('Checkout Error: Your cart is empty.');
    expect(checkoutErrorMessage(new ApiError(0, 'NETWORK_ERROR', 'x'))).toBe('Network error starting checkout');
    expect(checkoutErrorMessage(new ApiError(500, 'NOT_JSON', 'x'))).toBe('Failed to start checkout');
    expect(checkoutErrorMessage(new Error('no payment page was given'))).toBe('Checkout error: no payment page was given');
  });
});

describe('Place Order', () => {
  const key = 'k';
  it('needs a ZIP, waits for a running quote, quotes first when there is none', () => {
    expect(placeOrderCheck('  ', { status: 'calculated', key, cents: 1, method: 'Standard' })).toEqual({
      kind: 'block',
      message: 'Please enter your ZIP / Postal Code before proceeding.',
    });
    expect(placeOrderCheck('10001', { status: 'loading', key })).toEqual({ kind: 'block', message: 'Please wait for shipping calculation to complete.' });
    expect(placeOrderCheck('10001', { status: 'idle' })).toEqual({ kind: 'calculate' });
    expect(placeOrderCheck('10001', { status: 'error', key, message: 'x' })).toEqual({ kind: 'calculate' });
    expect(placeOrderCheck('10001', { status: 'calculated', key, cents: 1, method: 'Standard' })).toEqual({ kind: 'go' });
  });

  it('sends what to print and where, never a price, and the email only when given', () => {
    const body = checkoutBody([line()], ' 10001 ', 'US', '', 'co_abcdefgh');
    expect(body).toEqual({
      shipping_address: { zip: '10001', country_code: 'US' },
      cart: [{ product_id: line().product_id, variant_id: 'unisex-tshirt|Black||M', quantity: 2, selected_screenshot: 1 }],
      sms_consent: false,
      idempotency_key: 'co_abcdefgh',
    });
    expect(JSON.stringify(body)).not.toMatch(/price|2169/);
    expect(checkoutBody([line()], '10001', 'US', ' a@b.example ', 'co_abcdefgh').email).toBe('a@b.example');
  });

  it('sends the SMS consent as ticked, and a change of it is a new attempt', () => {
    expect(checkoutBody([line()], '10001', 'US', '', 'co_abcdefgh', true).sms_consent).toBe(true);
    expect(checkoutBody([line()], '10001', 'US', '', 'co_abcdefgh', false).sms_consent).toBe(false);
    let n = 0;
    const fresh = () => `key-${++n}`;
    const without = attemptKey(null, checkoutBody([line()], '10001', 'US', '', '', false), fresh);
    expect(attemptKey(without, checkoutBody([line()], '10001', 'US', '', '', true), fresh).key).not.toBe(without.key);
  });

  it('keeps one idempotency key per attempt: the same cart and address reuse it, a change makes a new one', () => {
    let n = 0;
    const fresh = () => `key-${++n}`;
    const first = attemptKey(null, checkoutBody([line()], '10001', 'US', '', ''), fresh);
    const again = attemptKey(first, checkoutBody([line()], '10001', 'US', '', ''), fresh);
    expect(again.key).toBe(first.key);
    const moved = attemptKey(again, checkoutBody([line()], '10002', 'US', '', ''), fresh);
    expect(moved.key).not.toBe(first.key);
    const more = attemptKey(moved, checkoutBody([line({ qty: 3 })], '10002', 'US', '', ''), fresh);
    expect(more.key).not.toBe(moved.key);
  });

  it('makes keys the server accepts', () => {
    const key = newIdempotencyKey();
    expect(key).toMatch(/^[A-Za-z0-9_-]{8,100}$/);
    expect(newIdempotencyKey()).not.toBe(key);
  });

  it('Continue Shopping goes back to the last product, or to the merchandise page', () => {
    expect(continueShoppingPath([line({ product_id: 'a' }), line({ product_id: 'b' })])).toBe('/product/b');
    expect(continueShoppingPath([])).toBe('/merchandise');
  });
});
