/**
 * The order of the capture chain and the rule that walks it: each step runs only when the one
 * before it failed; a forced step starts the walk there. Pure, so it is tested with fake steps.
 */
import { CAPTURE_FAILED } from '../../../shared/schemas/capture.ts';
import type { CapturedFrame, CaptureSource } from './types.ts';

export const CHAIN_ORDER = ['canvas', 'wasm', 'server', 'thumbnail'] as const satisfies readonly CaptureSource[];

export type CaptureStep = () => Promise<Omit<CapturedFrame, 'source'>>;

export interface StepFailure {
  source: CaptureSource;
  error: unknown;
}

/** The steps to try, in order, for a request that may force where the chain starts. */
export function chainFrom(force?: Exclude<CaptureSource, 'thumbnail'>): CaptureSource[] {
  return CHAIN_ORDER.slice(force ? CHAIN_ORDER.indexOf(force) : 0);
}

/**
 * Runs the steps in order and returns the first frame one produces, marked with the step that
 * made it. A cancelled request stops the walk with the signal's reason; when every step fails,
 * the error carries the spec's message, and the failures of each step as its cause.
 */
export async function runChain(
  steps: Record<CaptureSource, CaptureStep>,
  force?: Exclude<CaptureSource, 'thumbnail'>,
  signal?: AbortSignal,
  onFailure?: (failure: StepFailure) => void,
): Promise<CapturedFrame> {
  const failures: StepFailure[] = [];
  for (const source of chainFrom(force)) {
    signal?.throwIfAborted();
    try {
      return { ...(await steps[source]()), source };
    } catch (error) {
      signal?.throwIfAborted();
      const failure = { source, error };
      failures.push(failure);
      onFailure?.(failure);
    }
  }
  throw new Error(CAPTURE_FAILED, { cause: failures });
}
