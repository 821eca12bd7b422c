import { useEffect, useState } from 'react';
import { isCreator } from '../../stores/roles.ts';
import { useAuth } from '../../stores/useAuth.ts';
import type { FlushOutcome } from './pendingPayoutSetup.ts';

/**
 * Once a creator is signed in, saves the payout details the new-user flow kept in IndexedDB
 * and deletes them. Mounted by the app shell (any page after sign-in) and by /payment-setup;
 * simultaneous runs share one. The saving code loads only when a creator is signed in.
 * Answers the outcome for the signed-in creator, null until there is one.
 */
export function usePendingPayoutSetup(): FlushOutcome | null {
  const creatorId = useAuth((s) => (s.status === 'signed-in' && isCreator(s.user) ? (s.user?.id ?? null) : null));
  const [state, setState] = useState<{ creatorId: string; outcome: FlushOutcome } | null>(null);

  useEffect(() => {
    if (!creatorId) return;
    let live = true;
    import('./pendingPayoutSetup.ts')
      .then((pending) => pending.flushPendingPayoutSetup())
      .then(
        (outcome) => {
          if (live) setState({ creatorId, outcome });
        },
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, [creatorId]);

  return state && state.creatorId === creatorId ? state.outcome : null;
}
