import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { tabForKey } from './tabKeys.ts';
import './Tabs.css';

export interface TabItem<Id extends string> {
  id: Id;
  label: string;
}

interface TabsProps<Id extends string> {
  /** The tab list's accessible name ("Admin sections"). */
  label: string;
  tabs: readonly TabItem<Id>[];
  current: Id;
  onSelect: (id: Id) => void;
  /** The current tab's panel. */
  children: ReactNode;
}

/**
 * Tabs as the WAI-ARIA tabs pattern has them, with automatic activation: one tab stop, arrow
 * keys move (wrapping), Home and End jump, and the focus follows the selection.
 */
export function Tabs<Id extends string>({ label, tabs, current, onSelect, children }: TabsProps<Id>) {
  const ids = useId();
  const buttons = useRef<Partial<Record<Id, HTMLButtonElement | null>>>({});

  const onKeyDown = (event: KeyboardEvent) => {
    const next = tabForKey(
      tabs.map((t) => t.id),
      current,
      event.key,
    );
    if (next === null) return;
    event.preventDefault();
    onSelect(next);
    buttons.current[next]?.focus();
  };

  return (
    <>
      <div className="tabs" role="tablist" aria-label={label} onKeyDown={onKeyDown}>
        {tabs.map((tab) => (
          <button
            key={tab.id}
            ref={(el) => void (buttons.current[tab.id] = el)}
            id={`${ids}-tab-${tab.id}`}
            type="button"
            role="tab"
            className="tabs__tab"
            aria-selected={tab.id === current}
            aria-controls={`${ids}-panel`}
            tabIndex={tab.id === current ? 0 : -1}
            onClick={() => onSelect(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div id={`${ids}-panel`} role="tabpanel" aria-labelledby={`${ids}-tab-${current}`}>
        {children}
      </div>
    </>
  );
}
