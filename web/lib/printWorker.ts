/**
 * The print worker from the page: started on first use, ended after a few idle seconds, and
 * ended at once when a call is aborted (pixel work cannot be interrupted, only thrown away).
 */
import * as Comlink from 'comlink';
import type { PrintOptions, PrintResult, PrintWorkerApi } from '../../workers/print/api.ts';

const IDLE_MS = 8_000;

let worker: Worker | null = null;
let remote: Comlink.Remote<PrintWorkerApi> | null = null;
let idleTimer: ReturnType<typeof setTimeout> | null = null;
let busy = 0;

export function printWorkerSupported(): boolean {
  return typeof Worker !== 'undefined' && typeof OffscreenCanvas !== 'undefined' && typeof createImageBitmap !== 'undefined';
}

function terminate(): void {
  worker?.terminate();
  worker = null;
  remote = null;
}

function connect(): Comlink.Remote<PrintWorkerApi> {
  if (idleTimer) clearTimeout(idleTimer);
  if (!remote) {
    worker = new Worker(new URL('../../workers/print/print.worker.ts', import.meta.url), { type: 'module', name: 'print' });
    remote = Comlink.wrap<PrintWorkerApi>(worker);
  }
  return remote;
}

async function run<T>(signal: AbortSignal | undefined, call: (api: Comlink.Remote<PrintWorkerApi>) => Promise<T>): Promise<T> {
  signal?.throwIfAborted();
  const api = connect();
  busy++;
  let onAbort: (() => void) | null = null;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      terminate();
      reject(signal?.reason ?? new DOMException('Aborted', 'AbortError'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([call(api), aborted]);
  } finally {
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    busy--;
    if (busy === 0 && worker) idleTimer = setTimeout(terminate, IDLE_MS);
  }
}

export function preparePrint(input: Blob, options: PrintOptions, signal?: AbortSignal): Promise<PrintResult> {
  return run(signal, (api) => api.prepare(input, options));
}

export function cropImage(input: Blob, rect: NonNullable<PrintOptions['crop']>, type: 'image/png' | 'image/jpeg' = 'image/jpeg', signal?: AbortSignal): Promise<PrintResult> {
  return run(signal, (api) => api.crop(input, rect, type));
}
