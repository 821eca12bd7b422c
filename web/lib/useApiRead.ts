import { useEffect, useEffectEvent, useState } from 'react';
import { isAbortError } from './ApiError.ts';

export type ReadState<T> = { status: 'loading' } | { status: 'ready'; data: T } | { status: 'error'; error: unknown };

/**
 * One read, started in an effect and aborted when `key` changes or the component leaves.
 * The state is kept under the key it was asked for, so an answer for an earlier key never
 * shows. `key` must name everything `load` depends on (and a retry counter, to retry).
 */
export function useApiRead<T>(key: string, load: (signal: AbortSignal) => Promise<T>): ReadState<T> {
  const [state, setState] = useState<{ key: string; value: ReadState<T> }>({ key, value: { status: 'loading' } });
  const start = useEffectEvent(load);

  useEffect(() => {
    const controller = new AbortController();
    start(controller.signal).then(
      (data) => setState({ key, value: { status: 'ready', data } }),
      (error: unknown) => {
        if (!isAbortError(error)) setState({ key, value: { status: 'error', error } });
      },
    );
    return () => controller.abort();
  }, [key]);

  return state.key === key ? state.value : { status: 'loading' };
}
