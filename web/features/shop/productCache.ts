/**
 * Product pages seen before, kept in IndexedDB so a return visit (or one without a network)
 * shows the last copy at once while a fresh one is fetched. Failures to read or write are
 * swallowed: the cache only ever saves a wait.
 */
import { createStore, get, set } from 'idb-keyval';
import type { ProductData } from './productFetch.ts';

const VERSION = 1;

interface Stored {
  version: typeof VERSION;
  savedAt: number;
  data: ProductData;
}

let store: ReturnType<typeof createStore> | null = null;
const db = () => (store ??= createStore('framemerch-products', 'pages'));

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** A stored copy this version can draw from, else null (older shapes and damaged entries are ignored). */
export function parseCached(raw: unknown): ProductData | null {
  if (!isObject(raw) || raw.version !== VERSION || !isObject(raw.data)) return null;
  const data = raw.data;
  if (data.success !== true || !Array.isArray(data.products)) return null;
  if (data.product !== null) {
    if (!isObject(data.product) || typeof data.product.id !== 'string' || !Array.isArray(data.product.screenshots)) return null;
    if (!Array.isArray(data.product.screenshot_sizes)) return null;
  }
  return data as unknown as ProductData;
}

export async function readCachedProduct(key: string): Promise<ProductData | null> {
  try {
    return parseCached(await get(key, db()));
  } catch {
    return null;
  }
}

export async function cacheProduct(key: string, data: ProductData): Promise<void> {
  const entry: Stored = { version: VERSION, savedAt: Date.now(), data };
  try {
    await set(key, entry, db());
  } catch {
    // Storage full or unavailable: the page simply fetches next time.
  }
}
