/**
 * The print worker from the page: started on first use, ended after a few idle seconds, and
 * ended at once when a call is aborted (pixel work cannot be interrupted, only thrown away).
 */
import type { PrintOptions, PrintResult, PrintWorkerApi } from '../../../workers/print/api.ts';
import { createWorkerBridge } from '../../lib/workerBridge.ts';

const bridge = createWorkerBridge<PrintWorkerApi>({
  start: () => new Worker(new URL('../../../workers/print/print.worker.ts', import.meta.url), { type: 'module', name: 'print' }),
  idleMs: 8_000,
});

export function printWorkerSupported(): boolean {
  return typeof Worker !== 'undefined' && typeof OffscreenCanvas !== 'undefined' && typeof createImageBitmap !== 'undefined';
}

export function preparePrint(input: Blob, options: PrintOptions, signal?: AbortSignal): Promise<PrintResult> {
  return bridge.run((api) => api.prepare(input, options), signal);
}

export function cropImage(input: Blob, rect: NonNullable<PrintOptions['crop']>, type: 'image/png' | 'image/jpeg' = 'image/jpeg', signal?: AbortSignal): Promise<PrintResult> {
  return bridge.run((api) => api.crop(input, rect, type), signal);
}
