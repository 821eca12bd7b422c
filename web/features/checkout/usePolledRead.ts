import { useEffect, useEffectEvent, useState } from 'react';
import { isAbortError } from '../../lib/ApiError.ts';

export type PolledState<T> =
  | { status: 'loading' }
  | { status: 'ready'; data: T; polling: boolean }
  | { status: 'error'; error: unknown };

export interface PollOptions<T> {
  intervalMs: number;
  /** Reading stops this long after the first read, whatever the answer. */
  maxMs: number;
  /** Whether the answer may still change (read again after intervalMs). */
  again: (data: T) => boolean;
}

/**
 * Reads now, then again every `intervalMs` while `again(data)` holds, for at most `maxMs`. A
 * failed first read is the error state; a failed later read keeps the last answer and tries again.
 * Everything stops when `key` changes or the component leaves.
 */
export function usePolledRead<T>(key: string, load: (signal: AbortSignal) => Promise<T>, options: PollOptions<T>): PolledState<T> {
  const [state, setState] = useState<{ key: string; value: PolledState<T> }>({ key, value: { status: 'loading' } });
  const read = useEffectEvent(load);
  const again = useEffectEvent(options.again);
  const { intervalMs, maxMs } = options;

  useEffect(() => {
    const controller = new AbortController();
    const started = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last: { data: T } | null = null;

    const tick = async () => {
      let more: boolean;
      try {
        const data = await read(controller.signal);
        last = { data };
        more = again(data);
      } catch (error) {
        if (controller.signal.aborted || isAbortError(error)) return;
        if (!last) {
          setState({ key, value: { status: 'error', error } });
          return;
        }
        more = true;
      }
      if (controller.signal.aborted) return;
      more &&= Date.now() - started + intervalMs <= maxMs;
      setState({ key, value: { status: 'ready', data: last.data, polling: more } });
      if (more) timer = setTimeout(() => void tick(), intervalMs);
    };
    void tick();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [key, intervalMs, maxMs]);

  return state.key === key ? state.value : { status: 'loading' };
}
