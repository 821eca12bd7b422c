/**
 * The service worker in a stand-in worker scope: which requests it answers itself, and that it
 * never preloads page loads (a preloaded sign-in return spends its one-time code twice).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

type Listener = (event: Record<string, unknown>) => void;
const listeners = new Map<string, Listener>();
const navigationPreload = { enable: vi.fn(async () => undefined), disable: vi.fn(async () => undefined) };
const network = vi.fn(async () => new Response('page'));

beforeAll(async () => {
  const cache = { match: async () => undefined, put: async () => undefined };
  vi.stubGlobal('PRECACHE', { version: 'test', shell: ['/index.html'], deferred: [] });
  vi.stubGlobal('caches', { keys: async () => [], open: async () => cache, delete: async () => true });
  vi.stubGlobal('fetch', network);
  vi.stubGlobal('self', {
    location: new URL('https://shop.example/'),
    registration: { waiting: null, navigationPreload },
    clients: { claim: async () => undefined },
    skipWaiting: async () => undefined,
    addEventListener: (type: string, listener: Listener) => listeners.set(type, listener),
  });
  await import('./sw.ts');
});
afterAll(() => vi.unstubAllGlobals());

/** A page load of `path`; resolves with whether the worker answered it. */
async function navigate(path: string): Promise<boolean> {
  const respondWith = vi.fn((response: Promise<Response>) => void response.catch(() => undefined));
  const request = { method: 'GET', mode: 'navigate', url: `https://shop.example${path}`, headers: new Headers() };
  listeners.get('fetch')!({ request, respondWith, waitUntil: () => undefined });
  return respondWith.mock.calls.length > 0;
}

describe('the service worker', () => {
  it.each([
    '/api/auth/google/callback?code=one-time&state=s',
    '/api/auth/google/login?return_url=%2F',
    '/oidc/auth?client_id=framemerch',
    '/oidc-login/abc123',
    '/pay/cs_test_123',
    '/track/FM000000000001',
    '/media/videos/ab/clip.mp4',
  ])('leaves the page load of %s to the browser', async (path) => {
    network.mockClear();
    expect(await navigate(path)).toBe(false);
    expect(network).not.toHaveBeenCalled();
  });

  it('answers the app pages, network first (so they open offline)', async () => {
    expect(await navigate('/video/0/abc?t=5')).toBe(true);
    expect(await navigate('/payment-portal')).toBe(true);
  });

  it('turns navigation preload off when it takes over', async () => {
    let work: Promise<unknown> = Promise.resolve();
    listeners.get('activate')!({ waitUntil: (p: Promise<unknown>) => (work = p) });
    await work;
    expect(navigationPreload.disable).toHaveBeenCalled();
    expect(navigationPreload.enable).not.toHaveBeenCalled();
  });
});
