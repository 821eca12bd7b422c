import { useCallback, useEffect, useRef, useState } from 'react';

export interface ShownImage {
  blob: Blob;
  url: string;
  width: number;
  height: number;
}

/**
 * One image on the page with its object URL: replacing the image revokes the old URL, and
 * unmounting revokes the last one.
 */
export function useImageSlot() {
  const [image, setImage] = useState<ShownImage | null>(null);
  const urlRef = useRef<string | null>(null);

  useEffect(
    () => () => {
      if (urlRef.current) URL.revokeObjectURL(urlRef.current);
      urlRef.current = null;
    },
    [],
  );

  /** Shows `next` under a new object URL (the caller may pass one it made, e.g. to decode first). */
  const replace = useCallback((next: { blob: Blob; width: number; height: number; url?: string } | null) => {
    if (urlRef.current) URL.revokeObjectURL(urlRef.current);
    const url = next ? (next.url ?? URL.createObjectURL(next.blob)) : null;
    urlRef.current = url;
    setImage(next && url ? { blob: next.blob, width: next.width, height: next.height, url } : null);
  }, []);

  return [image, replace] as const;
}
