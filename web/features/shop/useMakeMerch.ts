/**
 * Make Merch from the video page: signed in, the pending screenshots become a product and the
 * browser goes to its page (a full-page load; after 1 s on a phone). Signed out, the pending
 * merch stays saved, the auth modal opens, and the product is made once the sign-in succeeds.
 */
import { useState } from 'react';
import { MOBILE_BREAKPOINT_PX } from '../../../shared/constants.ts';
import { createProduct } from './createProduct.ts';
import { usePendingMerch } from '../../stores/pendingMerch.ts';
import { useAuth } from '../../stores/useAuth.ts';

/** Spec section 9: on a phone the redirect waits 1 s, so the confirmation can be read. */
export const MOBILE_REDIRECT_DELAY_MS = 1_000;

export type MakeMerchState = 'idle' | 'signing-in' | 'creating' | 'redirecting';

export function useMakeMerch(onError: (message: string) => void) {
  const [state, setState] = useState<MakeMerchState>('idle');
  const authStatus = useAuth((s) => s.status);
  const user = useAuth((s) => s.user);

  const create = async (userEmail: string | null) => {
    if (!usePendingMerch.getState().record) return;
    setState('creating');
    try {
      // A capture's full-resolution JPEG may still be on its way: the product gets that, never a preview.
      const record = await usePendingMerch.getState().whenComplete();
      if (!record) throw new Error('The screenshots are gone.');
      const url = await createProduct(record, null, { userEmail });
      setState('redirecting');
      const phone = window.matchMedia(`(max-width: ${MOBILE_BREAKPOINT_PX}px)`).matches;
      if (phone) setTimeout(() => window.location.assign(url), MOBILE_REDIRECT_DELAY_MS);
      else window.location.assign(url);
    } catch (error) {
      setState('idle');
      onError(error instanceof Error ? error.message : String(error));
    }
  };

  const start = () => {
    if (state !== 'idle') return;
    if (authStatus === 'signed-in' && user) void create(user.email);
    // The record is already in IndexedDB; it is still there after the sign-in.
    else setState('signing-in');
  };

  return {
    state,
    start,
    signedIn: (email: string | null) => void create(email),
    // The modal reports a success before it closes: closing then must not undo the creation.
    cancelSignIn: () => setState((s) => (s === 'signing-in' ? 'idle' : s)),
  };
}
