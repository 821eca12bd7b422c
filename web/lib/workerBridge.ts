/**
 * A web worker driven through comlink, the same way for every worker the page starts: started on
 * first use, ended after `idleMs` without calls, and ended at once when a call's signal aborts
 * (work inside a worker cannot be interrupted, only thrown away). A worker that fails (its `error`
 * event) is ended and fails the calls under way, which would otherwise wait for ever.
 */
import * as Comlink from 'comlink';

export interface WorkerBridgeOptions<Api> {
  /**
   * Starts the worker. The caller writes `new Worker(new URL('…', import.meta.url), …)` itself,
   * so the bundler sees the worker's entry.
   */
  start: () => Worker;
  idleMs: number;
  /** Runs once after each start (e.g. loading a wasm core); a failure ends the worker. */
  init?: (api: Comlink.Remote<Api>) => Promise<void>;
  /** End the worker when a call fails, so the next call starts afresh (not for aborts). */
  restartAfterError?: boolean;
  /** Told when the worker fails (its `error` event). */
  onWorkerError?: () => void;
}

/** What a call gets besides the api: `ready` settles once `init` is done; `cold` says this call started the worker. */
export interface CallContext {
  ready: Promise<void>;
  cold: boolean;
}

export interface WorkerBridge<Api> {
  run<T>(call: (api: Comlink.Remote<Api>, context: CallContext) => Promise<T>, signal?: AbortSignal): Promise<T>;
  terminate(): void;
}

export function createWorkerBridge<Api>(options: WorkerBridgeOptions<Api>): WorkerBridge<Api> {
  let worker: Worker | null = null;
  let remote: Comlink.Remote<Api> | null = null;
  let ready: Promise<void> | null = null;
  let idleTimer: ReturnType<typeof setTimeout> | null = null;
  let busy = 0;

  function terminate(): void {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = null;
    worker?.terminate();
    worker = null;
    remote = null;
    ready = null;
  }

  function connect(): { api: Comlink.Remote<Api>; ready: Promise<void>; cold: boolean; worker: Worker } {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = null;
    const cold = !worker || !remote || !ready;
    if (cold) {
      const started = options.start();
      worker = started;
      started.addEventListener('error', () => {
        options.onWorkerError?.();
        if (worker === started) terminate();
      });
      remote = Comlink.wrap<Api>(started);
      ready = options.init ? options.init(remote) : Promise.resolve();
      ready.catch(() => {
        if (worker === started) terminate();
      });
    }
    return { api: remote!, ready: ready!, cold, worker: worker! };
  }

  async function run<T>(call: (api: Comlink.Remote<Api>, context: CallContext) => Promise<T>, signal?: AbortSignal): Promise<T> {
    signal?.throwIfAborted();
    const current = connect();
    busy++;
    let onAbort: (() => void) | null = null;
    let onError: (() => void) | null = null;
    const stopped = new Promise<never>((_, reject) => {
      onAbort = () => {
        terminate();
        reject(signal?.reason ?? new DOMException('Aborted', 'AbortError'));
      };
      onError = () => reject(new Error('The worker failed'));
      signal?.addEventListener('abort', onAbort, { once: true });
      current.worker.addEventListener('error', onError, { once: true });
    });
    try {
      return await Promise.race([call(current.api, { ready: current.ready, cold: current.cold }), stopped]);
    } catch (error) {
      // A worker that failed mid-call may hold a half-written state.
      if (options.restartAfterError && !signal?.aborted && worker === current.worker) terminate();
      throw error;
    } finally {
      if (onAbort) signal?.removeEventListener('abort', onAbort);
      if (onError) current.worker.removeEventListener('error', onError);
      busy--;
      if (busy === 0 && worker) idleTimer = setTimeout(terminate, options.idleMs);
    }
  }

  return { run, terminate };
}
