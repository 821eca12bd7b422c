import { lazy, type ComponentType } from 'react';

/**
 * A route page loaded on first visit. Pages are named exports (files are named after them);
 * React.lazy wants a default export, so this picks the named one.
 */
export function lazyPage<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return lazy(async () => ({ default: (await load())[name] }));
}
