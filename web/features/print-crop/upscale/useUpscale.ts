import { useCallback, useEffect, useRef, useState } from 'react';
import type { UpscaledBlob, UpscaleFactor } from '../../../../workers/upscale/api.ts';
import { isAbortError } from '../../../lib/ApiError.ts';

export type UpscaleState =
  | { status: 'idle' }
  | { status: 'running'; progress: number }
  | { status: 'error'; message: string };

export const UPSCALE_FAILED_MESSAGE = 'The AI upscale did not work on this device. You can still print the crop as it is, or choose a smaller size.';

/** Where the pixels to upscale come from: a Blob, or a function that makes one when the upscale starts. */
export type UpscaleSource = Blob | ((signal: AbortSignal) => Promise<Blob>);

/**
 * One upscale at a time, with its progress, a cancel, and an error to show. The worker's code
 * (TensorFlow.js and the model runner) is imported only when an upscale starts. Unmounting
 * cancels a run under way.
 */
export function useUpscale(onResult: (result: UpscaledBlob) => void) {
  const [state, setState] = useState<UpscaleState>({ status: 'idle' });
  const controllerRef = useRef<AbortController | null>(null);
  const onResultRef = useRef(onResult);
  useEffect(() => {
    onResultRef.current = onResult;
  }, [onResult]);

  useEffect(() => () => controllerRef.current?.abort(), []);

  const start = useCallback(async (source: UpscaleSource, factor: UpscaleFactor) => {
    controllerRef.current?.abort();
    const controller = new AbortController();
    controllerRef.current = controller;
    const { signal } = controller;
    setState({ status: 'running', progress: 0 });
    try {
      const { upscaleImage, upscaleWorkerSupported } = await import('./upscaleWorker.ts');
      if (!upscaleWorkerSupported()) throw new Error('No worker support');
      const blob = typeof source === 'function' ? await source(signal) : source;
      signal.throwIfAborted();
      const result = await upscaleImage(
        blob,
        factor,
        (progress) => {
          // A late message from a run already cancelled is not shown.
          if (!signal.aborted) setState({ status: 'running', progress });
        },
        signal,
      );
      if (signal.aborted) return;
      setState({ status: 'idle' });
      onResultRef.current(result);
    } catch (cause) {
      if (signal.aborted || isAbortError(cause)) return;
      setState({ status: 'error', message: UPSCALE_FAILED_MESSAGE });
    } finally {
      if (controllerRef.current === controller) controllerRef.current = null;
    }
  }, []);

  const cancel = useCallback(() => {
    controllerRef.current?.abort();
    controllerRef.current = null;
    setState({ status: 'idle' });
  }, []);

  return { state, start, cancel };
}
