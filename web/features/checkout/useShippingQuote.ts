import { useCallback, useEffect, useReducer, useRef } from 'react';
import { calculateShippingRoute, SHIPPING_AUTO_DELAY_MS, type CheckoutCountry } from '../../../shared/schemas/checkout.ts';
import { request } from '../../lib/api.ts';
import { isAbortError } from '../../lib/ApiError.ts';
import type { CartItem } from '../../stores/cart/cartRecord.ts';
import { parseShippingReply, quoteKey, shippingBody, shippingErrorMessage, shippingFor, shippingReducer, shouldAutoCalculate, type ShippingState } from './checkoutLogic.ts';

/** A quote waits this long at most; then it is a network failure. */
const QUOTE_TIMEOUT_MS = 30_000;

/**
 * The shipping quote for the cart and address on the page. `calculate` asks now and resolves to
 * the state it ends in; the quote is also asked on its own SHIPPING_AUTO_DELAY_MS after the ZIP
 * is long enough. Any change of ZIP, country or cart makes the quote idle again.
 */
export function useShippingQuote(items: readonly CartItem[], zip: string, country: CheckoutCountry) {
  const [state, dispatch] = useReducer(shippingReducer, { status: 'idle' });
  const key = quoteKey(items, zip, country);
  const shipping = shippingFor(state, key);
  const inflight = useRef<{ key: string; promise: Promise<ShippingState> } | null>(null);

  const run = useCallback((items: readonly CartItem[], zip: string, country: CheckoutCountry): Promise<ShippingState> => {
    const key = quoteKey(items, zip, country);
    if (inflight.current?.key === key) return inflight.current.promise;
    dispatch({ type: 'start', key });
    const promise = (async (): Promise<ShippingState> => {
      try {
        const reply = await request(calculateShippingRoute, { body: shippingBody(items, zip, country), signal: AbortSignal.timeout(QUOTE_TIMEOUT_MS) });
        const parsed = parseShippingReply(reply);
        if (parsed.ok) {
          dispatch({ type: 'done', key, cents: parsed.cents, method: parsed.method });
          return { status: 'calculated', key, cents: parsed.cents, method: parsed.method };
        }
        dispatch({ type: 'fail', key, message: parsed.message });
        return { status: 'error', key, message: parsed.message };
      } catch (error) {
        // A timed-out fetch rejects with the signal's TimeoutError (or an AbortError naming it).
        const cause = isAbortError(error) ? Object.assign(new Error('timeout'), { name: 'TimeoutError' }) : error;
        const message = shippingErrorMessage(cause);
        dispatch({ type: 'fail', key, message });
        return { status: 'error', key, message };
      } finally {
        if (inflight.current?.key === key) inflight.current = null;
      }
    })();
    inflight.current = { key, promise };
    return promise;
  }, []);

  const auto = shouldAutoCalculate(zip, shipping, items.length);
  useEffect(() => {
    if (!auto) return;
    const timer = setTimeout(() => void run(items, zip, country), SHIPPING_AUTO_DELAY_MS);
    return () => clearTimeout(timer);
  }, [auto, run, items, zip, country]);

  const calculate = () => run(items, zip, country);

  return { shipping, calculate, key };
}
