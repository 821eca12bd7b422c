import { describe, expect, it } from 'vitest';
import { newestCreatorsRoute } from '../../shared/schemas/creators.ts';
import { feedRoute, videoRoute } from '../../shared/schemas/videos.ts';
import { buildUrl, createApiClient, type FetchLike } from './api.ts';
import { isAbortError, isApiError } from './ApiError.ts';

/** A fetch that records what it was asked and answers with `reply`. */
function fakeFetch(reply: () => Response | Promise<Response>) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fetchImpl: FetchLike = async (url, init) => {
    calls.push({ url, init });
    return reply();
  };
  return { calls, request: createApiClient(fetchImpl) };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('buildUrl', () => {
  it('substitutes and encodes path parameters', () => {
    expect(buildUrl('/api/videos/:id', { id: 'a b/c' })).toBe('/api/videos/a%20b%2Fc');
  });

  it('refuses a missing parameter instead of calling a wrong address', () => {
    expect(() => buildUrl('/api/videos/:id', {})).toThrow(/Missing route parameter "id"/);
  });

  it('leaves out undefined and null query values and repeats arrays', () => {
    expect(buildUrl('/api/videos', undefined, { category: 'music', before: undefined, x: null, limit: 20 })).toBe(
      '/api/videos?category=music&limit=20',
    );
    expect(buildUrl('/x', undefined, { tag: ['a', 'b & c'] })).toBe('/x?tag=a&tag=b+%26+c');
    expect(buildUrl('/x', undefined, {})).toBe('/x');
  });
});

describe('request', () => {
  it('calls the route with its method and query, and returns the parsed reply', async () => {
    const body = { success: true, videos: [], next_cursor: null };
    const { calls, request } = fakeFetch(() => json(200, body));
    const reply = await request(feedRoute, { query: { limit: 20, before: 'abc' } });
    expect(reply).toEqual(body);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe('/api/videos?limit=20&before=abc');
    expect(calls[0]?.init.method).toBe('GET');
    expect(calls[0]?.init.body).toBeUndefined();
  });

  it('passes the abort signal through', async () => {
    const { calls, request } = fakeFetch(() => json(200, { success: true, creators: [] }));
    const controller = new AbortController();
    await request(newestCreatorsRoute, { signal: controller.signal });
    expect(calls[0]?.url).toBe('/api/creators/newest');
    expect(calls[0]?.init.signal).toBe(controller.signal);
  });

  it("throws an ApiError carrying the server's status, code and message", async () => {
    const { calls, request } = fakeFetch(() => json(404, { success: false, error: 'Video not found.', code: 'NOT_FOUND' }));
    const error = await caught(request(videoRoute, { params: { id: '0b6f3c1e-0000-4000-8000-000000000000' } }));
    expect(calls[0]?.url).toBe('/api/videos/0b6f3c1e-0000-4000-8000-000000000000');
    expect(isApiError(error)).toBe(true);
    expect(error).toMatchObject({ name: 'ApiError', status: 404, code: 'NOT_FOUND', message: 'Video not found.', serverError: 'Video not found.' });
  });

  it('treats success:false as a failure even with status 200', async () => {
    const { request } = fakeFetch(() => json(200, { success: false, error: 'Nope.', code: 'CONFLICT' }));
    expect(await caught(request(newestCreatorsRoute))).toMatchObject({ status: 200, code: 'CONFLICT', message: 'Nope.' });
  });

  it('describes a non-JSON failure without inventing a server message', async () => {
    const { request } = fakeFetch(() => new Response('<html>Bad gateway</html>', { status: 502 }));
    expect(await caught(request(newestCreatorsRoute))).toMatchObject({
      status: 502,
      code: 'NOT_JSON',
      message: 'Unexpected response from server (not JSON)',
      serverError: null,
      body: '<html>Bad gateway</html>',
    });
  });

  it('keeps the body of a JSON failure without an error text, for messages that quote it', async () => {
    const { request } = fakeFetch(() => json(500, { oops: true }));
    expect(await caught(request(newestCreatorsRoute))).toMatchObject({
      status: 500,
      code: 'HTTP_ERROR',
      message: 'Request failed with status 500',
      serverError: null,
      body: '{"oops":true}',
    });
  });

  it('turns a network failure into an ApiError with status 0', async () => {
    const { request } = fakeFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(await caught(request(newestCreatorsRoute))).toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
  });

  it('lets an AbortError through untouched so callers can ignore it', async () => {
    const controller = new AbortController();
    controller.abort();
    const { request } = fakeFetch(() => Promise.reject(new DOMException('The operation was aborted.', 'AbortError')));
    const error = await caught(request(newestCreatorsRoute, { signal: controller.signal }));
    expect(isAbortError(error)).toBe(true);
    expect(isApiError(error)).toBe(false);
  });
});
