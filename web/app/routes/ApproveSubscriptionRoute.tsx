import { ApproveSubscriptionPage } from '../../features/subscriptions/ApproveSubscriptionPage.tsx';
import { SubscribeModal } from '../lazyModals.ts';

/** /approve-subscription: from the invalid-link state a new link is asked for with the layout's modal. */
export function ApproveSubscriptionRoute() {
  return <ApproveSubscriptionPage SubscribeModal={SubscribeModal} />;
}
