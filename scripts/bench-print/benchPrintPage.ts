/**
 * The page `npm run bench:print` drives: the app's own print worker bridge (web/features/print-crop/printWorker.ts),
 * built by Vite like the app, timed from the main thread while a PerformanceObserver records
 * the main thread's long tasks (50 ms and more) and a timer probe measures its longest stall of
 * any length.
 */
import type { PrintOptions, StageTimings } from '../../workers/print/api.ts';
import { preparePrint } from '../../web/features/print-crop/printWorker.ts';

export interface BenchRun {
  totalMs: number;
  timings: StageTimings;
  /** The longest long task (0 when there was none of 50 ms or more). */
  longestTaskMs: number;
  longTasks: number;
  /**
   * The longest the main thread kept a 2 ms timer waiting past its time while the worker ran: at
   * least as long as the longest task that ran in that time, whatever its length.
   */
  longestStallMs: number;
  width: number;
  height: number;
  bytes: number;
}

declare global {
  interface Window {
    benchPrint(inputUrl: string, options: PrintOptions, resultUrl: string | null): Promise<BenchRun>;
  }
}

window.benchPrint = async (inputUrl, options, resultUrl) => {
  const input = await (await fetch(inputUrl)).blob();
  const tasks: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) tasks.push(entry.duration);
  });
  observer.observe({ type: 'longtask' });
  // The probe: a 2 ms timer set again each time it fires; how late each firing is.
  let longestStallMs = 0;
  let probing = true;
  const probe = (due: number) =>
    setTimeout(() => {
      const now = performance.now();
      longestStallMs = Math.max(longestStallMs, now - due);
      if (probing) probe(now + 2);
    }, 2);
  probe(performance.now() + 2);
  const start = performance.now();
  const result = await preparePrint(input, options);
  const totalMs = performance.now() - start;
  probing = false;
  // Long-task entries arrive after the task ends; give the observer a frame or two.
  await new Promise((resolve) => setTimeout(resolve, 200));
  tasks.push(...observer.takeRecords().map((e) => e.duration));
  observer.disconnect();
  if (resultUrl) await fetch(resultUrl, { method: 'POST', body: result.blob });
  return {
    totalMs,
    timings: result.timings ?? {},
    longestTaskMs: Math.max(0, ...tasks),
    longTasks: tasks.length,
    longestStallMs,
    width: result.width,
    height: result.height,
    bytes: result.blob.size,
  };
};

document.getElementById('state')!.textContent = 'ready';
