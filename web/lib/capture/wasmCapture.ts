/**
 * The ffmpeg.wasm step of the capture chain, from the page. This module is loaded only when the
 * step runs, so pages that never need it download none of it. The worker starts on first use,
 * loads this app's own copy of the core (about 10 MB gzipped; never a CDN), keeps the current
 * video's bytes, and stays warm for later captures; it ends after a minute idle, and at once when
 * a capture is aborted (a running ffmpeg cannot be interrupted).
 */
import * as Comlink from 'comlink';
import coreURL from '@ffmpeg/core?url';
import wasmURL from '@ffmpeg/core/wasm?url';
import { CANVAS_JPEG_QUALITY } from '../../../shared/constants.ts';
import type { CaptureWorkerApi } from '../../../workers/capture/api.ts';
import { timeInsideFrame } from './frameTime.ts';
import type { PresentedFrame } from './presentedFrame.ts';
import type { CapturedFrame } from './types.ts';

const IDLE_MS = 60_000;
/** ffmpeg.wasm holds the whole file in memory; larger videos go to the server instead. */
export const WASM_MAX_VIDEO_BYTES = 300 * 1024 * 1024;

let worker: Worker | null = null;
let remote: Comlink.Remote<CaptureWorkerApi> | null = null;
let loading: Promise<void> | null = null;
let idleTimer: ReturnType<typeof setTimeout> | null = null;
let queue: Promise<unknown> = Promise.resolve();

function terminate(): void {
  worker?.terminate();
  worker = null;
  remote = null;
  loading = null;
}

function connect(): { api: Comlink.Remote<CaptureWorkerApi>; ready: Promise<void>; cold: boolean } {
  const cold = !remote || !loading;
  if (cold) {
    worker = new Worker(new URL('../../../workers/capture/capture.worker.ts', import.meta.url), { type: 'module', name: 'capture' });
    remote = Comlink.wrap<CaptureWorkerApi>(worker);
    loading = remote.load(new URL(coreURL, location.href).href, new URL(wasmURL, location.href).href);
    loading.catch(terminate);
  }
  return { api: remote!, ready: loading!, cold };
}

async function videoBytes(url: string, signal?: AbortSignal): Promise<ArrayBuffer> {
  const res = await fetch(url, { credentials: 'same-origin', ...(signal ? { signal } : {}) });
  if (!res.ok) throw new Error(`The video answered ${res.status}`);
  if (Number(res.headers.get('content-length') ?? 0) > WASM_MAX_VIDEO_BYTES) {
    await res.body?.cancel();
    throw new Error('The video is too large to decode in the browser');
  }
  return res.arrayBuffer();
}

async function capture(videoUrl: string, frame: PresentedFrame, signal?: AbortSignal): Promise<Omit<CapturedFrame, 'source'>> {
  signal?.throwIfAborted();
  if (idleTimer) clearTimeout(idleTimer);
  const key = new URL(videoUrl, location.href).href;
  const { api, ready, cold } = connect();
  let onAbort: (() => void) | null = null;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      terminate();
      reject(signal?.reason ?? new DOMException('Aborted', 'AbortError'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const work = (async () => {
      // On a cold start the core and the video download side by side.
      const download = cold ? videoBytes(key, signal) : null;
      download?.catch(() => undefined);
      await ready;
      if (!(await api.has(key))) {
        const bytes = await (download ?? videoBytes(key, signal));
        await api.put(key, Comlink.transfer(bytes, [bytes]));
      }
      return api.extract(key, timeInsideFrame(frame.time, frame.exact), CANVAS_JPEG_QUALITY);
    })();
    const out = await Promise.race([work, aborted]);
    return { blob: out.blob, width: out.width, height: out.height, timestamp: frame.exact ? frame.time : out.timestamp };
  } catch (error) {
    // A worker that failed mid-call may hold a half-written state: start afresh next time.
    if (!signal?.aborted) terminate();
    throw error;
  } finally {
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    if (worker) idleTimer = setTimeout(terminate, IDLE_MS);
  }
}

/** Captures one frame at a time: the worker runs one ffmpeg at a time anyway. */
export function captureWithWasm(videoUrl: string, frame: PresentedFrame, signal?: AbortSignal): Promise<Omit<CapturedFrame, 'source'>> {
  const run = queue.then(() => capture(videoUrl, frame, signal));
  queue = run.catch(() => undefined);
  return run;
}
