/** A subscription as the server describes it, for this feature's tests: Pro, in its 7-day trial. */
import type { SubscriptionView } from '../../../shared/schemas/subscriptions.ts';

export const TRIALING_PRO: SubscriptionView = {
  tier: 'pro',
  status: 'trialing',
  stripe_status: 'trialing',
  trial_end: '2030-03-08T12:00:00.000Z',
  current_period_start: '2030-03-01T12:00:00.000Z',
  current_period_end: '2030-03-08T12:00:00.000Z',
  cancel_at_period_end: false,
  stripe_subscription_id: 'sub_1',
  stripe_customer_id: 'cus_1',
  can_manage: true,
};
