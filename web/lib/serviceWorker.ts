/**
 * Registers the service worker (web/sw/sw.ts, built as /sw.js) after the page has loaded, so it
 * never competes with the first render, and asks it to finish caching the large files.
 */
export function registerServiceWorker(): void {
  window.addEventListener(
    'load',
    () => {
      navigator.serviceWorker
        .register('/sw.js', { scope: '/' })
        .then(() => navigator.serviceWorker.ready)
        .then((registration) => registration.active?.postMessage({ type: 'precache' }))
        .catch((err: unknown) => console.warn('Offline use is not available:', err));
    },
    { once: true },
  );
}
