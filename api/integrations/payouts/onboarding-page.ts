/**
 * The embedded provider's Stripe Connect onboarding page: plain HTML with forms that post to
 * themselves, no script and no inline style (its stylesheet is served beside it), so it passes
 * the app's CSP. It stands in for Stripe's hosted Express onboarding.
 */
import { escapeHtml, hostedPage } from '../../platform/http/html-page.ts';
import type { ConnectAccountRow } from './repository.ts';

export const CONNECT_STYLESHEET_PATH = '/pay/connect/assets/connect.css';

export const CONNECT_STYLESHEET = `*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f6f8fa;color:#1a1f36}
.onboard{max-width:30rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:8px;box-shadow:0 1px 4px rgba(0,0,0,.12)}
.brand{font-weight:600;margin:0 0 1rem}
.badge{font-size:.75rem;background:#ffde92;color:#5c3b00;border-radius:4px;padding:.1rem .4rem;margin-left:.4rem}
h1{font-size:1.5rem;margin:.5rem 0 1rem}
dl{margin:0 0 1rem}
dl div{display:flex;justify-content:space-between;gap:1rem;padding:.25rem 0;border-bottom:1px solid #e3e8ee}
dd{margin:0;overflow-wrap:anywhere}
button{margin-top:.75rem;width:100%;padding:.75rem;border:0;border-radius:6px;background:#635bff;color:#fff;font-size:1rem;font-weight:600;cursor:pointer}
button.secondary{background:#fff;color:#635bff;border:1px solid #635bff}
.hint{font-size:.8rem;color:#5b6475}
a{color:#635bff}
`;

function layout(title: string, body: string): string {
  return hostedPage({ title, stylesheet: CONNECT_STYLESHEET_PATH, mainClass: 'onboard', body });
}

const STATUS_LABELS: Record<ConnectAccountRow['status'], string> = {
  pending: 'Onboarding not finished',
  active: 'Active: payouts enabled',
  restricted: 'Restricted: details missing',
};

function details(account: ConnectAccountRow): string {
  return `<dl>
<div><dt>Account</dt><dd>${escapeHtml(account.id)}</dd></div>
<div><dt>Email</dt><dd>${escapeHtml(account.email)}</dd></div>
<div><dt>Status</dt><dd>${escapeHtml(STATUS_LABELS[account.status])}</dd></div>
</dl>`;
}

export function onboardingPage(account: ConnectAccountRow, action: string): string {
  const done = account.status === 'active';
  const body = done
    ? `<h1>Onboarding complete</h1>
${details(account)}
<p><a href="${escapeHtml(account.return_url)}">Return to FrameMerch</a></p>`
    : `<h1>Set up payouts with Stripe</h1>
<p>This page stands in for Stripe's Express onboarding: no real Stripe account is made and no money moves.</p>
${details(account)}
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="decision" value="complete">
<button type="submit">Complete onboarding</button>
</form>
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="decision" value="incomplete">
<button type="submit" class="secondary">Leave details missing</button>
</form>
<p class="hint">Transfers to an account whose email ends in .invalid or @fail.example are reversed, to try a failed payout.</p>`;
  return layout('Stripe Connect onboarding', body);
}

export function notFoundPage(): string {
  return layout('Link expired', `<h1>This onboarding link is no longer valid</h1>
<p>Start again from your payment setup on FrameMerch to get a new link.</p>`);
}
