import type { ReactNode } from 'react';
import './StatusMessage.css';

interface StatusMessageProps {
  kind: 'loading' | 'error' | 'info';
  title: string;
  children?: ReactNode;
}

/** The one way pages show loading, empty and error states: loading is announced politely, errors as alerts. */
export function StatusMessage({ kind, title, children }: StatusMessageProps) {
  return (
    <div className={`status status--${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {kind === 'loading' && <span className="status__spinner" aria-hidden="true" />}
      <p className="status__title">{title}</p>
      {children}
    </div>
  );
}
