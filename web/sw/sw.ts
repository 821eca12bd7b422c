/**
 * The FrameMerch service worker (served as /sw.js, scope /): keeps the app usable offline.
 *
 * - Install caches the app shell: index.html and every file of the build but the large ones.
 * - The large files (the ffmpeg core) follow in a second phase once this version is active, so a
 *   first visit is not held up; the app counts as offline-ready only when both phases are done.
 * - Page loads go to the network first and fall back to the cached index.html, so every client
 *   route (/test-crop-tool, /video/...) opens offline.
 * - Hashed build files are answered from the cache first (their names change with their content).
 * - The server's own pages and endpoints (/api/, /media/, the identity provider's /oidc pages,
 *   the payment page /pay/, tracking /track/) are never touched: the browser sends them itself,
 *   once, Range requests included. A sign-in return (/api/auth/google/callback) carries a code
 *   that works only once, so a second request for it fails the sign-in.
 * - No navigation preload: the browser would preload every page load, those above included,
 *   and then send those above a second time itself.
 * - A new build installs beside the running one and takes over at the next page load (never
 *   reloading a page under the viewer); it then deletes the caches of older builds.
 *
 * Built by scripts/vite-plugin-service-worker.ts, which puts the build's file list in PRECACHE.
 */

interface Precache {
  /** Changes with any file of the build. */
  version: string;
  /** Cached at install. */
  shell: string[];
  /** Cached after activation. */
  deferred: string[];
}

declare const PRECACHE: Precache;

// The few service-worker types this file uses (the web project compiles against the DOM library).
interface SwExtendableEvent extends Event {
  waitUntil(work: Promise<unknown>): void;
}
interface SwFetchEvent extends SwExtendableEvent {
  readonly request: Request;
  respondWith(response: Response | Promise<Response>): void;
}
interface SwMessageEvent extends SwExtendableEvent {
  readonly data: unknown;
  readonly ports: readonly MessagePort[];
}
interface SwScope {
  readonly location: Location;
  readonly registration: ServiceWorkerRegistration;
  readonly clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: SwExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: SwFetchEvent) => void): void;
  addEventListener(type: 'message', listener: (event: SwMessageEvent) => void): void;
}

export interface OfflineStatus {
  version: string;
  shell: { cached: number; total: number };
  deferred: { cached: number; total: number };
  /** Every file of this build is cached: the whole app works offline. */
  ready: boolean;
}

const sw = self as unknown as SwScope;
const CACHE_PREFIX = 'framemerch-';
const CACHE = `${CACHE_PREFIX}${PRECACHE.version}`;
const NETWORK_ONLY = ['/api/', '/media/', '/oidc/', '/oidc-login/', '/pay/', '/track/'];
const HASHED = '/assets/';
const APP_PAGE = '/index.html';
const PARALLEL = 4;
const precached = new Set([...PRECACHE.shell, ...PRECACHE.deferred]);

async function copyFromOlderCache(cache: Cache, path: string): Promise<boolean> {
  for (const name of await caches.keys()) {
    if (name === CACHE || !name.startsWith(CACHE_PREFIX)) continue;
    const old = await (await caches.open(name)).match(path);
    if (old) {
      await cache.put(path, old);
      return true;
    }
  }
  return false;
}

/**
 * Puts every path in this build's cache. Hashed files another build already cached are copied
 * (same name, same bytes); the rest are fetched, bypassing the HTTP cache for unhashed ones.
 */
async function fill(paths: string[], network: boolean): Promise<void> {
  const cache = await caches.open(CACHE);
  const queue = [...paths];
  const next = async (): Promise<void> => {
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
      if (await cache.match(path)) continue;
      const hashed = path.startsWith(HASHED);
      if (hashed && (await copyFromOlderCache(cache, path))) continue;
      if (!network) continue;
      const response = await fetch(path, { cache: hashed ? 'default' : 'no-cache' });
      if (!response.ok) throw new Error(`${path} answered ${response.status}`);
      await cache.put(path, response);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, next));
}

let deferredRun: Promise<void> | null = null;

/** The second phase; one run at a time, and a failed run is tried again on the next call. */
function completeDeferred(): Promise<void> {
  deferredRun ??= fill(PRECACHE.deferred, true).catch((err: unknown) => {
    deferredRun = null;
    console.warn('Offline copy of the large files is not complete yet:', err);
  });
  return deferredRun;
}

async function status(): Promise<OfflineStatus> {
  const cache = await caches.open(CACHE);
  const count = async (paths: string[]) => (await Promise.all(paths.map((p) => cache.match(p)))).filter(Boolean).length;
  const shell = { cached: await count(PRECACHE.shell), total: PRECACHE.shell.length };
  const deferred = { cached: await count(PRECACHE.deferred), total: PRECACHE.deferred.length };
  return { version: PRECACHE.version, shell, deferred, ready: shell.cached === shell.total && deferred.cached === deferred.total };
}

sw.addEventListener('install', (event) => {
  event.waitUntil(fill(PRECACHE.shell, true));
});

sw.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      await fill(PRECACHE.deferred, false);
      for (const name of await caches.keys()) {
        if (name !== CACHE && name.startsWith(CACHE_PREFIX)) await caches.delete(name);
      }
      // Earlier builds turned navigation preload on, and the setting outlives them.
      await sw.registration.navigationPreload?.disable();
      // Only takes pages no worker controls yet (a first visit); it reloads nothing.
      await sw.clients.claim();
    })(),
  );
  void completeDeferred();
});

sw.addEventListener('message', (event) => {
  const type = (event.data as { type?: unknown } | null)?.type;
  if (type === 'skip-waiting') {
    event.waitUntil(sw.skipWaiting());
    return;
  }
  if (type === 'precache' || type === 'status') {
    event.waitUntil(completeDeferred());
    const port = event.ports[0];
    if (type === 'status' && port) event.waitUntil(status().then((s) => port.postMessage(s)));
  }
});

async function fromNetworkFirst(event: SwFetchEvent, fallback: string): Promise<Response> {
  try {
    return await fetch(event.request);
  } catch (err) {
    const cached = await (await caches.open(CACHE)).match(fallback);
    if (cached) return cached;
    throw err;
  }
}

async function fromCacheFirst(event: SwFetchEvent, path: string): Promise<Response> {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(path);
  if (cached) return cached;
  const response = await fetch(event.request);
  // The page gets its answer at once; keeping a copy may fail (a full disk, a quota) without
  // ever failing the request.
  if (response.ok && path.startsWith(HASHED)) event.waitUntil(cache.put(path, response.clone()).catch(() => undefined));
  return response;
}

sw.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || request.headers.has('range')) return;
  const url = new URL(request.url);
  if (url.origin !== sw.location.origin || NETWORK_ONLY.some((p) => url.pathname.startsWith(p))) return;
  if (request.mode === 'navigate') {
    // A page load is the moment a waiting new build may take over: nothing of the old one is
    // left running in this page.
    sw.registration.waiting?.postMessage({ type: 'skip-waiting' });
    event.respondWith(fromNetworkFirst(event, APP_PAGE));
    return;
  }
  if (url.pathname.startsWith(HASHED)) event.respondWith(fromCacheFirst(event, url.pathname));
  else if (precached.has(url.pathname)) event.respondWith(fromNetworkFirst(event, url.pathname));
});
