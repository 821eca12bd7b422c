/**
 * The page `npm run bench:upscale` drives: the app's upscale worker (workers/upscale), built by
 * Vite like the app, with the model files served beside the page as the app serves them. One
 * worker per backend, so each keeps its model loaded between images as the app's does.
 */
import * as Comlink from 'comlink';
import type { UpscaleBackend, UpscaleFactor, UpscaleStats, UpscaleWorkerApi } from '../../workers/upscale/api.ts';
import { modelPath } from '../../workers/upscale/tiles.ts';

export interface BenchUpscaleRun {
  /** From the page's call to the PNG back on the page, ms. */
  totalMs: number;
  stats: UpscaleStats;
  width: number;
  height: number;
  /** Progress reports heard. */
  progressCalls: number;
}

declare global {
  interface Window {
    benchUpscale(inputUrl: string, factor: UpscaleFactor, backend: UpscaleBackend, resultUrl: string): Promise<BenchUpscaleRun>;
  }
}

const workers = new Map<UpscaleBackend, Comlink.Remote<UpscaleWorkerApi>>();

function worker(backend: UpscaleBackend): Comlink.Remote<UpscaleWorkerApi> {
  let api = workers.get(backend);
  if (!api) {
    api = Comlink.wrap<UpscaleWorkerApi>(new Worker(new URL('../../workers/upscale/upscale.worker.ts', import.meta.url), { type: 'module', name: `upscale-${backend}` }));
    workers.set(backend, api);
  }
  return api;
}

window.benchUpscale = async (inputUrl, factor, backend, resultUrl) => {
  const input = await (await fetch(inputUrl)).blob();
  let progressCalls = 0;
  const start = performance.now();
  const result = await worker(backend).upscaleToPng(
    input,
    { factor, modelUrl: new URL(modelPath(factor), location.origin).href, backends: [backend] },
    Comlink.proxy(() => {
      progressCalls++;
    }),
  );
  const totalMs = performance.now() - start;
  await fetch(resultUrl, { method: 'POST', body: result.blob });
  return { totalMs, stats: result.stats, width: result.width, height: result.height, progressCalls };
};

document.getElementById('state')!.textContent = 'ready';
