import { useEffect, useId, useRef, type FormEvent } from 'react';
import type { PaymentMethodOption } from '../../../shared/schemas/payouts.ts';
import { StatusMessage } from '../../components/StatusMessage.tsx';
import { chosenMethod, formatDollars, formatFee, formatProcessing, PAYOUT_COUNTRIES, type PayoutCountry } from './payoutMethods.ts';
import type { DraftField, MethodDraft } from './payoutForm.ts';

/** A check's or the server's message; `field` is the input it is about, null for the server's. */
export interface StepProblem {
  field: DraftField | null;
  message: string;
}

interface MethodStepProps {
  country: PayoutCountry;
  onCountry: (country: PayoutCountry) => void;
  /** null while the country's list loads. */
  methods: readonly PaymentMethodOption[] | null;
  draft: MethodDraft;
  onDraft: (draft: MethodDraft) => void;
  problem: StepProblem | null;
  busy: boolean;
  /** Text of the submit button (the new-user flow keeps, a creator saves). */
  submitLabel: string;
  onSubmit: () => void;
  /** Take the keyboard to the step's heading when shown (coming back from step 2). */
  focusHeading?: boolean;
  /** The form's heading (the payment portal's modal names it its own way). */
  title?: string;
}

/** Step 1: the country, the methods it offers as choosable cards, and the chosen method's details. */
export function MethodStep({ country, onCountry, methods, draft, onDraft, problem, busy, submitLabel, onSubmit, focusHeading = false, title = 'Step 1: Payment method' }: MethodStepProps) {
  const ids = useId();
  const form = useRef<HTMLFormElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const problemId = `${ids}-problem`;
  const chosen = chosenMethod(methods, draft.method);
  const edit = (change: Partial<MethodDraft>) => onDraft({ ...draft, ...change });

  useEffect(() => {
    if (focusHeading) heading.current?.focus();
  }, [focusHeading]);

  // Each failed check (a new problem object) takes the keyboard to the input it is about.
  useEffect(() => {
    if (!problem?.field) return;
    const id = `${ids}-${problem.field}`;
    [...(form.current?.querySelectorAll('input') ?? [])].find((input) => input.id === id)?.focus();
  }, [problem, ids]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy || !chosen) return;
    onSubmit();
  };

  // Props for the input a problem may be about: marked invalid and pointing at the message.
  const fieldProps = (field: DraftField) => ({
    id: `${ids}-${field}`,
    className: 'field__control',
    'aria-invalid': problem?.field === field || undefined,
    'aria-describedby': [problem?.field === field ? problemId : '', field === 'routingNumber' || field === 'accountNumber' ? `${ids}-${field}-hint` : '']
      .filter(Boolean)
      .join(' ') || undefined,
  });

  return (
    <form ref={form} className="payment-setup__form" noValidate onSubmit={submit} aria-labelledby={`${ids}-heading`} aria-busy={busy}>
      <h2 ref={heading} id={`${ids}-heading`} className="payment-setup__step-title" tabIndex={-1}>
        {title}
      </h2>
      <fieldset className="payment-setup__fields" disabled={busy}>
        <div className="field">
          <label className="field__label" htmlFor={`${ids}-country`}>
            Country
          </label>
          <select id={`${ids}-country`} className="field__control" value={country} onChange={(e) => onCountry(e.target.value as PayoutCountry)}>
            {PAYOUT_COUNTRIES.map((c) => (
              <option key={c.code} value={c.code}>
                {c.name}
              </option>
            ))}
          </select>
        </div>

        <fieldset className="payment-setup__methods">
          <legend className="field__label">How would you like to be paid?</legend>
          {!methods ? (
            <StatusMessage kind="loading" title="Loading payment methods..." />
          ) : (
            <ul className="payment-setup__cards" aria-label="Payment methods">
              {methods.map((m) => (
                <li key={m.method_name}>
                  <MethodCard method={m} name={`${ids}-method`} checked={chosen?.method_name === m.method_name} onChoose={() => onDraft({ ...draft, method: m.method_name })} />
                </li>
              ))}
            </ul>
          )}
        </fieldset>

        {chosen?.method_name === 'paypal' && (
          <div className="field">
            <label className="field__label" htmlFor={`${ids}-paypalEmail`}>
              PayPal email
            </label>
            <input {...fieldProps('paypalEmail')} type="email" name="paypal_email" autoComplete="email" maxLength={320} value={draft.paypalEmail} onChange={(e) => edit({ paypalEmail: e.target.value })} />
          </div>
        )}

        {chosen?.method_name === 'ach' && (
          <>
            <div className="field">
              <label className="field__label" htmlFor={`${ids}-routingNumber`}>
                Routing number
              </label>
              <input
                {...fieldProps('routingNumber')}
                type="text"
                inputMode="numeric"
                name="routing_number"
                autoComplete="off"
                maxLength={20}
                value={draft.routingNumber}
                onChange={(e) => edit({ routingNumber: e.target.value })}
              />
              <p id={`${ids}-routingNumber-hint`} className="field__hint">
                9 digits, printed at the bottom left of a check.
              </p>
            </div>
            <div className="field">
              <label className="field__label" htmlFor={`${ids}-accountNumber`}>
                Account number
              </label>
              <input
                {...fieldProps('accountNumber')}
                type="text"
                inputMode="numeric"
                name="account_number"
                // Never offered back by the browser's form history.
                autoComplete="off"
                maxLength={40}
                value={draft.accountNumber}
                onChange={(e) => edit({ accountNumber: e.target.value })}
              />
              <p id={`${ids}-accountNumber-hint`} className="field__hint">
                Only its last 4 digits are shown once it is saved.
              </p>
            </div>
            <div className="field">
              <label className="field__label" htmlFor={`${ids}-holderName`}>
                Account holder name
              </label>
              <input {...fieldProps('holderName')} type="text" name="holder_name" autoComplete="name" maxLength={200} value={draft.holderName} onChange={(e) => edit({ holderName: e.target.value })} />
            </div>
            <div className="field">
              <label className="field__label" htmlFor={`${ids}-accountType`}>
                Account type
              </label>
              <select id={`${ids}-accountType`} className="field__control" value={draft.accountType} onChange={(e) => edit({ accountType: e.target.value === 'savings' ? 'savings' : 'checking' })}>
                <option value="checking">Checking</option>
                <option value="savings">Savings</option>
              </select>
            </div>
          </>
        )}

        {chosen?.method_name === 'stripe_connect' && (
          <div className="field">
            <label className="field__label" htmlFor={`${ids}-stripeEmail`}>
              Email for Stripe Connect
            </label>
            <input {...fieldProps('stripeEmail')} type="email" name="stripe_email" autoComplete="email" maxLength={320} value={draft.stripeEmail} onChange={(e) => edit({ stripeEmail: e.target.value })} />
          </div>
        )}

        {problem && (
          <p id={problemId} className="payment-setup__problem" role="alert">
            {problem.message}
          </p>
        )}
        <button type="submit" className="button button--primary payment-setup__submit" disabled={!chosen}>
          {busy ? 'Saving...' : submitLabel}
        </button>
      </fieldset>
    </form>
  );
}

function MethodCard({ method, name, checked, onChoose }: { method: PaymentMethodOption; name: string; checked: boolean; onChoose: () => void }) {
  const id = `${name}-${method.method_name}`;
  return (
    <label className={`payment-setup__card${checked ? ' payment-setup__card--checked' : ''}`} htmlFor={id}>
      <input id={id} className="payment-setup__radio" type="radio" name={name} value={method.method_name} checked={checked} onChange={onChoose} aria-describedby={`${id}-terms`} />
      <span className="payment-setup__card-body">
        <span className="payment-setup__card-name">{method.display_name}</span>
        <span className="payment-setup__card-description">{method.description}</span>
        <span id={`${id}-terms`} className="payment-setup__terms">
          <span>Fee: {formatFee(method)}</span>
          <span>Processing: {formatProcessing(method.processing_time_days)}</span>
          <span>Minimum payout: {formatDollars(method.min_payout_cents)}</span>
        </span>
      </span>
    </label>
  );
}
