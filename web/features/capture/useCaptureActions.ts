import { startTransition, useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { isAbortError } from '../../lib/ApiError.ts';
import { previewBoxFor } from './canvasCapture.ts';
import { captureFrame, type CapturedFrame } from './captureChain.ts';
import { usePendingMerch, type NewScreenshot } from '../../stores/pendingMerch.ts';
import { isFull } from '../../stores/pendingMerchRecord.ts';
import { captureForce } from './captureForce.ts';
import { CAPTURE_FAILED_MESSAGE, MAX_SCREENSHOTS_MESSAGE, VIDEO_URL_MISSING_MESSAGE } from './captureMessages.ts';
import { slotImageWidth } from './ScreenshotGrid.tsx';

export type Busy = 'capture' | 'crop' | null;

interface CaptureTarget {
  videoRef: RefObject<HTMLVideoElement | null>;
  videoUrl: string | null;
  thumbnailUrl: string | null;
  /** The screenshot slots: a capture's preview is made the size they show it at. */
  slotsRef: RefObject<HTMLUListElement | null>;
}

/** A toast to show; `id` changes for every message, so the same text shown twice restarts its timer. */
export interface ToastMessage {
  id: number;
  text: string;
}

/**
 * Select Screenshot, and `run` for other work on the frame on screen (the player's Apply Crop):
 * one at a time, each capturing the frame through the capture chain and adding the result to the
 * pending merch screenshots.
 * A canvas capture fills its slot from a small preview at once; the next capture may start once
 * its full-resolution JPEG is in the record. Leaving the page throws away work under way.
 */
export function useCaptureActions({ videoRef, videoUrl, thumbnailUrl, slotsRef }: CaptureTarget) {
  const [busy, setBusy] = useState<Busy>(null);
  const [toast, setToast] = useState<ToastMessage | null>(null);
  const busyRef = useRef<Busy>(null);
  const abortRef = useRef<AbortController | null>(null);

  useEffect(() => () => abortRef.current?.abort(), []);

  const showError = useCallback((text: string) => setToast((previous) => ({ id: (previous?.id ?? 0) + 1, text })), []);
  const dismissToast = useCallback(() => setToast(null), []);

  /** Adds a screenshot, or says the slots are full. */
  const add = useCallback(
    (shot: NewScreenshot): boolean => {
      if (usePendingMerch.getState().add(shot)) return true;
      showError(MAX_SCREENSHOTS_MESSAGE);
      return false;
    },
    [showError],
  );

  /**
   * Runs `work` on the frame on screen unless something already runs or the slots are full; false
   * when it did not run or failed. A failure of `work` itself shows `workFailed`.
   */
  const run = useCallback(
    async (kind: Exclude<Busy, null>, work: (frame: CapturedFrame, signal: AbortSignal) => Promise<NewScreenshot>, workFailed = CAPTURE_FAILED_MESSAGE): Promise<boolean> => {
      if (busyRef.current) return false;
      const record = usePendingMerch.getState().record;
      if (!record) return false;
      if (isFull(record)) {
        showError(MAX_SCREENSHOTS_MESSAGE);
        return false;
      }
      const video = videoRef.current;
      if (!videoUrl || !video) {
        showError(VIDEO_URL_MISSING_MESSAGE);
        return false;
      }
      const controller = new AbortController();
      abortRef.current = controller;
      busyRef.current = kind;
      // busyRef already refuses a second capture. The page shows the busy state in a render of
      // its own after the capture's first steps, so a canvas capture's frame and preview are
      // made before it, not after.
      startTransition(() => setBusy(kind));
      let stage: 'capture' | 'work' = 'capture';
      try {
        const force = captureForce(window.location.search);
        const previewBox = previewBoxFor(slotImageWidth(slotsRef.current), window.devicePixelRatio);
        const frame = await captureFrame({ video, videoUrl, thumbnailUrl, force, previewBox, signal: controller.signal });
        stage = 'work';
        const shot = await work(frame, controller.signal);
        if (controller.signal.aborted) return false;
        if (!add(shot)) return false;
        // The store keeps the screenshot once its full image exists, and drops it if that fails.
        stage = 'capture';
        await shot.blob;
        return true;
      } catch (error) {
        if (controller.signal.aborted || isAbortError(error)) return false;
        showError(stage === 'capture' ? CAPTURE_FAILED_MESSAGE : workFailed);
        return false;
      } finally {
        if (abortRef.current === controller) abortRef.current = null;
        busyRef.current = null;
        if (!controller.signal.aborted) setBusy(null);
      }
    },
    [add, showError, slotsRef, thumbnailUrl, videoRef, videoUrl],
  );

  const capture = useCallback(
    () =>
      run('capture', async (frame) => ({
        blob: frame.blob,
        ...(frame.preview ? { preview: frame.preview } : {}),
        width: frame.width,
        height: frame.height,
        source: frame.source,
        timestamp: frame.timestamp,
      })),
    [run],
  );

  return { busy, capture, run, add, toast, showError, dismissToast };
}
