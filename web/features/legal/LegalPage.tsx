import type { ReactNode } from 'react';
import { useDocumentTitle } from '../../lib/useDocumentTitle.ts';
import { POLICY } from './policyFacts.ts';
import './LegalPage.css';

/** The frame both legal documents share: title, effective date, sections. */
export function LegalPage({ title, children }: { title: string; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <article className="legal">
      <header className="legal__header">
        <h1>{title}</h1>
        <p className="legal__effective">Effective {POLICY.effectiveDate}</p>
      </header>
      {children}
    </article>
  );
}
