import type { PayoutSetup } from '../../../shared/schemas/payouts.ts';
import { Modal } from '../../components/Modal.tsx';
import { MethodStep } from './MethodStep.tsx';
import type { MethodSummary } from './paymentSetupActions.ts';
import { draftFromSetup } from './paymentPortal.ts';
import { useMethodForm } from './useMethodForm.ts';

interface PortalMethodModalProps {
  /** The saved setup (its emails and method fill the form; bank numbers never do), or null when unknown. */
  setup: PayoutSetup | null;
  onClose: () => void;
  onSaved: (summary: MethodSummary) => void;
}

/** The payment portal's modal: payment setup's step 1 form (the same checks, messages and request), saved at once. */
export function PortalMethodModal({ setup, onClose, onSaved }: PortalMethodModalProps) {
  const form = useMethodForm('save', draftFromSetup(setup));
  const save = async () => {
    const done = await form.submit();
    if (done) onSaved(done.summary);
  };
  return (
    <Modal title={setup?.preferred_payment_method ? 'Edit payment method' : 'Connect payment method'} onClose={onClose}>
      <MethodStep {...form.stepProps} title="How you get paid" submitLabel="Save payment method" onSubmit={() => void save()} />
    </Modal>
  );
}
