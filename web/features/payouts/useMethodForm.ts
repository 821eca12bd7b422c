import { useState } from 'react';
import { useApiRead } from '../../lib/useApiRead.ts';
import type { StepProblem } from './MethodStep.tsx';
import { submitMethod, type MethodSummary } from './paymentSetupActions.ts';
import type { SetupMode } from './paymentSetupFlow.ts';
import { EMPTY_DRAFT, withoutBankNumbers, type MethodDraft } from './payoutForm.ts';
import { chosenMethod, loadPaymentMethods, rememberCountry, rememberedCountry, type PayoutCountry } from './payoutMethods.ts';

/**
 * The payout method form's state, for payment setup's step 1 and the payment portal's modal:
 * the country and the methods it offers, what was typed, the problem to show, and saving (or,
 * in the new-user flow, keeping) the chosen method. `stepProps` go to MethodStep as they are.
 */
export function useMethodForm(mode: SetupMode, initial: MethodDraft = EMPTY_DRAFT) {
  const [country, setCountry] = useState<PayoutCountry>(rememberedCountry);
  const [draft, setDraft] = useState<MethodDraft>(initial);
  const [problem, setProblem] = useState<StepProblem | null>(null);
  const [busy, setBusy] = useState(false);

  const methodsRead = useApiRead(country, (signal) => loadPaymentMethods(country, signal));
  const methods = methodsRead.status === 'ready' ? methodsRead.data : null;

  const onCountry = (next: PayoutCountry) => {
    setCountry(next);
    rememberCountry(next);
    setProblem(null);
  };

  /** Checks and saves the chosen method: what was saved, or null once the problem is shown. */
  const submit = async (): Promise<{ summary: MethodSummary; saved: MethodDraft } | null> => {
    const chosen = chosenMethod(methods, draft.method);
    if (!chosen) return null;
    const current = { ...draft, method: chosen.method_name };
    setBusy(true);
    const outcome = await submitMethod(mode, current);
    setBusy(false);
    if (outcome.result !== 'saved') {
      setProblem(outcome.result === 'invalid' ? outcome.problem : { field: null, message: outcome.message });
      return null;
    }
    setProblem(null);
    // Sent or kept: the bank numbers leave the page's memory (only their last 4 digits are shown after).
    setDraft(withoutBankNumbers(current));
    return { summary: outcome.summary, saved: current };
  };

  return { stepProps: { country, onCountry, methods, draft, onDraft: setDraft, problem, busy }, submit };
}
