import { mySubscriptionRoute } from '../../../shared/schemas/subscriptions.ts';
import type { SubscriptionTier } from '../../../shared/subscriptions.ts';
import { request } from '../../lib/api.ts';
import { useApiRead } from '../../lib/useApiRead.ts';
import { useAuth } from '../../stores/useAuth.ts';

export interface CurrentPlan {
  tier: SubscriptionTier;
  /** There is a subscription at the payment provider to manage (cancel, change the card). */
  canManage: boolean;
}

/**
 * The signed-in user's plan, as the server holds it (GET /api/subscriptions/me: Free when they
 * have no subscription), to mark it 'Current plan' and offer 'Manage subscription'; null while
 * unknown (signed out, loading, or unreadable: then no card is marked).
 */
export function useCurrentPlan(): CurrentPlan | null {
  const status = useAuth((s) => s.status);
  const user = useAuth((s) => s.user);
  const who = status === 'signed-in' && user ? user : null;
  const read = useApiRead<CurrentPlan | null>(`plan#${who?.id ?? 'nobody'}`, async (signal) => {
    if (!who) return null;
    const { subscription } = await request(mySubscriptionRoute, { signal });
    return { tier: subscription.tier, canManage: subscription.can_manage };
  });
  return read.status === 'ready' ? read.data : null;
}

/** The signed-in user's tier, or null while unknown. */
export function useCurrentTier(): SubscriptionTier | null {
  return useCurrentPlan()?.tier ?? null;
}
