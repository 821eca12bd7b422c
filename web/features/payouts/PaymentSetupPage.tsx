import { useId, useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { CREATOR_SHARE_PERCENT } from '../../../shared/constants.ts';
import { AUTH_MESSAGES } from '../../../shared/schemas/auth.ts';
import { DEFAULT_PAYOUT_THRESHOLD_CENTS } from '../../../shared/schemas/payouts.ts';
import { StatusMessage } from '../../components/StatusMessage.tsx';
import { StepFlow } from '../../components/StepFlow.tsx';
import { useDocumentTitle } from '../../lib/useDocumentTitle.ts';
import { useAuth } from '../../stores/useAuth.ts';
import { MethodStep } from './MethodStep.tsx';
import { OnboardingLink } from './OnboardingLink.tsx';
import { TaxStep } from './TaxStep.tsx';
import { submitTaxEmail, type MethodSummary } from './paymentSetupActions.ts';
import { finishDestination, PAYMENT_SETUP_MESSAGES, setupAccess, signUpFirst, type SetupMode } from './paymentSetupFlow.ts';
import { draftEmail } from './payoutForm.ts';
import { formatDollars } from './payoutMethods.ts';
import type { FlushOutcome } from './pendingPayoutSetup.ts';
import { useMethodForm } from './useMethodForm.ts';
import { usePendingPayoutSetup } from './usePendingPayoutSetup.ts';
import './PaymentSetupPage.css';

export const PAYMENT_SETUP_STEPS = ['Payment method', 'Payment email and tax information'] as const;

/**
 * /payment-setup: a creator's payout method (step 1) and payment email (step 2). In the
 * new-user flow (?flow=new_user or ?ref=new_user) it also works signed out, keeping the values
 * in the browser until the account exists; other signed-out visitors are sent to /signup.
 */
export function PaymentSetupPage() {
  useDocumentTitle('Payment setup');
  const { search } = useLocation();
  const status = useAuth((s) => s.status);
  const user = useAuth((s) => s.user);
  // Values kept before sign-in are saved here too, in case the shell has not done it.
  const flushed = usePendingPayoutSetup();
  const access = setupAccess(status, user, search);

  if (access.kind === 'loading') return <StatusMessage kind="loading" title="Loading..." />;
  if (access.kind === 'sign-up') {
    const destination = signUpFirst();
    return <Navigate to={destination.to} state={destination.state} replace />;
  }
  if (access.kind === 'denied') {
    return (
      <StatusMessage kind="error" title={AUTH_MESSAGES.accessDenied}>
        <p>{PAYMENT_SETUP_MESSAGES.creatorsOnly}</p>
      </StatusMessage>
    );
  }
  return <PaymentSetup key={`${access.mode}:${user?.id ?? ''}`} mode={access.mode} name={user?.display_name ?? null} userEmail={user?.email ?? ''} flushed={flushed} />;
}

interface PaymentSetupProps {
  mode: SetupMode;
  name: string | null;
  userEmail: string;
  flushed: FlushOutcome | null;
}

function PaymentSetup({ mode, name, userEmail, flushed }: PaymentSetupProps) {
  const navigate = useNavigate();
  const ids = useId();
  const [step, setStep] = useState<1 | 2>(1);
  const method = useMethodForm(mode);
  const [summary, setSummary] = useState<MethodSummary | null>(null);
  const [taxEmail, setTaxEmail] = useState('');
  const [taxProblem, setTaxProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const continueToStep2 = async () => {
    const done = await method.submit();
    if (!done) return;
    // Step 2 shows the method with its last 4 digits only (the form has forgotten the bank numbers).
    setSummary(done.summary);
    setTaxEmail((email) => email || draftEmail(done.saved) || userEmail);
    setTaxProblem(null);
    setStep(2);
  };

  const finish = (outcome: 'done' | 'skipped') => {
    const destination = finishDestination(mode, outcome);
    void navigate(destination.to, { state: destination.state });
  };

  const saveTaxEmail = async () => {
    setBusy(true);
    const outcome = await submitTaxEmail(mode, taxEmail);
    setBusy(false);
    if (outcome.result === 'saved') return finish('done');
    setTaxProblem(outcome.message);
  };

  return (
    <section className="payment-setup" aria-labelledby={`${ids}-title`}>
      <header className="payment-setup__header">
        <h1 id={`${ids}-title`} className="payment-setup__title">
          {name ? `Welcome, ${name}!` : 'Welcome to FrameMerch!'}
        </h1>
        <p className="payment-setup__intro">
          Set up how you get paid. You earn {CREATOR_SHARE_PERCENT}% of every sale of your merch, paid monthly on the 1st once your balance reaches{' '}
          {formatDollars(DEFAULT_PAYOUT_THRESHOLD_CENTS)}.
        </p>
      </header>
      {flushed && flushed.result !== 'none' && <FlushNotice outcome={flushed} />}
      <StepFlow current={step} steps={PAYMENT_SETUP_STEPS} label="Payment setup steps" />
      {step === 1 ? (
        <MethodStep
          {...method.stepProps}
          submitLabel="Continue"
          onSubmit={() => void continueToStep2()}
          focusHeading={summary !== null}
        />
      ) : (
        <TaxStep
          summary={summary}
          kept={mode === 'pending'}
          email={taxEmail}
          onEmail={setTaxEmail}
          problem={taxProblem}
          busy={busy}
          onSave={() => void saveTaxEmail()}
          onSkip={() => finish('skipped')}
          onBack={() => setStep(1)}
        />
      )}
    </section>
  );
}

/** What became of the values kept before sign-in, when they were saved on this page. */
function FlushNotice({ outcome }: { outcome: Exclude<FlushOutcome, { result: 'none' }> }) {
  if (outcome.result === 'failed') {
    return (
      <p className="payment-setup__problem" role="alert">
        {PAYMENT_SETUP_MESSAGES.pendingFailed} {outcome.message}
      </p>
    );
  }
  return (
    <div className="payment-setup__summary" role="status">
      <p className="payment-setup__summary-text">{PAYMENT_SETUP_MESSAGES.pendingSaved}</p>
      {outcome.onboardingUrl && <OnboardingLink href={outcome.onboardingUrl} />}
    </div>
  );
}
