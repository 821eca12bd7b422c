/**
 * Who may use /payment-setup and where it sends them (spec sections 2 and 6): a signed-in
 * creator saves through the API; a signed-out visitor in the new-user flow keeps the values
 * in the browser until sign-up; any other signed-out visitor is sent to /signup.
 */
import type { SessionUser } from '../../../shared/schemas/auth.ts';
import { authPagePath } from '../../lib/paths.ts';
import { isCreator } from '../../stores/roles.ts';
import type { AuthStatus } from '../../stores/useAuth.ts';

/** The texts the spec leaves to us (it names a message for each of these but does not quote it). */
export const PAYMENT_SETUP_MESSAGES = {
  signUpFirst: 'Please sign up or sign in to set up your payouts.',
  newUserDone: 'Your payout details are ready. Create your account to finish setting up payouts.',
  newUserSkipped: 'Your payment method is ready. Create your account to save it; you can add your payment email and tax information later.',
  done: 'Payout setup complete. Your earnings are paid monthly on the 1st.',
  skipped: 'Payment method saved. You can add your payment email and tax information later.',
  notKept: 'Your browser would not keep these details. Please create your account first, then set up your payouts.',
  creatorsOnly: 'Payment setup is for creator accounts.',
  pendingSaved: 'The payout details you entered before signing in are now saved to your account.',
  pendingFailed: 'The payout details you entered before signing in could not be saved:',
} as const;

export const PAYMENT_SETUP_PATH = '/payment-setup';

/** Spec section 2: ?flow=new_user or ?ref=new_user. */
export function isNewUserFlow(search: string): boolean {
  const params = new URLSearchParams(search);
  return params.get('flow') === 'new_user' || params.get('ref') === 'new_user';
}

/** `save`: through the API; `pending`: kept in IndexedDB until the account exists. */
export type SetupMode = 'save' | 'pending';
export type SetupAccess = { kind: 'loading' } | { kind: 'sign-up' } | { kind: 'denied' } | { kind: 'form'; mode: SetupMode };

export function setupAccess(status: AuthStatus, user: SessionUser | null, search: string): SetupAccess {
  if (status === 'loading' || status === 'pending') return { kind: 'loading' };
  if (status === 'signed-in' && user) return isCreator(user) ? { kind: 'form', mode: 'save' } : { kind: 'denied' };
  return isNewUserFlow(search) ? { kind: 'form', mode: 'pending' } : { kind: 'sign-up' };
}

/** A page to go to, and the message it is handed in location state (`{ message }`). */
export interface Destination {
  to: string;
  state: { message: string };
}

/** Signed out, not in the new-user flow: sign up, then come back here. */
export function signUpFirst(): Destination {
  return { to: authPagePath('/signup', PAYMENT_SETUP_PATH), state: { message: PAYMENT_SETUP_MESSAGES.signUpFirst } };
}

/**
 * Where step 2 ends: /dashboard for a creator; /signup for the new-user flow, returning to the
 * dashboard, where the app shell saves the kept values once the account exists.
 */
export function finishDestination(mode: SetupMode, outcome: 'done' | 'skipped'): Destination {
  if (mode === 'pending') {
    const message = outcome === 'done' ? PAYMENT_SETUP_MESSAGES.newUserDone : PAYMENT_SETUP_MESSAGES.newUserSkipped;
    return { to: authPagePath('/signup', '/dashboard'), state: { message } };
  }
  return { to: '/dashboard', state: { message: outcome === 'done' ? PAYMENT_SETUP_MESSAGES.done : PAYMENT_SETUP_MESSAGES.skipped } };
}
