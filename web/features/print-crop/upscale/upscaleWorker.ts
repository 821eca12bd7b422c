/**
 * The upscale worker from the page: started on the first upscale, kept a while for the next one
 * (the model stays loaded in it), and ended at once when an upscale is cancelled.
 */
import * as Comlink from 'comlink';
import type { UpscaledBlob, UpscaleFactor } from '../../../../workers/upscale/api.ts';
import type { UpscaleWorkerApi } from '../../../../workers/upscale/api.ts';
import { modelPath } from '../../../../workers/upscale/tiles.ts';
import { createWorkerBridge } from '../../../lib/workerBridge.ts';

const bridge = createWorkerBridge<UpscaleWorkerApi>({
  start: () => new Worker(new URL('../../../../workers/upscale/upscale.worker.ts', import.meta.url), { type: 'module', name: 'upscale' }),
  idleMs: 30_000,
  restartAfterError: true,
});

export function upscaleWorkerSupported(): boolean {
  return typeof Worker !== 'undefined' && typeof OffscreenCanvas !== 'undefined' && typeof createImageBitmap !== 'undefined';
}

/** The image `factor` times larger, as PNG; `onProgress` hears 0 to 1. Aborting ends the worker. */
export function upscaleImage(source: Blob, factor: UpscaleFactor, onProgress: (progress: number) => void, signal: AbortSignal): Promise<UpscaledBlob> {
  const modelUrl = new URL(modelPath(factor), location.origin).href;
  return bridge.run((api) => api.upscaleToPng(source, { factor, modelUrl }, Comlink.proxy(onProgress)), signal);
}
