import { useEffect, useRef } from 'react';
import type { CropRect, Size } from '../../../shared/print.ts';
import { loadCrop, saveCrop } from './savedCrop.ts';

/** Changes to the box are written this long after the last one (a drag makes many). */
const SAVE_DELAY_MS = 300;

/**
 * Brings back the video's crop box once the video's size is known, and keeps it as it changes
 * (closing the box forgets it).
 */
export function useSavedCrop(videoId: string, video: Size | null, rect: CropRect | null, setRect: (rect: CropRect) => void): void {
  // Nothing is saved for this video until its stored box has been read, so an empty box at
  // mount does not erase it.
  const restored = useRef<string | null>(null);
  const width = video?.width ?? 0;
  const height = video?.height ?? 0;

  useEffect(() => {
    if (width === 0 || height === 0 || restored.current === videoId) return;
    let live = true;
    void loadCrop(videoId, { width, height }).then((saved) => {
      if (!live) return;
      restored.current = videoId;
      if (saved) setRect(saved);
    });
    return () => {
      live = false;
    };
  }, [videoId, width, height, setRect]);

  useEffect(() => {
    // A video that failed to load closes the box without the viewer asking: that is not kept.
    if (restored.current !== videoId || width === 0 || height === 0) return;
    const timer = setTimeout(() => void saveCrop(videoId, rect, { width, height }), SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [videoId, rect, width, height]);
}
