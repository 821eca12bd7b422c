/**
 * What step 1's Continue and step 2's Save do in each mode, apart from the page so the rules
 * can be tested without a browser: check the input, then save through the API (`save`) or
 * keep it in IndexedDB for after sign-up (`pending`).
 */
import { saveTaxInfoRoute, savePayoutMethodRoute, type PayoutMethodName, type PayoutSetup, type SavePayoutMethodBody } from '../../../shared/schemas/payouts.ts';
import { request } from '../../lib/api.ts';
import { checkMethodDraft, checkTaxEmail, lastFour, toSaveBody, type DraftProblem, type MethodDraft } from './payoutForm.ts';
import { PAYMENT_SETUP_MESSAGES, type SetupMode } from './paymentSetupFlow.ts';
import { storePendingMethod, storePendingTaxEmail } from './pendingPayoutSetup.ts';

/** What step 2 shows of step 1: never a whole bank number. */
export interface MethodSummary {
  method: PayoutMethodName;
  text: string;
  /** Stripe Connect: where the creator finishes onboarding. */
  onboardingUrl: string | null;
}

export type MethodOutcome =
  | { result: 'invalid'; problem: DraftProblem }
  | { result: 'saved'; summary: MethodSummary }
  | { result: 'failed'; message: string };

export type TaxOutcome = { result: 'invalid'; message: string } | { result: 'saved' } | { result: 'failed'; message: string };

const ACCOUNT_TYPES = { checking: 'Checking', savings: 'Savings' } as const;

/** Step 1's summary: from the server's reply once saved, from the body while it waits in the browser. */
export function summarize(body: SavePayoutMethodBody, setup: PayoutSetup | null, onboardingUrl: string | null = null): MethodSummary {
  switch (body.method) {
    case 'paypal':
      return { method: 'paypal', text: `PayPal: ${setup?.paypal_email ?? body.paypal_email}`, onboardingUrl: null };
    case 'ach': {
      const last4 = setup?.ach?.account_last4 ?? lastFour(body.account_number);
      const type = ACCOUNT_TYPES[setup?.ach?.account_type ?? body.account_type];
      return { method: 'ach', text: `Bank account ending in ${last4} (${type})`, onboardingUrl: null };
    }
    case 'stripe_connect':
      return { method: 'stripe_connect', text: `Stripe Connect: ${setup?.stripe_connect?.email ?? body.email}`, onboardingUrl };
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export async function submitMethod(mode: SetupMode, draft: MethodDraft): Promise<MethodOutcome> {
  const problem = checkMethodDraft(draft);
  if (problem) return { result: 'invalid', problem };
  const body = toSaveBody(draft);
  if (mode === 'pending') {
    try {
      await storePendingMethod(body);
    } catch {
      return { result: 'failed', message: PAYMENT_SETUP_MESSAGES.notKept };
    }
    return { result: 'saved', summary: summarize(body, null) };
  }
  try {
    const reply = await request(savePayoutMethodRoute, { body });
    return { result: 'saved', summary: summarize(body, reply.setup, reply.onboarding_url ?? null) };
  } catch (error) {
    // The server's own message (its validation uses the same texts as the browser's).
    return { result: 'failed', message: messageOf(error) };
  }
}

export async function submitTaxEmail(mode: SetupMode, email: string): Promise<TaxOutcome> {
  const invalid = checkTaxEmail(email);
  if (invalid) return { result: 'invalid', message: invalid };
  const trimmed = email.trim();
  if (mode === 'pending') {
    const kept = await storePendingTaxEmail(trimmed).catch(() => false);
    return kept ? { result: 'saved' } : { result: 'failed', message: PAYMENT_SETUP_MESSAGES.notKept };
  }
  try {
    await request(saveTaxInfoRoute, { body: { email: trimmed } });
    return { result: 'saved' };
  } catch (error) {
    return { result: 'failed', message: messageOf(error) };
  }
}
