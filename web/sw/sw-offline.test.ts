/**
 * The service worker keeps a visited video page for offline use: the video's details as they
 * are read, and the media the page asks it to keep, answered (Range requests by their part)
 * only when the network fails. Run in a stand-in worker scope with in-memory caches.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

type Listener = (event: Record<string, unknown>) => void;
const listeners = new Map<string, Listener>();
const ORIGIN = 'https://shop.example';
const VIDEO_ID = '6f1c2a3b-1111-4222-8333-444455556666';
const VIDEO_BYTES = new Uint8Array(Array.from({ length: 100 }, (_, i) => i));

/** In-memory caches keyed by path, oldest entry first, as the Cache API lists them. */
class MemoryCache {
  readonly entries = new Map<string, Response>();
  private key = (r: RequestInfo | URL) => new URL(typeof r === 'string' || r instanceof URL ? r : r.url, ORIGIN).pathname;
  async match(r: RequestInfo | URL) {
    return this.entries.get(this.key(r))?.clone();
  }
  async put(r: RequestInfo | URL, response: Response) {
    this.entries.delete(this.key(r));
    this.entries.set(this.key(r), response);
  }
  async delete(r: RequestInfo | URL) {
    return this.entries.delete(this.key(r));
  }
  async keys() {
    return [...this.entries.keys()].map((p) => new Request(`${ORIGIN}${p}`));
  }
}
const caches = new Map<string, MemoryCache>();
let online = true;
const network = vi.fn(async (input: RequestInfo | URL) => {
  if (!online) throw new TypeError('Failed to fetch');
  const request = input instanceof Request ? input : new Request(new URL(String(input), ORIGIN));
  const path = new URL(request.url).pathname;
  if (path === `/api/videos/${VIDEO_ID}`) return Response.json({ success: true, video: { id: VIDEO_ID, title: 'Kept' } });
  if (path === '/media/videos/ab/clip.mp4') {
    const range = request.headers.get('range');
    if (range) return new Response(VIDEO_BYTES.slice(0, 10), { status: 206, headers: { 'content-range': 'bytes 0-9/100' } });
    return new Response(VIDEO_BYTES, { headers: { 'content-type': 'video/mp4', 'content-length': '100' } });
  }
  return new Response('not found', { status: 404 });
});

beforeAll(async () => {
  vi.stubGlobal('PRECACHE', { version: 'test', shell: ['/index.html'], deferred: [] });
  vi.stubGlobal('caches', {
    keys: async () => [...caches.keys()],
    open: async (name: string) => caches.get(name) ?? caches.set(name, new MemoryCache()).get(name)!,
    delete: async (name: string) => caches.delete(name),
  });
  vi.stubGlobal('fetch', network);
  vi.stubGlobal('self', {
    location: new URL(`${ORIGIN}/`),
    registration: { waiting: null, navigationPreload: { disable: async () => undefined } },
    clients: { claim: async () => undefined },
    skipWaiting: async () => undefined,
    addEventListener: (type: string, listener: Listener) => listeners.set(type, listener),
  });
  await import('./sw.ts');
});
afterAll(() => vi.unstubAllGlobals());

/** A fetch of `path` by the page; resolves with the worker's answer, or null when it left it to the browser. */
async function pageFetch(path: string, headers: Record<string, string> = {}): Promise<Response | null> {
  let answer: Promise<Response> | null = null;
  const pending: Promise<unknown>[] = [];
  const request = new Request(`${ORIGIN}${path}`, { headers });
  listeners.get('fetch')!({ request, respondWith: (r: Promise<Response>) => (answer = r), waitUntil: (p: Promise<unknown>) => pending.push(p) });
  if (!answer) return null;
  const response = await answer;
  await Promise.all(pending);
  return response;
}

async function message(data: unknown) {
  const pending: Promise<unknown>[] = [];
  listeners.get('message')!({ data, ports: [], waitUntil: (p: Promise<unknown>) => pending.push(p) });
  await Promise.all(pending);
}

describe('a video page kept for offline use', () => {
  it("answers a video's details from the network and, with the network gone, from the copy it kept", async () => {
    online = true;
    expect(await (await pageFetch(`/api/videos/${VIDEO_ID}`))!.json()).toMatchObject({ video: { title: 'Kept' } });
    online = false;
    const offline = await pageFetch(`/api/videos/${VIDEO_ID}`);
    expect(offline!.status).toBe(200);
    expect(await offline!.json()).toMatchObject({ video: { id: VIDEO_ID, title: 'Kept' } });
    // Other API reads are still left to the browser.
    expect(await pageFetch(`/api/videos/${VIDEO_ID}/views`)).toBeNull();
    expect(await pageFetch('/api/creators/newest')).toBeNull();
    online = true;
  });

  it("keeps a video's details when asked (a first visit read them before the worker was in control)", async () => {
    online = true;
    await caches.get('framemerch-kept')?.delete(`/api/videos/${VIDEO_ID}`);
    await message({ type: 'keep-media', urls: [`/api/videos/${VIDEO_ID}`, '/api/creators/newest'] });
    const keys = [...caches.get('framemerch-kept')!.entries.keys()];
    expect(keys).toContain(`/api/videos/${VIDEO_ID}`);
    expect(keys).not.toContain('/api/creators/newest');
    online = false;
    expect(await (await pageFetch(`/api/videos/${VIDEO_ID}`))!.json()).toMatchObject({ video: { id: VIDEO_ID } });
    online = true;
  });

  it('keeps the media it is asked to, and answers Range requests from it only when the network fails', async () => {
    online = true;
    await message({ type: 'keep-media', urls: ['/media/videos/ab/clip.mp4', 'https://elsewhere.example/media/x.jpg', 42] });
    expect([...caches.get('framemerch-kept')!.entries.keys()]).toContain('/media/videos/ab/clip.mp4');
    expect([...caches.get('framemerch-kept')!.entries.keys()].some((k) => k.includes('x.jpg'))).toBe(false);

    // Online, the network answers (its own partial content).
    const live = await pageFetch('/media/videos/ab/clip.mp4', { range: 'bytes=0-' });
    expect(live!.headers.get('content-range')).toBe('bytes 0-9/100');

    online = false;
    const part = await pageFetch('/media/videos/ab/clip.mp4', { range: 'bytes=10-19' });
    expect(part!.status).toBe(206);
    expect(part!.headers.get('content-range')).toBe('bytes 10-19/100');
    expect([...new Uint8Array(await part!.arrayBuffer())]).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
    const open = await pageFetch('/media/videos/ab/clip.mp4', { range: 'bytes=95-' });
    expect(open!.headers.get('content-range')).toBe('bytes 95-99/100');
    const tail = await pageFetch('/media/videos/ab/clip.mp4', { range: 'bytes=-3' });
    expect([...new Uint8Array(await tail!.arrayBuffer())]).toEqual([97, 98, 99]);
    expect((await pageFetch('/media/videos/ab/clip.mp4', { range: 'bytes=200-' }))!.status).toBe(416);
    const whole = await pageFetch('/media/videos/ab/clip.mp4');
    expect(whole!.status).toBe(200);
    expect((await whole!.arrayBuffer()).byteLength).toBe(100);
    // Media nobody asked to keep are left to the browser.
    expect(await pageFetch('/media/thumbnails/other.jpg')).toBeNull();
    online = true;
  });

  it('keeps the kept cache when a new build takes over', async () => {
    let work: Promise<unknown> = Promise.resolve();
    listeners.get('activate')!({ waitUntil: (p: Promise<unknown>) => (work = p) });
    await work;
    expect(caches.has('framemerch-kept')).toBe(true);
  });
});
