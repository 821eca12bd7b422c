import type { ReactNode } from 'react';
import { Modal } from '../../components/Modal.tsx';

interface ConfirmDialogProps {
  title: string;
  confirmLabel: string;
  busy: boolean;
  /** The server's message when the action failed; the dialog stays open. */
  error: string | null;
  onConfirm: () => void;
  onCancel: () => void;
  children: ReactNode;
}

/** Spec section 5: admin actions ask for confirmation. Cancel has the focus first. */
export function ConfirmDialog({ title, confirmLabel, busy, error, onConfirm, onCancel, children }: ConfirmDialogProps) {
  return (
    <Modal title={title} onClose={onCancel}>
      <div className="admin-confirm">
        {children}
        {error && (
          <p className="field__error" role="alert">
            {error}
          </p>
        )}
        <div className="admin-confirm__actions">
          <button type="button" className="button button--ghost" data-autofocus onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className="button button--ghost admin-danger" disabled={busy} onClick={onConfirm}>
            {busy ? 'Working...' : confirmLabel}
          </button>
        </div>
      </div>
    </Modal>
  );
}
