import { StepFlow } from '../../components/StepFlow.tsx';

export const CHECKOUT_STEPS = ['Review', 'Payment', 'Complete'] as const;

/** Spec section 2: steps 1 Review, 2 Payment, 3 Complete. */
export function CheckoutSteps({ current }: { current: 1 | 2 | 3 }) {
  return <StepFlow current={current} steps={CHECKOUT_STEPS} label="Checkout steps" />;
}
