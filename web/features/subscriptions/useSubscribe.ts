import { useState } from 'react';
import { useLocation } from 'react-router';
import { subscriptionCheckoutRoute } from '../../../shared/schemas/subscriptions.ts';
import { request } from '../../lib/api.ts';
import { isAbortError, isApiError } from '../../lib/ApiError.ts';
import { returnPathOf } from '../../lib/paths.ts';
import { signInHref } from '../../lib/signInHref.ts';
import { useAuth } from '../../stores/useAuth.ts';

export const SUBSCRIBE_FAILED = 'Failed to start your subscription. Please try again.';

export interface SubscribeSteps {
  signedIn: boolean;
  /** Sends the visitor to sign in, coming back to this page. */
  signIn: () => void;
  /** Asks the server for the checkout page. */
  checkout: () => Promise<{ url: string }>;
  /** Leaves for the checkout page (a full-page navigation: it is not part of this app). */
  go: (url: string) => void;
  origin: string;
}

/** Only a web address may be navigated to: a `javascript:` URL in a reply must never run. */
export function checkoutTarget(url: string, origin: string): string | null {
  try {
    const target = new URL(url, origin);
    return target.protocol === 'https:' || target.protocol === 'http:' ? target.href : null;
  } catch {
    return null;
  }
}

/** The server's own message when it gave one (or the network one); ours otherwise. */
export function subscribeErrorText(error: unknown): string {
  if (isApiError(error) && (error.serverError !== null || error.status === 0)) return error.message;
  return SUBSCRIBE_FAILED;
}

export type SubscribeOutcome = { kind: 'signing-in' } | { kind: 'leaving' } | { kind: 'failed'; message: string } | { kind: 'aborted' };

/** Signed out: sign in first. Signed in: open the checkout the server answers, or say why not. */
export async function startSubscription(steps: SubscribeSteps): Promise<SubscribeOutcome> {
  if (!steps.signedIn) {
    steps.signIn();
    return { kind: 'signing-in' };
  }
  try {
    const { url } = await steps.checkout();
    const target = checkoutTarget(url, steps.origin);
    if (!target) return { kind: 'failed', message: SUBSCRIBE_FAILED };
    steps.go(target);
    return { kind: 'leaving' };
  } catch (error) {
    if (isAbortError(error)) return { kind: 'aborted' };
    return { kind: 'failed', message: subscribeErrorText(error) };
  }
}

/**
 * Starts Pro (POST /api/subscriptions/checkout) and follows the reply's url. `busy` stays on
 * once the page is being left, so the button cannot send a second checkout.
 */
export function useSubscribe() {
  const location = useLocation();
  const signedIn = useAuth((s) => s.status === 'signed-in' && s.user !== null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const subscribe = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    const outcome = await startSubscription({
      signedIn,
      signIn: () => window.location.assign(signInHref(returnPathOf(location))),
      checkout: () => request(subscriptionCheckoutRoute, { body: { tier: 'pro' } }),
      go: (url) => window.location.assign(url),
      origin: window.location.origin,
    });
    if (outcome.kind === 'failed') setError(outcome.message);
    if (outcome.kind === 'failed' || outcome.kind === 'aborted') setBusy(false);
  };

  return { subscribe: () => void subscribe(), busy, error };
}
