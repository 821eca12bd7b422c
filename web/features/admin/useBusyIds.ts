import { useState } from 'react';

/** The rows with an action under way (their buttons are disabled until it ends). */
export function useBusyIds() {
  const [busy, setBusy] = useState<ReadonlySet<string>>(() => new Set());
  const mark = (id: string, on: boolean) =>
    setBusy((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  return { busy, mark };
}
