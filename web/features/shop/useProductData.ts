import { useEffect, useEffectEvent, useState } from 'react';
import { isAbortError } from '../../lib/ApiError.ts';
import { cacheProduct, readCachedProduct } from './productCache.ts';
import { cacheKeyOf, fetchProductData, isProductId, pageKeyOf, productFailure, type ProductData, type ProductRequest } from './productFetch.ts';

export type ProductState =
  | { status: 'loading' }
  | { status: 'not-found' }
  | { status: 'error'; message: string }
  /**
   * `stale`: the copy saved on this device, while (or because) a fresh one could not be had;
   * `refreshError` says why. `switching`: another category of the same page is on its way, and
   * this is the one shown before it (so the page, and the focus on its category links, stay).
   */
  | { status: 'ready'; data: ProductData; stale: boolean; refreshError: string | null; switching?: boolean };

/**
 * The product page's data: the cached copy at once when there is one, then the server's. A
 * product the server no longer has is 'not-found' even when a copy was cached; other failures
 * keep showing the cached copy. `attempt` is bumped by Retry.
 */
export function useProductData(req: ProductRequest, attempt: number): ProductState {
  const cacheKey = cacheKeyOf(req);
  const key = `${cacheKey}#${attempt}`;
  const page = pageKeyOf(req);
  const invalid = req.kind === 'product' && !isProductId(req.productId);
  const [state, setState] = useState<{ key: string; page: string; value: ProductState }>({ key, page, value: { status: 'loading' } });
  const load = useEffectEvent((signal: AbortSignal) => fetchProductData(req, signal));

  useEffect(() => {
    if (invalid) return;
    const controller = new AbortController();
    let answered = false;
    const show = (value: ProductState) => {
      if (!controller.signal.aborted) setState({ key, page, value });
    };

    void readCachedProduct(cacheKey).then((cached) => {
      if (cached && !answered) show({ status: 'ready', data: cached, stale: true, refreshError: null });
    });

    load(controller.signal).then(
      (data) => {
        answered = true;
        show({ status: 'ready', data, stale: false, refreshError: null });
        void cacheProduct(cacheKey, data);
      },
      async (error: unknown) => {
        answered = true;
        if (isAbortError(error) && controller.signal.aborted) return;
        const failure = productFailure(error);
        if (failure.kind === 'not-found') return show({ status: 'not-found' });
        const cached = await readCachedProduct(cacheKey);
        show(cached ? { status: 'ready', data: cached, stale: true, refreshError: failure.message } : { status: 'error', message: failure.message });
      },
    );
    return () => controller.abort();
  }, [key, page, cacheKey, invalid]);

  if (invalid) return { status: 'not-found' };
  if (state.key === key) return state.value;
  if (state.page === page && state.value.status === 'ready') return { ...state.value, switching: true };
  return { status: 'loading' };
}
