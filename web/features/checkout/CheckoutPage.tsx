import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { formatCents } from '../../../shared/money.ts';
import {
  CHECKOUT_COUNTRIES,
  CHECKOUT_MESSAGES,
  createCheckoutSessionRoute,
  placeOrderRoute,
  type CheckoutCountry,
} from '../../../shared/schemas/checkout.ts';
import { StatusMessage } from '../../components/StatusMessage.tsx';
import { request } from '../../lib/api.ts';
import { isApiError } from '../../lib/ApiError.ts';
import { cartDisplayTotalCents, optionsText, type CartItem } from '../../stores/cart/cartRecord.ts';
import { useCart } from '../../stores/cart/cartStore.ts';
import { useDocumentTitle } from '../../lib/useDocumentTitle.ts';
import { attemptKey, checkoutBody, checkoutErrorMessage, continueShoppingPath, COUNTRY_NAMES, newIdempotencyKey, placeOrderCheck } from './checkoutLogic.ts';
import { loadDraft, saveDraft, type CheckoutDraft } from './checkoutDraft.ts';
import { CheckoutSteps } from './CheckoutSteps.tsx';
import { useShippingQuote } from './useShippingQuote.ts';
import './CheckoutPage.css';

/** /checkout: review the cart, quote shipping to a ZIP and country, and go to the hosted payment page. */
export function CheckoutPage() {
  useDocumentTitle('Checkout');
  const status = useCart((s) => s.status);
  const items = useCart((s) => s.items);

  useEffect(() => {
    void useCart.getState().load();
  }, []);

  return (
    <section className="checkout" aria-labelledby="checkout-title">
      <CheckoutSteps current={1} />
      <h1 id="checkout-title" className="checkout__title">
        Checkout
      </h1>
      {status === 'loading' ? (
        <StatusMessage kind="loading" title="Loading your cart..." />
      ) : items.length === 0 ? (
        <StatusMessage kind="info" title={CHECKOUT_MESSAGES.emptyCart}>
          <Link className="button button--primary" to="/merchandise">
            Continue Shopping
          </Link>
        </StatusMessage>
      ) : (
        <CheckoutForm items={items} />
      )}
    </section>
  );
}

export function CheckoutForm({ items }: { items: CartItem[] }) {
  const ids = useId();
  // Back from a declined card or a cancelled payment page, the form is as the buyer left it.
  const [draft, setDraft] = useState(loadDraft);
  const { zip, country, email, smsConsent } = draft;
  const change = (fields: Partial<CheckoutDraft>) => setDraft((d) => ({ ...d, ...fields }));
  useEffect(() => saveDraft(draft), [draft]);
  const { shipping, calculate } = useShippingQuote(items, zip, country);
  // Shown when Calculate Shipping is pressed with no ZIP (the quote itself has no state then).
  const [zipMessage, setZipMessage] = useState<string | null>(null);
  const [orderError, setOrderError] = useState<string | null>(null);
  const [placing, setPlacing] = useState(false);
  const placingRef = useRef(false);
  const attempt = useRef<{ fingerprint: string; key: string } | null>(null);

  // Back from the payment page, the browser may restore this page as it was left: working.
  useEffect(() => {
    const onShow = (event: PageTransitionEvent) => {
      if (!event.persisted) return;
      placingRef.current = false;
      setPlacing(false);
    };
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, []);

  const subtotal = cartDisplayTotalCents(items);
  const shippingCents = shipping.status === 'calculated' ? shipping.cents : null;
  const shippingError = zipMessage ?? (shipping.status === 'error' ? shipping.message : null);

  const onCalculate = () => {
    setOrderError(null);
    if (zip.trim() === '') {
      setZipMessage(CHECKOUT_MESSAGES.zipFirst);
      return;
    }
    setZipMessage(null);
    void calculate();
  };

  const placeOrder = async () => {
    if (placingRef.current) return;
    setOrderError(null);
    const check = placeOrderCheck(zip, shipping);
    if (check.kind === 'block') {
      setOrderError(check.message);
      return;
    }
    placingRef.current = true;
    setPlacing(true);
    let leaving = false;
    try {
      // Not quoted yet: quote first, and go on only with a quote (its own message shows otherwise).
      if (check.kind === 'calculate') {
        const quoted = await calculate();
        if (quoted.status !== 'calculated') return;
      }
      if (zip.trim() === '') {
        setOrderError(CHECKOUT_MESSAGES.addressMissing);
        return;
      }
      const base = checkoutBody(items, zip, country, email, '', smsConsent);
      attempt.current = attemptKey(attempt.current, base, () => newIdempotencyKey());
      let body = { ...base, idempotency_key: attempt.current.key };
      const session = await request(createCheckoutSessionRoute, { body }).catch((error: unknown) => {
        // The key is bound to another request of this browser's (signed in since, say): a new one.
        if (!isApiError(error) || error.status !== 409) throw error;
        attempt.current = attemptKey(null, base, () => newIdempotencyKey());
        body = { ...base, idempotency_key: attempt.current.key };
        return request(createCheckoutSessionRoute, { body });
      });
      let target = session.url;
      if (!target) target = (await request(placeOrderRoute, { body })).next_url;
      if (!target) throw new Error('no payment page was given');
      // The page is being left for the payment page: the button stays disabled.
      leaving = true;
      window.location.assign(target);
    } catch (error) {
      setOrderError(checkoutErrorMessage(error));
    } finally {
      if (!leaving) {
        placingRef.current = false;
        setPlacing(false);
      }
    }
  };

  return (
    <div className="checkout__layout">
      <div className="checkout__main">
        <section className="checkout__card" aria-labelledby={`${ids}-items`}>
          <h2 id={`${ids}-items`} className="checkout__heading">
            Order items
          </h2>
          <ul className="checkout__items" aria-label="Order items">
            {items.map((item) => (
              <li key={item.line_id} className="checkout__item">
                <img className="checkout__image" src={item.image ?? item.screenshot} crossOrigin="anonymous" alt={`${item.name} mockup`} width={72} height={72} />
                <div className="checkout__details">
                  <p className="checkout__name">{item.name}</p>
                  <p className="checkout__options">{optionsText(item)}</p>
                  <p className="checkout__qty">Qty: {item.qty}</p>
                </div>
                <img className="checkout__screenshot" src={item.screenshot} crossOrigin="anonymous" alt="Screenshot to print" width={64} height={36} />
                <p className="checkout__price">{formatCents(item.price_cents * item.qty)}</p>
              </li>
            ))}
          </ul>
        </section>

        <form
          className="checkout__card checkout__shipping"
          aria-labelledby={`${ids}-shipping`}
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            onCalculate();
          }}
        >
          <h2 id={`${ids}-shipping`} className="checkout__heading">
            Shipping
          </h2>
          <div className="checkout__fields">
            <label className="field">
              <span className="field__label">ZIP/Postal Code</span>
              <input
                className="field__control"
                name="zip"
                autoComplete="postal-code"
                maxLength={20}
                value={zip}
                aria-invalid={shippingError !== null}
                onChange={(e) => {
                  change({ zip: e.target.value });
                  setZipMessage(null);
                  setOrderError(null);
                }}
              />
            </label>
            <label className="field">
              <span className="field__label">Country</span>
              <select className="field__control" name="country" value={country} onChange={(e) => {
                  change({ country: e.target.value as CheckoutCountry });
                  setOrderError(null);
                }}>
                {CHECKOUT_COUNTRIES.map((c) => (
                  <option key={c} value={c}>
                    {COUNTRY_NAMES[c]}
                  </option>
                ))}
              </select>
            </label>
            <label className="field checkout__email">
              <span className="field__label">Email for your order confirmation (optional)</span>
              <input className="field__control" type="email" name="email" autoComplete="email" maxLength={320} value={email} onChange={(e) => change({ email: e.target.value })} />
            </label>
            <label className="checkout__consent">
              <input type="checkbox" name="sms_consent" checked={smsConsent} onChange={(e) => change({ smsConsent: e.target.checked })} />
              <span>
                Text me updates about this order (confirmation, shipping and delivery). Optional: agreeing is not a
                condition of purchase. Message frequency depends on your orders; message and data rates may apply. Reply
                STOP to opt out, HELP for help. See our <Link to="/privacy-policy">Privacy Policy</Link>.
              </span>
            </label>
          </div>
          <button type="submit" className="button button--ghost" disabled={shipping.status === 'loading'}>
            {shipping.status === 'loading' ? 'Calculating...' : 'Calculate Shipping'}
          </button>
          {shippingError && (
            <p className="checkout__error" role="alert">
              {shippingError}
            </p>
          )}
        </form>
      </div>

      <aside className="checkout__card checkout__summary" aria-labelledby={`${ids}-summary`}>
        <h2 id={`${ids}-summary`} className="checkout__heading">
          Order summary
        </h2>
        <dl className="checkout__totals">
          <div>
            <dt>Subtotal</dt>
            <dd>{formatCents(subtotal)}</dd>
          </div>
          <div>
            <dt>Shipping</dt>
            <dd aria-live="polite">
              {shipping.status === 'calculated'
                ? `${formatCents(shipping.cents)} (${shipping.method})`
                : shipping.status === 'loading'
                  ? 'Calculating...'
                  : zip.trim() === ''
                    ? 'Enter your ZIP'
                    : 'Not calculated'}
            </dd>
          </div>
          <div className="checkout__total">
            <dt>Total</dt>
            <dd>{formatCents(subtotal + (shippingCents ?? 0))}</dd>
          </div>
        </dl>
        <p className="checkout__note">Prices are confirmed on the payment page.</p>
        {orderError && (
          <p className="checkout__error" role="alert">
            {orderError}
          </p>
        )}
        <div className="checkout__actions">
          <button type="button" className="button button--primary" disabled={placing} onClick={() => void placeOrder()}>
            {placing ? CHECKOUT_MESSAGES.processing : 'Place Order'}
          </button>
          <Link className="button button--ghost" to={continueShoppingPath(items)}>
            Continue Shopping
          </Link>
        </div>
      </aside>
    </div>
  );
}
