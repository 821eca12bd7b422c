import { useEffect, useState } from 'react';

export type LoadedImage = { status: 'loading' | 'failed'; image: null } | { status: 'ready'; image: HTMLImageElement };

/** An image decoded and ready to draw on a canvas; `null` asks for none. Keyed by address, so an old one never shows. */
export function useLoadedImage(url: string | null): LoadedImage {
  const [state, setState] = useState<{ url: string | null; value: LoadedImage }>({ url: null, value: { status: 'loading', image: null } });

  useEffect(() => {
    if (!url) return;
    let live = true;
    const image = new Image();
    image.decoding = 'async';
    // CORS mode: a stored image redirected to the object store's origin still draws on an untainted canvas.
    image.crossOrigin = 'anonymous';
    image.src = url;
    image.decode().then(
      () => {
        if (live) setState({ url, value: { status: 'ready', image } });
      },
      () => {
        if (live) setState({ url, value: { status: 'failed', image: null } });
      },
    );
    return () => {
      live = false;
    };
  }, [url]);

  if (!url) return { status: 'failed', image: null };
  return state.url === url ? state.value : { status: 'loading', image: null };
}
