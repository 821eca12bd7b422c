/**
 * The ffmpeg.wasm step of the capture chain, from the page. This module is loaded only when the
 * step runs, so pages that never need it download none of it. The worker starts on first use,
 * starts ffmpeg.wasm's own worker from it with this app's own copies of that worker and of the
 * core (about 10 MB gzipped; never a CDN), keeps the current
 * video's bytes, and stays warm for later captures; it ends after a minute idle, and at once when
 * a capture is aborted (a running ffmpeg cannot be interrupted).
 */
import * as Comlink from 'comlink';
import coreURL from '@ffmpeg/core?url';
import wasmURL from '@ffmpeg/core/wasm?url';
import classWorkerURL from '@ffmpeg/ffmpeg/worker?worker&url';
import { CANVAS_JPEG_QUALITY } from '../../../shared/constants.ts';
import type { CaptureWorkerApi } from '../../../workers/capture/api.ts';
import { timeInsideFrame } from './frameTime.ts';
import type { PresentedFrame } from './presentedFrame.ts';
import type { CapturedFrame } from './types.ts';
import { createWorkerBridge } from '../../lib/workerBridge.ts';

/** ffmpeg.wasm holds the whole file in memory; larger videos go to the server instead. */
export const WASM_MAX_VIDEO_BYTES = 300 * 1024 * 1024;

const bridge = createWorkerBridge<CaptureWorkerApi>({
  start: () => new Worker(new URL('../../../workers/capture/capture.worker.ts', import.meta.url), { type: 'module', name: 'capture' }),
  idleMs: 60_000,
  init: (api) => api.load(...[coreURL, wasmURL, classWorkerURL].map((url) => new URL(url, location.href).href) as [string, string, string]),
  restartAfterError: true,
});
let queue: Promise<unknown> = Promise.resolve();

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
  const key = new URL(videoUrl, location.href).href;
  const out = await bridge.run(async (api, { ready, cold }) => {
    // On a cold start the core and the video download side by side.
    const download = cold ? videoBytes(key, signal) : null;
    download?.catch(() => undefined);
    await ready;
    if (!(await api.has(key))) {
      const bytes = await (download ?? videoBytes(key, signal));
      await api.put(key, Comlink.transfer(bytes, [bytes]));
    }
    return api.extract(key, timeInsideFrame(frame.time, frame.exact), CANVAS_JPEG_QUALITY);
  }, signal);
  return { blob: out.blob, preview: out.preview, width: out.width, height: out.height, timestamp: frame.exact ? frame.time : out.timestamp };
}

/** Captures one frame at a time: the worker runs one ffmpeg at a time anyway. */
export function captureWithWasm(videoUrl: string, frame: PresentedFrame, signal?: AbortSignal): Promise<Omit<CapturedFrame, 'source'>> {
  const run = queue.then(() => capture(videoUrl, frame, signal));
  queue = run.catch(() => undefined);
  return run;
}
