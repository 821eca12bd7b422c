/**
 * The embedded provider's subscription pages: the hosted page (/pay/{cs_...}) in subscription
 * mode, and the manage page (/pay/manage/{token}), the customer portal's stand-in. Plain HTML
 * with forms that post to themselves, no script and no inline style (the payment page's
 * stylesheet), so they pass the app's CSP. The card is only ever shown by its last 4 digits.
 */
import { formatCents } from '../../../shared/money.ts';
import { escapeHtml, hostedPage } from '../../platform/http/html-page.ts';
import type { ManageView, SubscriptionSessionRow } from './embedded-billing.ts';
import { cardFields, PAY_STYLESHEET_PATH } from './pay-page.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

function layout(title: string, body: string): string {
  return hostedPage({ title, stylesheet: PAY_STYLESHEET_PATH, mainClass: 'pay', body });
}

/** "June 8, 2026" (UTC, as the billing dates are kept). */
export function billingDate(d: Date): string {
  return d.toLocaleDateString('en-US', { timeZone: 'UTC', year: 'numeric', month: 'long', day: 'numeric' });
}

const perMonth = (cents: number) => `${formatCents(cents)}/month`;

/** "7-day free trial, then $9.99/month", or "$9.99/month" with no trial. */
export function planTerms(trialDays: number, cents: number): string {
  return trialDays > 0 ? `${trialDays}-day free trial, then ${perMonth(cents)}` : perMonth(cents);
}

const TEST_HINT =
  'Test mode: 4242 4242 4242 4242 subscribes and renews; 4000 0000 0000 0341 subscribes but its renewals fail; 4000 0000 0000 0002 is declined. Any future date and any 3-digit CVC.';

/** The open subscription-mode session's page: the plan, the trial, what is due today, and the card form. */
export function subscribePage(s: SubscriptionSessionRow, state: { email: string; expiry: string }, now: Date, error: string | null = null): string {
  const alert = error ? `<p class="error" role="alert" id="pay-error">${escapeHtml(error)}</p>` : '';
  const described = error ? ' aria-describedby="pay-error"' : '';
  const trial = s.trial_days > 0;
  const firstCharge = new Date(now.getTime() + s.trial_days * DAY_MS);
  const heading = trial ? `Start your ${s.trial_days}-day free trial` : `Subscribe to ${s.product_name}`;
  const action = trial ? 'Start trial' : `Subscribe ${perMonth(s.unit_amount)}`;
  const then = trial
    ? `<div><dt>Then, from ${escapeHtml(billingDate(firstCharge))}</dt><dd>${formatCents(s.unit_amount)} every month</dd></div>`
    : `<div><dt>Then</dt><dd>${formatCents(s.unit_amount)} every month</dd></div>`;
  return layout(
    `${heading} - FrameMerch`,
    `<h1>${escapeHtml(heading)}</h1>
<section aria-labelledby="summary-title">
<h2 id="summary-title">Subscription</h2>
<ul class="items" aria-label="Plan">
<li><span class="item">${escapeHtml(s.product_name)}</span> <span class="amount">${perMonth(s.unit_amount)}</span></li>
</ul>
<p class="plan">${escapeHtml(planTerms(s.trial_days, s.unit_amount))}</p>
<dl class="totals">
<div class="total"><dt>Due today</dt><dd>${formatCents(trial ? 0 : s.unit_amount)}</dd></div>
${then}
</dl>
</section>
<form method="post" action="/pay/${escapeHtml(s.id)}" class="card-form"${described}>
${alert}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="email" required maxlength="320" value="${escapeHtml(state.email)}">
${cardFields(state.expiry)}
<button type="submit">${escapeHtml(action)}</button>
</form>
${trial ? `<p class="hint">Cancel any time before ${escapeHtml(billingDate(firstCharge))} and you will not be charged.</p>\n` : ''}<p class="hint">${TEST_HINT}</p>
<p><a href="${escapeHtml(s.cancel_url)}">Cancel and return</a></p>`,
  );
}

export function subscribedPage(s: SubscriptionSessionRow): string {
  return layout(
    'Subscription started - FrameMerch',
    `<h1>Your subscription has started</h1>
<p role="status">${escapeHtml(s.product_name)}: ${escapeHtml(planTerms(s.trial_days, s.unit_amount))}.</p>
<p><a href="${escapeHtml(s.success_url)}">Continue</a></p>`,
  );
}

export function subscriptionExpiredPage(s: SubscriptionSessionRow): string {
  return layout(
    'Checkout expired - FrameMerch',
    `<h1>This checkout has expired</h1>
<p role="status">Nothing was charged and no subscription was started.</p>
<p><a href="${escapeHtml(s.cancel_url)}">Return and start again</a></p>`,
  );
}

const NOTICES = {
  cancel: 'Your subscription will end at the end of the current period.',
  resume: 'Your subscription will continue.',
  card: 'Your card was updated. The next payment will use it.',
} as const;
export type ManageNotice = keyof typeof NOTICES;

function statusLine(v: ManageView): string {
  const sub = v.subscription!;
  if (sub.status === 'canceled') return `Ended on ${billingDate(sub.ended_at ?? sub.current_period_end)}`;
  if (sub.cancel_at_period_end) return `Cancels on ${billingDate(sub.current_period_end)}`;
  if (sub.status === 'trialing') return `Free trial until ${billingDate(sub.current_period_end)}`;
  if (sub.status === 'past_due') {
    const next = v.openInvoice?.next_payment_attempt;
    return next ? `Payment failed. We will try again on ${billingDate(next)}.` : 'Payment failed.';
  }
  return 'Active';
}

/** The manage page: plan, status, next billing date and card (last 4 only), with its forms. */
export function managePage(v: ManageView, action: string, opts: { error?: string | null; notice?: ManageNotice | null; expiry?: string } = {}): string {
  const sub = v.subscription;
  const c = v.customer;
  const alert = opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>\n` : '';
  const notice = opts.notice ? `<p class="notice" role="status">${escapeHtml(NOTICES[opts.notice])}</p>\n` : '';
  const card = c.card_last4
    ? `${c.card_brand === 'visa' ? 'Visa' : escapeHtml(c.card_brand ?? 'Card')} ending in ${escapeHtml(c.card_last4)}, expires ${String(c.card_exp_month).padStart(2, '0')}/${c.card_exp_year}`
    : 'No card on file';
  const live = sub && sub.status !== 'canceled';
  const rows = [
    sub ? `<div><dt>Plan</dt><dd>${escapeHtml(sub.product_name)}, ${perMonth(sub.unit_amount)}</dd></div>` : '',
    sub ? `<div><dt>Status</dt><dd>${escapeHtml(statusLine(v))}</dd></div>` : '<div><dt>Status</dt><dd>No subscription</dd></div>',
    live && !sub.cancel_at_period_end
      ? `<div><dt>Next payment</dt><dd>${formatCents(sub.unit_amount)} on ${escapeHtml(billingDate(sub.status === 'past_due' && v.openInvoice?.next_payment_attempt ? v.openInvoice.next_payment_attempt : sub.current_period_end))}</dd></div>`
      : '',
    `<div><dt>Card</dt><dd>${card}</dd></div>`,
  ].filter(Boolean);
  const form = (value: string, label: string, klass = '') =>
    `<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="action" value="${value}">
<button type="submit"${klass ? ` class="${klass}"` : ''}>${escapeHtml(label)}</button>
</form>`;
  const cancelForms = !live
    ? ''
    : sub.cancel_at_period_end
      ? `${form('resume', "Don't cancel")}\n<p class="hint">You keep ${escapeHtml(sub.product_name)} until ${escapeHtml(billingDate(sub.current_period_end))}; nothing more is charged.</p>`
      : `${form('cancel', 'Cancel subscription', 'secondary')}\n<p class="hint">It ends on ${escapeHtml(billingDate(sub.current_period_end))}, the end of the current period; nothing more is charged.</p>`;
  return layout(
    'Manage your subscription - FrameMerch',
    `<h1>Your subscription</h1>
${alert}${notice}<dl class="totals details">
${rows.join('\n')}
</dl>
${cancelForms}
<section aria-labelledby="card-title">
<h2 id="card-title">Change card</h2>
<form method="post" action="${escapeHtml(action)}" class="card-form">
<input type="hidden" name="action" value="card">
${cardFields(opts.expiry ?? '', '1234 1234 1234 1234')}
<button type="submit">Save card</button>
</form>
</section>
<p class="hint">Test mode: Stripe's test cards only; any future date and any 3-digit CVC.</p>
<p><a href="${escapeHtml(v.portal.return_url)}">Return to FrameMerch</a></p>`,
  );
}

export function manageNotFoundPage(): string {
  return layout(
    'Link not valid - FrameMerch',
    `<h1>This link is not valid</h1>
<p>It may have expired. Open "Manage subscription" again from your account.</p>
<p><a href="/">Return to FrameMerch</a></p>`,
  );
}

export function crossSitePage(): string {
  return layout(
    'Request refused - FrameMerch',
    `<h1>Request refused</h1>
<p>This form can only be sent from its own page. Nothing was changed.</p>`,
  );
}
