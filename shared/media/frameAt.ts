/**
 * Which decoded frame is on screen at a media time, from the stream's own presentation times
 * (never from a frame rate: a variable-rate clip has frames of many lengths). Used by the
 * decoders that pick a frame themselves: ffmpeg.wasm in the browser and ffmpeg on the server.
 */

/**
 * Slack for times that went through decimal text or float arithmetic on their way here: a frame
 * whose presentation time is this close above the requested time still counts as started.
 */
export const FRAME_TIME_EPSILON = 1e-6;

/** The widest margin either side of a frame's time that the decoder's filter matches it by. */
const MATCH_MARGIN = 0.0005;

export interface ChosenFrame {
  /** Index in the sorted list of presentation times. */
  index: number;
  /** Presentation time of the frame, in seconds. */
  pts: number;
  /** Presentation time of the next frame, or null for the last one. */
  next: number | null;
  /**
   * The time range [from, to) that holds this frame's time and no other frame's: what a decoder's
   * select filter keeps (to is null for the last frame).
   */
  from: number;
  to: number | null;
}

/** The times in ascending order, without repeats and non-numbers. */
export function sortedTimes(times: Iterable<number>): number[] {
  const sorted = [...times].filter((t) => Number.isFinite(t)).sort((a, b) => a - b);
  return sorted.filter((t, i) => i === 0 || t !== sorted[i - 1]);
}

/**
 * The frame on screen at `target` seconds: the last one whose presentation time is at or before
 * it. Before the first frame, the first frame shows (as a player shows it); after the last, the
 * last. Frames with the same time count as one, the last of them. `times` must be sorted
 * ascending (see sortedTimes). Null when there are no frames.
 */
export function frameAt(times: readonly number[], target: number): ChosenFrame | null {
  if (times.length === 0) return null;
  // Binary search for the first time after target (with the rounding slack).
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (times[mid]! <= target + FRAME_TIME_EPSILON) lo = mid + 1;
    else hi = mid;
  }
  const index = Math.max(0, lo - 1);
  const pts = times[index]!;
  let next: number | null = null;
  for (let i = index + 1; i < times.length; i++) {
    if (times[i]! > pts) {
      next = times[i]!;
      break;
    }
  }
  let previous: number | null = null;
  for (let i = index - 1; i >= 0; i--) {
    if (times[i]! < pts) {
      previous = times[i]!;
      break;
    }
  }
  const margin = Math.min(MATCH_MARGIN, next === null ? Infinity : (next - pts) / 2, previous === null ? Infinity : (pts - previous) / 2);
  return { index, pts, next, from: pts - margin, to: next === null ? null : pts + margin };
}
