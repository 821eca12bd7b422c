import { useState } from 'react';
import { manageSubscriptionRoute } from '../../../shared/schemas/subscriptions.ts';
import { request } from '../../lib/api.ts';
import { isAbortError } from '../../lib/ApiError.ts';
import { checkoutTarget, subscribeErrorText } from './useSubscribe.ts';

export const MANAGE_FAILED = 'Could not open your subscription settings. Please try again.';

export interface ManageSteps {
  /** Asks the server for the provider's page. */
  manage: () => Promise<{ url: string }>;
  go: (url: string) => void;
  origin: string;
}

export type ManageOutcome = { kind: 'leaving' } | { kind: 'failed'; message: string } | { kind: 'aborted' };

/** POST /api/subscriptions/manage, then to the page it answers (a web address only). */
export async function openManagePage(steps: ManageSteps): Promise<ManageOutcome> {
  try {
    const { url } = await steps.manage();
    const target = checkoutTarget(url, steps.origin);
    if (!target) return { kind: 'failed', message: MANAGE_FAILED };
    steps.go(target);
    return { kind: 'leaving' };
  } catch (error) {
    if (isAbortError(error)) return { kind: 'aborted' };
    const text = subscribeErrorText(error);
    return { kind: 'failed', message: text === subscribeErrorText(null) ? MANAGE_FAILED : text };
  }
}

/** 'Manage subscription': leaves for the payment provider's page; `busy` stays on while leaving. */
export function useManageSubscription() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const manage = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    const outcome = await openManagePage({
      manage: () => request(manageSubscriptionRoute),
      go: (url) => window.location.assign(url),
      origin: window.location.origin,
    });
    if (outcome.kind === 'failed') setError(outcome.message);
    if (outcome.kind !== 'leaving') setBusy(false);
  };
  return { manage: () => void manage(), busy, error };
}
