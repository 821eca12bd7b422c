import { useEffect, useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { AUTH_MESSAGES } from '../../../shared/schemas/auth.ts';
import { PAYOUT_MESSAGES, PORTAL_MESSAGES, type PaymentPortal } from '../../../shared/schemas/payouts.ts';
import { StatusMessage } from '../../components/StatusMessage.tsx';
import { usePassedMessage } from '../../lib/passedMessage.ts';
import { useApiRead } from '../../lib/useApiRead.ts';
import { useDocumentTitle } from '../../lib/useDocumentTitle.ts';
import { useAuth } from '../../stores/useAuth.ts';
import { OnboardingLink } from './OnboardingLink.tsx';
import { PortalMethodModal } from './PortalMethodModal.tsx';
import type { MethodSummary } from './paymentSetupActions.ts';
import {
  BLANK,
  canGoBack,
  currentMonth,
  earningLine,
  goHomeLater,
  infoCards,
  isStatementMonth,
  loadPortal,
  methodButtonLabel,
  payoutLine,
  portalAccess,
  portalCards,
  statementUrl,
} from './paymentPortal.ts';
import './PaymentSetupPage.css';
import './PaymentPortalPage.css';

/**
 * /payment-portal: a creator's payouts at a glance (spec section 2): the payment method, lifetime
 * earnings, the pending payout and the next one; the method's form in a modal; the latest
 * earnings and payouts; how payouts work; and a month's statement as CSV. Signed out, it says
 * so and goes home; customers see Access denied, as on the dashboard.
 */
export function PaymentPortalPage() {
  useDocumentTitle('Payment portal');
  const status = useAuth((s) => s.status);
  const user = useAuth((s) => s.user);
  const access = portalAccess(status, user);

  if (access.kind === 'loading') return <StatusMessage kind="loading" title="Loading..." />;
  if (access.kind === 'signed-out') return <SignedOut />;
  if (access.kind === 'denied') {
    return (
      <StatusMessage kind="error" title={AUTH_MESSAGES.accessDenied}>
        <p>{PORTAL_MESSAGES.creatorsOnly}</p>
        <Link to="/">Back to the home page</Link>
      </StatusMessage>
    );
  }
  return <Portal key={user?.id} />;
}

/** Spec: 'Please log in to access the payment portal.' with Go Home, then home after a moment. */
export function SignedOut() {
  const navigate = useNavigate();
  useEffect(() => goHomeLater(() => void navigate('/', { replace: true })), [navigate]);
  return (
    <StatusMessage kind="error" title={PAYOUT_MESSAGES.signInToAccessPortal}>
      <button type="button" className="button button--primary" onClick={() => void navigate('/', { replace: true })}>
        Go Home
      </button>
    </StatusMessage>
  );
}

function Portal() {
  const ids = useId();
  const navigate = useNavigate();
  const passed = usePassedMessage();
  const [attempt, setAttempt] = useState(0);
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState<MethodSummary | null>(null);

  const read = useApiRead(`portal#${attempt}`, (signal) => loadPortal(signal));
  const loading = read.status === 'loading';
  const portal = read.status === 'ready' ? read.data : null;

  const goBack = () => void (canGoBack(window.history.state) ? navigate(-1) : navigate('/'));
  const onSaved = (summary: MethodSummary) => {
    setEditing(false);
    setSaved(summary);
    setAttempt((n) => n + 1);
  };

  return (
    <section className="payment-portal" aria-labelledby={`${ids}-title`} aria-busy={loading}>
      <div className="payment-portal__top">
        <button type="button" className="button button--ghost payment-portal__back" onClick={goBack}>
          <span aria-hidden="true">←</span> Back
        </button>
        <h1 id={`${ids}-title`} className="payment-portal__title">
          Payment portal
        </h1>
      </div>
      {passed && <StatusMessage kind="info" title={passed} />}
      {saved && <SavedNotice summary={saved} />}

      <PortalView portal={portal} loading={loading} onEditMethod={() => setEditing(true)} />

      {editing && <PortalMethodModal setup={portal?.setup ?? null} onClose={() => setEditing(false)} onSaved={onSaved} />}
    </section>
  );
}

function SavedNotice({ summary }: { summary: MethodSummary }) {
  return (
    <div className="payment-setup__summary" role="status">
      <p>Payment method saved. {summary.text}</p>
      {summary.onboardingUrl && <OnboardingLink href={summary.onboardingUrl} />}
    </div>
  );
}

interface PortalViewProps {
  /** null while loading, or when the read failed (then every figure is a blank). */
  portal: PaymentPortal | null;
  loading: boolean;
  onEditMethod: () => void;
}

/** The portal's content: cards, the method button, the lists, the statement and the info cards. */
export function PortalView({ portal, loading, onEditMethod }: PortalViewProps) {
  const ids = useId();
  return (
    <>
      <ul className="payment-portal__cards" aria-label="Payout summary">
        {portalCards(portal).map((card) => (
          <li key={card.id} className={`payment-portal__card${card.tone ? ` payment-portal__card--${card.tone}` : ''}`}>
            <h2 className="payment-portal__card-title">{card.title}</h2>
            <p className="payment-portal__card-value">{card.value}</p>
            {card.notes.map((note) => (
              <p key={note} className="payment-portal__card-note">
                {note}
              </p>
            ))}
          </li>
        ))}
      </ul>

      <div className="payment-portal__actions">
        <button type="button" className="button button--primary" onClick={onEditMethod} disabled={loading}>
          {methodButtonLabel(portal)}
        </button>
      </div>

      <div className="payment-portal__lists">
        <section className="payment-portal__panel" aria-labelledby={`${ids}-earnings`}>
          <h2 id={`${ids}-earnings`} className="payment-portal__heading">
            Recent earnings
          </h2>
          {!portal ? (
            <p className="payment-portal__empty">{loading ? 'Loading...' : BLANK}</p>
          ) : portal.recent_earnings.length === 0 ? (
            <p className="payment-portal__empty">No earnings yet. When someone buys merch made from your videos, your share shows here.</p>
          ) : (
            <ul className="payment-portal__list">
              {portal.recent_earnings.map(earningLine).map((line) => (
                <li key={line.key} className="payment-portal__row">
                  <span className="payment-portal__row-main">
                    <span className="payment-portal__row-what">{line.what}</span>
                    {line.detail && <span className="payment-portal__row-detail">{line.detail}</span>}
                  </span>
                  <span className="payment-portal__row-side">
                    <span className={`payment-portal__amount${line.kind === 'reversal' ? ' payment-portal__amount--negative' : ''}`}>{line.amount}</span>
                    <span className="payment-portal__row-detail">{line.date}</span>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>

        <section className="payment-portal__panel" aria-labelledby={`${ids}-payouts`}>
          <h2 id={`${ids}-payouts`} className="payment-portal__heading">
            Recent payouts
          </h2>
          {!portal ? (
            <p className="payment-portal__empty">{loading ? 'Loading...' : BLANK}</p>
          ) : portal.recent_payouts.length === 0 ? (
            <p className="payment-portal__empty">No payouts yet.</p>
          ) : (
            <ul className="payment-portal__list">
              {portal.recent_payouts.map(payoutLine).map((line) => (
                <li key={line.key} className="payment-portal__row">
                  <span className="payment-portal__row-main">
                    <span className="payment-portal__row-what">{line.amount}</span>
                    <span className="payment-portal__row-detail">
                      {line.method} · {line.fee}
                    </span>
                  </span>
                  <span className="payment-portal__row-side">
                    <span className={`payment-portal__badge payment-portal__badge--${line.status}`}>{line.badge}</span>
                    <span className="payment-portal__row-detail">{line.date}</span>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>

      <StatementPicker />

      <ul className="payment-portal__info" aria-label="About payouts">
        {infoCards().map((card) => (
          <li key={card.title} className="payment-portal__info-card">
            <h2 className="payment-portal__heading">{card.title}</h2>
            {card.lines.map((line) => (
              <p key={line}>{line}</p>
            ))}
          </li>
        ))}
      </ul>
    </>
  );
}

/** A month and the link to its statement; the link is a plain download, the session cookie goes with it. */
function StatementPicker() {
  const ids = useId();
  const latest = currentMonth();
  const [month, setMonth] = useState(latest);
  const valid = isStatementMonth(month, latest);
  return (
    <section className="payment-portal__panel payment-portal__statement" aria-labelledby={`${ids}-statement`}>
      <h2 id={`${ids}-statement`} className="payment-portal__heading">
        Statement
      </h2>
      <p className="payment-portal__empty">Every earning and payout of a month, with totals, as a spreadsheet file.</p>
      <div className="payment-portal__statement-row">
        <div className="field">
          <label className="field__label" htmlFor={`${ids}-month`}>
            Month
          </label>
          <input
            id={`${ids}-month`}
            className="field__control"
            type="month"
            min="2000-01"
            max={latest}
            placeholder="YYYY-MM"
            value={month}
            aria-invalid={!valid || undefined}
            onChange={(e) => setMonth(e.target.value)}
          />
        </div>
        {valid ? (
          <a className="button button--ghost" href={statementUrl(month)} download>
            Download statement (CSV)
          </a>
        ) : (
          <span className="button button--ghost" aria-disabled="true">
            Download statement (CSV)
          </span>
        )}
      </div>
    </section>
  );
}
