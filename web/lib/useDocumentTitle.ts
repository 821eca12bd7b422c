import { useEffect } from 'react';

const SITE = 'FrameMerch';

/** Sets the tab title for the page being shown; `null` keeps the site name alone. */
export function useDocumentTitle(title: string | null): void {
  useEffect(() => {
    document.title = title ? `${title} · ${SITE}` : `${SITE}: turn a video frame into merch`;
  }, [title]);
}
