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
 * - Two exceptions, so a video page visited once reopens offline: a video's details
 *   (GET /api/videos/{id}) are passed to the network and a copy kept; and what a video page
 *   asks to keep (message 'keep-media': its details, the video file, its thumbnail and poster)
 *   is fetched whole into the kept cache. Those media still go to the network first, Range
 *   requests included; only when it fails are they answered from the kept copy, a Range
 *   request with the part it asked for. The kept cache outlives new builds; the newest few
 *   videos are kept.
 * - With S3 a /media/ address redirects (302) to a signed URL on the bucket's origin. This
 *   worker's fetches and the player's <video> ask in CORS mode, so the answer is a CORS response,
 *   never an opaque one, and is kept and served like a same-origin one (the bucket's CORS rule
 *   allows this site's origin and exposes Content-Range, see the README).
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
/** Visited videos' details and media; not tied to a build. */
const KEPT = `${CACHE_PREFIX}kept`;
const VIDEO_DETAILS = /^\/api\/videos\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MEDIA = '/media/';
/** A file larger than this is not kept (the video then plays only online). */
const KEPT_MEDIA_MAX_BYTES = 256 * 1024 * 1024;
/** Media files kept (about three per video: file, thumbnail, poster); the oldest go first. */
const KEPT_MEDIA_FILES = 15;
const KEPT_DETAILS = 50;
/** Media paths in the kept cache; null until read (requests meanwhile are answered as if kept). */
let keptMedia: Set<string> | null = null;

async function copyFromOlderCache(cache: Cache, path: string): Promise<boolean> {
  for (const name of await caches.keys()) {
    if (name === CACHE || name === KEPT || !name.startsWith(CACHE_PREFIX)) continue;
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
        if (name !== CACHE && name !== KEPT && name.startsWith(CACHE_PREFIX)) await caches.delete(name);
      }
      // Earlier builds turned navigation preload on, and the setting outlives them.
      await sw.registration.navigationPreload?.disable();
      // Only takes pages no worker controls yet (a first visit); it reloads nothing.
      await sw.clients.claim();
    })(),
  );
  void completeDeferred();
});

/** Drops the oldest entries under `prefix` beyond `max` (the cache lists entries oldest first). */
async function trimKept(cache: Cache, prefix: string, max: number): Promise<void> {
  const keys = (await cache.keys()).filter((r) => new URL(r.url).pathname.startsWith(prefix));
  for (const request of keys.slice(0, Math.max(0, keys.length - max))) {
    await cache.delete(request);
    keptMedia?.delete(new URL(request.url).pathname);
  }
}

async function readKept(): Promise<Set<string>> {
  const keys = await (await caches.open(KEPT)).keys();
  keptMedia = new Set(keys.map((r) => new URL(r.url).pathname).filter((p) => p.startsWith(MEDIA)));
  return keptMedia;
}

/**
 * Keeps what a video page asks for: its details, read again (a first visit read them before
 * this worker controlled the page), and each of this site's media files not kept yet, whole,
 * when small enough.
 */
async function keepMedia(urls: unknown[]): Promise<void> {
  const cache = await caches.open(KEPT);
  const kept = keptMedia ?? (await readKept());
  for (const raw of urls) {
    if (typeof raw !== 'string') continue;
    const url = new URL(raw, sw.location.origin);
    if (url.origin !== sw.location.origin) continue;
    const path = url.pathname;
    if (VIDEO_DETAILS.test(path)) {
      try {
        const response = await fetch(path, { cache: 'no-cache' });
        if (response.status === 200) await cache.put(path, response);
      } catch (err) {
        console.warn(`${path} is not kept for offline use:`, err);
      }
      continue;
    }
    if (!path.startsWith(MEDIA)) continue;
    if (await cache.match(path, { ignoreVary: true })) {
      kept.add(path);
      continue;
    }
    try {
      const response = await fetch(path);
      const length = Number(response.headers.get('content-length') ?? 0);
      if (response.status !== 200 || length > KEPT_MEDIA_MAX_BYTES) continue;
      const body = await response.blob();
      if (body.size > KEPT_MEDIA_MAX_BYTES) continue;
      await cache.put(path, new Response(body, { status: 200, headers: response.headers }));
      kept.add(path);
    } catch (err) {
      console.warn(`${path} is not kept for offline use:`, err);
    }
  }
  await trimKept(cache, MEDIA, KEPT_MEDIA_FILES);
  await trimKept(cache, '/api/videos/', KEPT_DETAILS);
}

sw.addEventListener('message', (event) => {
  const type = (event.data as { type?: unknown } | null)?.type;
  if (type === 'keep-media') {
    const urls = (event.data as { urls?: unknown }).urls;
    if (Array.isArray(urls)) event.waitUntil(keepMedia(urls));
    return;
  }
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

/** A video's details: from the network, a copy kept; from the copy when the network fails. */
async function videoDetails(event: SwFetchEvent, path: string): Promise<Response> {
  const cache = await caches.open(KEPT);
  try {
    const response = await fetch(event.request);
    if (response.status === 200) {
      event.waitUntil(
        cache
          .put(path, response.clone())
          .then(() => trimKept(cache, '/api/videos/', KEPT_DETAILS))
          .catch(() => undefined),
      );
    } else if (response.status === 404) {
      event.waitUntil(cache.delete(path).catch(() => false));
    }
    return response;
  } catch (err) {
    const kept = await cache.match(path, { ignoreVary: true });
    if (kept) return kept;
    throw err;
  }
}

/** The part of a whole kept file that a Range header (bytes=a-b, a-, -n) asks for. */
async function partOf(whole: Response, range: string | null): Promise<Response> {
  if (!range) return whole;
  const body = await whole.blob();
  const size = body.size;
  const m = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
  let start = m && m[1] !== '' ? Number(m[1]) : Number.NaN;
  let end = m && m[2] !== '' ? Number(m[2]) : size - 1;
  if (m && m[1] === '' && m[2] !== '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  }
  if (!Number.isSafeInteger(start) || start >= size || end < start) {
    return new Response(null, { status: 416, headers: { 'content-range': `bytes */${size}` } });
  }
  end = Math.min(end, size - 1);
  const headers = new Headers({
    'content-type': whole.headers.get('content-type') ?? body.type,
    'content-range': `bytes ${start}-${end}/${size}`,
    'content-length': String(end - start + 1),
    'accept-ranges': 'bytes',
  });
  return new Response(body.slice(start, end + 1), { status: 206, headers });
}

/**
 * A kept media file: the network first (Range requests as they are), the kept copy when it fails.
 * An answer that came by a redirect (from the bucket's origin) is handed on as this address's
 * own: the player then asks this address, through this worker, for its later ranges too, instead
 * of the signed URL, which expires and which this worker cannot answer offline.
 */
async function keptFile(event: SwFetchEvent, path: string): Promise<Response> {
  try {
    const response = await fetch(event.request);
    if (!response.redirected) return response;
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers: response.headers });
  } catch (err) {
    const whole = await (await caches.open(KEPT)).match(path, { ignoreVary: true });
    if (!whole) throw err;
    return partOf(whole, event.request.headers.get('range'));
  }
}

void readKept().catch(() => undefined);

sw.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== sw.location.origin) return;
  if (request.mode !== 'navigate') {
    if (VIDEO_DETAILS.test(url.pathname)) {
      event.respondWith(videoDetails(event, url.pathname));
      return;
    }
    if (url.pathname.startsWith(MEDIA) && (keptMedia === null || keptMedia.has(url.pathname))) {
      event.respondWith(keptFile(event, url.pathname));
      return;
    }
  }
  if (request.headers.has('range') || NETWORK_ONLY.some((p) => url.pathname.startsWith(p))) return;
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
