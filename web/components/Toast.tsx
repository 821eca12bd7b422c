import { useEffect, useRef } from 'react';
import { toastDuration } from './toastDuration.ts';
import './Toast.css';

interface ToastProps {
  message: string;
  onDismiss: () => void;
}

/**
 * A red error toast at the bottom of the screen, announced as an alert, gone after 3 s (5 s
 * for a long message) or when dismissed. Give it a new `key` to show the same message again.
 */
export function Toast({ message, onDismiss }: ToastProps) {
  const onDismissRef = useRef(onDismiss);
  useEffect(() => {
    onDismissRef.current = onDismiss;
  }, [onDismiss]);

  useEffect(() => {
    const timer = setTimeout(() => onDismissRef.current(), toastDuration(message));
    return () => clearTimeout(timer);
  }, [message]);

  return (
    <div className="toast" role="alert">
      <span className="toast__message">{message}</span>
      <button type="button" className="toast__close" aria-label="Dismiss" onClick={onDismiss}>
        ×
      </button>
    </div>
  );
}
