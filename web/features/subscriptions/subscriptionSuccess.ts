/**
 * /subscription-success's logic, apart from React so it can be tested: verify the checkout
 * (GET /api/subscriptions/verify/:sessionId), asking again while it is still open, up to
 * MAX_VERIFY_ATTEMPTS; then activate it (POST /api/subscriptions/activate, the session id only)
 * and show the subscription. A session processed already verifies at once. The messages are spec
 * section 8's:
 *  - still not complete after the last attempt: 'Unable to verify subscription. Please contact support.'
 *  - the checkout is not one (unknown, someone else's, expired, or no subscription): 'Payment verification failed'
 *  - verification could not be asked (network or server failure, every attempt): 'Failed to verify payment'
 *  - activation failed: 'Failed to activate subscription'
 *  - signed out: 'Please sign in to view your instructions and personal link'
 */
import { SUBSCRIPTION_MESSAGES, type SubscriptionView, type VerifySubscriptionReply } from '../../../shared/schemas/subscriptions.ts';
import { isAbortError, isApiError } from '../../lib/ApiError.ts';

export const MAX_VERIFY_ATTEMPTS = 3;
/** Between attempts: a moment for the provider to finish the checkout. */
export const VERIFY_RETRY_MS = 2000;

export type SuccessState =
  | { kind: 'signed-out'; message: string }
  | { kind: 'verifying'; attempt: number }
  | { kind: 'success'; subscription: SubscriptionView }
  | { kind: 'error'; message: string };

export interface VerifySteps {
  verify: (sessionId: string) => Promise<VerifySubscriptionReply>;
  activate: (sessionId: string) => Promise<{ subscription: SubscriptionView }>;
  /** Waits before the next attempt (rejects when the page is left). */
  wait: (ms: number) => Promise<void>;
  /** Each attempt as it starts (1, 2, 3), for the page's state. */
  onAttempt?: (attempt: number) => void;
}

/** A session id as the providers make them (Stripe's cs_..., the embedded provider's); anything else is not a checkout link. */
export function sessionIdFrom(search: string | URLSearchParams): string | null {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const id = params.get('session_id')?.trim() ?? '';
  return /^[A-Za-z0-9_-]{1,255}$/.test(id) ? id : null;
}

/** A failure another attempt may clear: the server not reached, or failing for now. */
function transient(error: unknown): boolean {
  return !isApiError(error) || error.status === 0 || error.status >= 500 || error.status === 429;
}

export type VerifyOutcome = SuccessState | { kind: 'aborted' };

/** The whole flow, from a signed-in visitor's session id to the state the page ends in. */
export async function verifyAndActivate(steps: VerifySteps, sessionId: string | null): Promise<VerifyOutcome> {
  if (sessionId === null) return { kind: 'error', message: SUBSCRIPTION_MESSAGES.verificationFailed };
  let verified = false;
  let lastWasOpen = false;
  for (let attempt = 1; attempt <= MAX_VERIFY_ATTEMPTS && !verified; attempt++) {
    if (attempt > 1) {
      try {
        await steps.wait(VERIFY_RETRY_MS);
      } catch {
        return { kind: 'aborted' };
      }
    }
    steps.onAttempt?.(attempt);
    try {
      const reply = await steps.verify(sessionId);
      if (reply.success) verified = true;
      else if (reply.status === 'open') lastWasOpen = true;
      else return { kind: 'error', message: SUBSCRIPTION_MESSAGES.verificationFailed };
    } catch (error) {
      if (isAbortError(error)) return { kind: 'aborted' };
      if (!transient(error)) return { kind: 'error', message: SUBSCRIPTION_MESSAGES.verificationFailed };
      lastWasOpen = false;
    }
  }
  if (!verified) return { kind: 'error', message: lastWasOpen ? SUBSCRIPTION_MESSAGES.unableToVerify : SUBSCRIPTION_MESSAGES.verifyFailed };
  try {
    const { subscription } = await steps.activate(sessionId);
    return { kind: 'success', subscription };
  } catch (error) {
    if (isAbortError(error)) return { kind: 'aborted' };
    return { kind: 'error', message: SUBSCRIPTION_MESSAGES.activateFailed };
  }
}

/** "Monday, 3 March 2025": when the trial ends, in the visitor's language. */
export function trialEndLabel(iso: string | null, locale?: string): string | null {
  if (!iso) return null;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return null;
  return d.toLocaleDateString(locale, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
}

/** A waiting step that ends early (rejecting) when the signal aborts. */
export function abortableWait(signal: AbortSignal): (ms: number) => Promise<void> {
  return (ms) =>
    new Promise<void>((resolve, reject) => {
      if (signal.aborted) return reject(new DOMException('aborted', 'AbortError'));
      const timer = setTimeout(resolve, ms);
      signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          reject(new DOMException('aborted', 'AbortError'));
        },
        { once: true },
      );
    });
}
