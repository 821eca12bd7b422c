/**
 * The event loop's delay, for the soak test (scripts/soak.ts): with EVENT_LOOP_REPORT_MS set, the
 * process measures how late its event loop runs (perf_hooks.monitorEventLoopDelay) and every that
 * many milliseconds writes one line to its standard output and starts the count again:
 *
 *   event-loop-delay {"pid":123,"count":98,"min_ms":0,"mean_ms":0.4,"p50_ms":0.2,"p99_ms":3.1,"max_ms":5.6,"percentiles":[[0,0],[50,0.2],...],"memory":{...}}
 *
 * Delays are in milliseconds beyond the sampling interval (0 for a loop that was idle), over the
 * interval since the last line; `percentiles` are the histogram's own [percentile, ms] steps, so
 * several lines (of several intervals or processes) can be merged into one distribution. `memory`
 * is process.memoryUsage() at that moment in MB (the JS heap apart from the process's RSS, so a
 * growing RSS can be told from a growing heap). Unset, nothing is measured and nothing is
 * written. It is never served over HTTP.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

export const EVENT_LOOP_LINE = 'event-loop-delay';
/** How often the loop is sampled (the histogram's resolution). */
export const SAMPLE_MS = 10;

export interface EventLoopReport {
  pid: number;
  count: number;
  min_ms: number;
  mean_ms: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  percentiles: Array<[number, number]>;
  memory: { rss_mb: number; heap_used_mb: number; heap_total_mb: number; external_mb: number; array_buffers_mb: number };
}

/** A histogram value (nanoseconds between two samples) as the delay beyond the interval, in ms. */
const lateMs = (ns: number) => Math.round(Math.max(0, ns / 1e6 - SAMPLE_MS) * 1000) / 1000;
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/**
 * Starts the reports when `env.EVENT_LOOP_REPORT_MS` is a whole number of milliseconds from 100
 * to 3 600 000; answers the function that stops them (nothing to stop when unset). The timer does
 * not keep the process alive.
 */
export function reportEventLoopDelay(
  env: Record<string, string | undefined> = process.env,
  write: (line: string) => void = (line) => void process.stdout.write(`${line}\n`),
): () => void {
  const raw = env.EVENT_LOOP_REPORT_MS;
  if (raw === undefined || raw === '') return () => {};
  const everyMs = Number(raw);
  if (!Number.isInteger(everyMs) || everyMs < 100 || everyMs > 3_600_000) {
    write(`EVENT_LOOP_REPORT_MS must be a whole number of milliseconds from 100 to 3600000 (got "${raw}"); not reporting.`);
    return () => {};
  }
  const histogram = monitorEventLoopDelay({ resolution: SAMPLE_MS });
  histogram.enable();
  const timer = setInterval(() => {
    if (histogram.count === 0) return;
    const memory = process.memoryUsage();
    const report: EventLoopReport = {
      pid: process.pid,
      count: histogram.count,
      min_ms: lateMs(histogram.min),
      mean_ms: lateMs(histogram.mean),
      p50_ms: lateMs(histogram.percentile(50)),
      p99_ms: lateMs(histogram.percentile(99)),
      max_ms: lateMs(histogram.max),
      percentiles: [...histogram.percentiles].map(([p, ns]) => [p, lateMs(ns)]),
      memory: {
        rss_mb: mb(memory.rss),
        heap_used_mb: mb(memory.heapUsed),
        heap_total_mb: mb(memory.heapTotal),
        external_mb: mb(memory.external),
        array_buffers_mb: mb(memory.arrayBuffers),
      },
    };
    histogram.reset();
    write(`${EVENT_LOOP_LINE} ${JSON.stringify(report)}`);
  }, everyMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    histogram.disable();
  };
}
