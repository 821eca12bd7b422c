import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Icon } from './Icon.tsx';
import './Modal.css';

interface ModalProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
}

/**
 * A modal dialog on the native <dialog>: showModal() makes the rest of the page inert and
 * keeps focus inside. It opens on mount, focuses the element marked `data-autofocus` (else
 * the first control), closes on Escape, the close button or a click on the backdrop, and
 * gives focus back to whatever had it before. It is rendered at the end of <body>, so the
 * styles of the part of the page that opens it (the dark navbar's light text) never reach it.
 */
export function Modal({ title, onClose, children }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  }, [onClose]);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    let mounted = true;
    // Chrome may close a dialog on Escape without a cancel event; the parent must still hear of it.
    const onNativeClose = () => {
      if (mounted) onCloseRef.current();
    };
    dialog.addEventListener('close', onNativeClose);
    if (!dialog.open) dialog.showModal();
    dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => {
      mounted = false;
      dialog.removeEventListener('close', onNativeClose);
      if (dialog.open) dialog.close();
      opener?.focus();
    };
  }, []);

  const element = (
    <dialog
      ref={ref}
      className="modal"
      aria-modal="true"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        // The dialog element itself is only hit outside the panel, on the backdrop.
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div className="modal__panel">
        <div className="modal__header">
          <h2 className="modal__title" id={titleId}>
            {title}
          </h2>
          <button type="button" className="icon-button modal__close" aria-label="Close" onClick={onClose}>
            <Icon name="close" size={20} />
          </button>
        </div>
        {children}
      </div>
    </dialog>
  );
  // Rendered to a string (no document), it stays where it is written.
  return typeof document === 'undefined' ? element : createPortal(element, document.body);
}
