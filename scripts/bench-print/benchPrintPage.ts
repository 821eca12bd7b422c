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

/** What the main thread went through while nothing but the probe ran on the page. */
export type IdleRun = Pick<BenchRun, 'longestTaskMs' | 'longTasks' | 'longestStallMs'>;

declare global {
  interface Window {
    benchPrint(inputUrl: string, options: PrintOptions, resultUrl: string | null): Promise<BenchRun>;
    /** The same watch on the main thread for `ms` with no print running: what the machine alone does to it. */
    benchIdle(ms: number): Promise<IdleRun>;
  }
}

/**
 * Watches the main thread while `work` runs: the long tasks a PerformanceObserver reports, and a
 * probe, a 2 ms timer set again each time it fires, for how late each firing is.
 */
async function watchMainThread<T>(work: () => Promise<T>): Promise<{ result: T; watch: IdleRun }> {
  const tasks: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) tasks.push(entry.duration);
  });
  observer.observe({ type: 'longtask' });
  let longestStallMs = 0;
  let probing = true;
  const probe = (due: number) =>
    setTimeout(() => {
      const now = performance.now();
      longestStallMs = Math.max(longestStallMs, now - due);
      if (probing) probe(now + 2);
    }, 2);
  probe(performance.now() + 2);
  const result = await work();
  probing = false;
  // Long-task entries arrive after the task ends; give the observer a frame or two.
  await new Promise((resolve) => setTimeout(resolve, 200));
  tasks.push(...observer.takeRecords().map((e) => e.duration));
  observer.disconnect();
  return { result, watch: { longestTaskMs: Math.max(0, ...tasks), longTasks: tasks.length, longestStallMs } };
}

window.benchPrint = async (inputUrl, options, resultUrl) => {
  const input = await (await fetch(inputUrl)).blob();
  let totalMs = 0;
  const { result, watch } = await watchMainThread(async () => {
    const start = performance.now();
    const printed = await preparePrint(input, options);
    totalMs = performance.now() - start;
    return printed;
  });
  if (resultUrl) await fetch(resultUrl, { method: 'POST', body: result.blob });
  return {
    totalMs,
    timings: result.timings ?? {},
    ...watch,
    width: result.width,
    height: result.height,
    bytes: result.blob.size,
  };
};

window.benchIdle = async (ms) => (await watchMainThread(() => new Promise((resolve) => setTimeout(resolve, ms)))).watch;

document.getElementById('state')!.textContent = 'ready';
