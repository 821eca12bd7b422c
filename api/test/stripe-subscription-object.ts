/**
 * Stripe Subscription objects for the tests, as customer.subscription.* events and
 * subscriptions.retrieve carry them: one builder for the rules' unit tests, the property test
 * and the API tests.
 */
import type Stripe from 'stripe';

export interface SubscriptionSpec {
  id: string;
  userId: string | null;
  customer: string;
  status: Stripe.Subscription.Status;
  created: number;
  /** The current period [start, end), in Unix seconds. */
  start: number;
  end: number;
  trialEnd?: number | null;
  cancelAtPeriodEnd?: boolean;
  cancelAt?: number | null;
  canceledAt?: number | null;
  endedAt?: number | null;
  /**
   * Where the current period sits: on the subscription (API versions before 2025-03-31) or on
   * its item (later ones). The item is listed either way when `itemId` is given.
   */
  periodOn?: 'subscription' | 'item';
  itemId?: string;
}

export function subscriptionObject(s: SubscriptionSpec): Record<string, unknown> {
  const period = { current_period_start: s.start, current_period_end: s.end };
  const onItem = s.periodOn === 'item';
  const trialEnd = s.trialEnd ?? null;
  const item = onItem || s.itemId !== undefined ? [{ id: s.itemId ?? `si_${s.id}`, object: 'subscription_item', ...(onItem ? period : {}) }] : [];
  return {
    id: s.id,
    object: 'subscription',
    customer: s.customer,
    status: s.status,
    created: s.created,
    start_date: s.created,
    trial_start: trialEnd === null ? null : s.created,
    trial_end: trialEnd,
    cancel_at_period_end: s.cancelAtPeriodEnd ?? false,
    cancel_at: s.cancelAt ?? null,
    canceled_at: s.canceledAt ?? null,
    ended_at: s.endedAt ?? null,
    metadata: s.userId ? { user_id: s.userId } : {},
    ...(onItem ? {} : period),
    items: { object: 'list', data: item },
  };
}
