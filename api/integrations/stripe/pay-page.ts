/**
 * The embedded provider's hosted payment page: plain HTML with a form that posts to itself, no
 * script and no inline style (the stylesheet is served beside it), so it passes the app's CSP.
 */
import { formatCents } from '../../../shared/money.ts';
import { escapeHtml, hostedPage } from '../../platform/http/html-page.ts';
import { COUNTRY_NAMES, type CheckoutCountry } from '../../../shared/schemas/checkout.ts';
import { ADDRESS_FIELD_MAX, STATE_REQUIRED, type SessionRow, type ShippingInput } from './embedded.ts';

export const PAY_STYLESHEET_PATH = '/pay/assets/pay.css';

function layout(title: string, body: string): string {
  return hostedPage({ title, stylesheet: PAY_STYLESHEET_PATH, mainClass: 'pay', body });
}

interface StoredLine {
  name?: unknown;
  unit_amount?: unknown;
  quantity?: unknown;
  amount_total?: unknown;
}

function summary(s: SessionRow): string {
  const lines = (Array.isArray(s.line_items) ? s.line_items : []) as StoredLine[];
  const items = lines
    .map((l) => {
      const qty = Number(l.quantity ?? 1);
      const total = Number(l.amount_total ?? Number(l.unit_amount ?? 0) * qty);
      return `<li><span class="item">${escapeHtml(String(l.name ?? 'Item'))}${qty > 1 ? ` &times; ${qty}` : ''}</span> <span class="amount">${formatCents(total)}</span></li>`;
    })
    .join('\n');
  const shipping = Number(s.metadata.shipping_cents ?? 0);
  const label = s.metadata.shipping_label ? ` (${escapeHtml(s.metadata.shipping_label)})` : '';
  return `<section aria-labelledby="summary-title">
<h2 id="summary-title">Order summary</h2>
<ul class="items" aria-label="Items">
${items}
</ul>
<dl class="totals">
<div><dt>Shipping${label}</dt><dd>${formatCents(shipping)}</dd></div>
<div class="total"><dt>Total</dt><dd>${formatCents(s.amount_total)}</dd></div>
</dl>
</section>`;
}

/** What the form shows again after a refusal (never the card number or the CVC). */
export interface PayFormState {
  email: string;
  expiry: string;
  shipping?: ShippingInput;
}

/**
 * The shipping address fields. The country is the one the shipping was quoted for, shown and
 * not asked (Stripe Checkout is given it as the only allowed country); the postal code starts
 * as the quoted one.
 */
function shippingFields(s: SessionRow, shipping: ShippingInput | undefined): string {
  const country = s.metadata.shipping_country ?? '';
  const countryName = COUNTRY_NAMES[country as CheckoutCountry] ?? country;
  const stateRequired = STATE_REQUIRED.has(country);
  const value = (v: string | undefined) => escapeHtml(v ?? '');
  const field = (id: string, label: string, v: string | undefined, attrs: string) =>
    `<label for="${id}">${label}</label>\n<input id="${id}" name="${id}" ${attrs} maxlength="${ADDRESS_FIELD_MAX}" value="${value(v)}">`;
  return `<fieldset>
<legend>Shipping address</legend>
${field('name', 'Full name', shipping?.name, 'autocomplete="shipping name" required')}
${field('address_line1', 'Address line 1', shipping?.line1, 'autocomplete="shipping address-line1" required')}
${field('address_line2', 'Address line 2 (optional)', shipping?.line2, 'autocomplete="shipping address-line2"')}
${field('city', 'City', shipping?.city, 'autocomplete="shipping address-level2" required')}
<div class="row">
<div>${field('state', stateRequired ? 'State / Province' : 'State / Province (optional)', shipping?.state, `autocomplete="shipping address-level1"${stateRequired ? ' required' : ''}`)}</div>
<div>${field('postal_code', 'ZIP / Postal code', shipping?.postalCode ?? s.metadata.shipping_zip, 'autocomplete="shipping postal-code" required')}</div>
</div>
<p class="country">Country: <strong>${escapeHtml(countryName)}</strong> (the country your shipping was quoted for)</p>
</fieldset>`;
}

/** The open session's page: what is bought, where it goes, and the card form. */
export function payPage(s: SessionRow, state: PayFormState, error: string | null = null): string {
  const alert = error ? `<p class="error" role="alert" id="pay-error">${escapeHtml(error)}</p>` : '';
  const described = error ? ' aria-describedby="pay-error"' : '';
  return layout(
    `Pay ${formatCents(s.amount_total)} - FrameMerch`,
    `<h1>Pay ${formatCents(s.amount_total)}</h1>
${summary(s)}
<form method="post" action="/pay/${escapeHtml(s.id)}" class="card-form"${described}>
${alert}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="email" required maxlength="320" value="${escapeHtml(state.email)}">
${shippingFields(s, state.shipping)}
${cardFields(state.expiry)}
<button type="submit">Pay ${formatCents(s.amount_total)}</button>
</form>
<p class="hint">Test mode: pay with 4242 4242 4242 4242, any future date and any 3-digit CVC. 4000 0000 0000 0002 is declined.</p>
<p><a href="${escapeHtml(s.cancel_url)}">Cancel and return to checkout</a></p>`,
  );
}

/**
 * The card's fields, as every hosted page asks for them; the placeholder is Stripe's test card
 * unless a page shows another (the manage page shows none but the saved card's last 4).
 */
export function cardFields(expiry: string, placeholder = '4242 4242 4242 4242'): string {
  return `<fieldset>
<legend>Card information</legend>
<label for="card_number">Card number</label>
<input id="card_number" name="card_number" inputmode="numeric" autocomplete="cc-number" required maxlength="23" placeholder="${escapeHtml(placeholder)}">
<div class="row">
<div><label for="expiry">Expiration date (MM / YY)</label>
<input id="expiry" name="expiry" inputmode="numeric" autocomplete="cc-exp" required maxlength="9" placeholder="MM / YY" value="${escapeHtml(expiry)}"></div>
<div><label for="cvc">CVC</label>
<input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" required maxlength="4" placeholder="123"></div>
</div>
</fieldset>`;
}

export function paidPage(s: SessionRow): string {
  return layout(
    'Payment complete - FrameMerch',
    `<h1>This order is paid</h1>
<p role="status">Payment of ${formatCents(s.amount_total)} received. Thank you!</p>
<p><a href="${escapeHtml(s.success_url)}">View your order confirmation</a></p>`,
  );
}

export function expiredPage(s: SessionRow): string {
  return layout(
    'Checkout expired - FrameMerch',
    `<h1>This checkout has expired</h1>
<p role="status">Nothing was charged. Your cart is still waiting for you.</p>
<p><a href="${escapeHtml(s.cancel_url)}">Return to checkout</a></p>`,
  );
}

export function notFoundPage(): string {
  return layout(
    'Checkout not found - FrameMerch',
    `<h1>Checkout not found</h1>
<p>This payment link is not valid. Please start again from your cart.</p>
<p><a href="/checkout">Return to checkout</a></p>`,
  );
}

export const PAY_STYLESHEET = `*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f6f8fa;color:#1a1f36}
.pay{max-width:30rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:8px;box-shadow:0 1px 4px rgba(0,0,0,.12)}
.brand{font-weight:600;margin:0 0 1rem}
.badge{font-size:.75rem;background:#ffde92;color:#5c3b00;border-radius:4px;padding:.1rem .4rem;margin-left:.4rem}
h1{font-size:1.5rem;margin:.5rem 0 1rem}
h2{font-size:1rem;margin:0 0 .5rem}
.items{list-style:none;padding:0;margin:0 0 .5rem}
.items li,.totals div{display:flex;justify-content:space-between;gap:1rem;padding:.25rem 0}
.totals{margin:0 0 1.5rem;border-top:1px solid #e3e8ee}
.totals dd{margin:0}
.total{font-weight:600}
label{display:block;font-size:.875rem;margin:.75rem 0 .25rem}
input{width:100%;padding:.6rem;border:1px solid #c9ced6;border-radius:6px;font-size:1rem}
input:focus{outline:2px solid #635bff;outline-offset:1px}
fieldset{border:0;padding:0;margin:1rem 0 0}
legend{font-weight:600;font-size:.9rem}
.row{display:flex;gap:1rem}
.row>div{flex:1}
button{margin-top:1.25rem;width:100%;padding:.75rem;border:0;border-radius:6px;background:#635bff;color:#fff;font-size:1rem;font-weight:600;cursor:pointer}
button:hover{background:#5046e4}
.error{background:#fdecea;color:#a4000f;border-radius:6px;padding:.6rem;margin:0 0 .5rem}
.hint{font-size:.8rem;color:#5b6475}
.country{font-size:.875rem;margin:.75rem 0 0}
a{color:#635bff}
.plan{font-weight:600;margin:.25rem 0 .75rem}
.notice{background:#e6f4ea;color:#0b5a26;border-radius:6px;padding:.6rem;margin:0 0 .5rem}
button.secondary{background:#fff;color:#a4000f;border:1px solid #a4000f}
button.secondary:hover{background:#fdecea}
`;
