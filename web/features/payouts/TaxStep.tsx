import { useEffect, useId, useRef, type FormEvent } from 'react';
import type { MethodSummary } from './paymentSetupActions.ts';
import { OnboardingLink } from './OnboardingLink.tsx';

interface TaxStepProps {
  /** What step 1 chose; `kept` when it waits in the browser for the account (new-user flow). */
  summary: MethodSummary | null;
  kept: boolean;
  email: string;
  onEmail: (email: string) => void;
  problem: string | null;
  busy: boolean;
  onSave: () => void;
  onSkip: () => void;
  onBack: () => void;
}

/** Step 2: the payment email for payout notices and tax documents, or 'Skip for Now'. */
export function TaxStep({ summary, kept, email, onEmail, problem, busy, onSave, onSkip, onBack }: TaxStepProps) {
  const ids = useId();
  const input = useRef<HTMLInputElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  // Shown after step 1's button, which is gone: the keyboard starts at this step's heading.
  useEffect(() => {
    heading.current?.focus();
  }, []);

  useEffect(() => {
    if (problem) input.current?.focus();
  }, [problem]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!busy) onSave();
  };

  return (
    <form className="payment-setup__form" noValidate onSubmit={submit} aria-labelledby={`${ids}-heading`} aria-busy={busy}>
      <h2 ref={heading} id={`${ids}-heading`} className="payment-setup__step-title" tabIndex={-1}>
        Step 2: Payment email and tax information
      </h2>
      {summary && (
        <div className="payment-setup__summary" role="status">
          <p className="payment-setup__summary-text">
            <strong>Payment method:</strong> {summary.text}
          </p>
          <p className="payment-setup__summary-note">{kept ? 'It will be saved to your account when you sign up.' : 'Saved.'}</p>
          {summary.onboardingUrl && <OnboardingLink href={summary.onboardingUrl} />}
        </div>
      )}
      <fieldset className="payment-setup__fields" disabled={busy}>
        <div className="field">
          <label className="field__label" htmlFor={`${ids}-email`}>
            Payment email
          </label>
          <input
            ref={input}
            id={`${ids}-email`}
            className="field__control"
            type="email"
            name="email"
            autoComplete="email"
            maxLength={320}
            value={email}
            aria-invalid={problem ? true : undefined}
            aria-describedby={[`${ids}-hint`, problem ? `${ids}-problem` : ''].filter(Boolean).join(' ')}
            onChange={(e) => onEmail(e.target.value)}
          />
          <p id={`${ids}-hint`} className="field__hint">
            Where we send payout notices and the tax information we need from you. You can add it later.
          </p>
        </div>
        {problem && (
          <p id={`${ids}-problem`} className="payment-setup__problem" role="alert">
            {problem}
          </p>
        )}
        <div className="payment-setup__actions">
          <button type="submit" className="button button--primary">
            {busy ? 'Saving...' : 'Save'}
          </button>
          <button type="button" className="button button--ghost" onClick={onSkip}>
            Skip for Now
          </button>
          <button type="button" className="button button--ghost payment-setup__back" onClick={onBack}>
            Back
          </button>
        </div>
      </fieldset>
    </form>
  );
}
