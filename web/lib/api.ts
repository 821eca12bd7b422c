/**
 * The one HTTP client of the web app. Its types come from the route objects in
 * shared/schemas, so a request and its reply are checked against the same schemas the
 * API validates with.
 */
import type { BodyOf, ParamsOf, QueryOf, ReplyOf, RouteDef } from '../../shared/schemas/route.ts';
import { ApiError } from './ApiError.ts';

type QueryValue = string | number | boolean | null | undefined | ReadonlyArray<string | number | boolean>;

/** `params` and `body` are required exactly when the route declares them; `query` is always optional. */
export type RequestOptions<R extends RouteDef> = ([ParamsOf<R>] extends [undefined]
  ? { params?: undefined }
  : { params: ParamsOf<R> }) &
  ([BodyOf<R>] extends [undefined] ? { body?: undefined } : { body: BodyOf<R> }) & {
    query?: QueryOf<R>;
    signal?: AbortSignal;
  };

/** The reply of any success status a route declares (200, 201 for creation, 202 for queued work). */
export type OkReplyOf<R extends RouteDef> = ReplyOf<R, 200> | ReplyOf<R, 201> | ReplyOf<R, 202>;

type OptionsArg<R extends RouteDef> = [ParamsOf<R>, BodyOf<R>] extends [undefined, undefined]
  ? [options?: RequestOptions<R>]
  : [options: RequestOptions<R>];

/** Substitutes `:name` segments and appends the query string; undefined and null values are left out. */
export function buildUrl(template: string, params?: object, query?: object): string {
  const values = (params ?? {}) as Record<string, unknown>;
  const path = template.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined || value === null || value === '') {
      throw new TypeError(`Missing route parameter "${name}" for ${template}`);
    }
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, raw] of Object.entries((query ?? {}) as Record<string, QueryValue>)) {
    if (raw === undefined || raw === null) continue;
    for (const value of Array.isArray(raw) ? raw : [raw]) search.append(key, String(value));
  }
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export const NETWORK_MESSAGE = 'Network error. Please check your internet connection and try again.';

const NOT_JSON = Symbol('not-json');
const BODY_QUOTE_LIMIT = 500;

function parseBody(status: number, text: string): unknown {
  if (status === 204 || text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

function failure(status: number, payload: unknown, text: string): ApiError {
  const body = (typeof payload === 'object' && payload !== null ? payload : {}) as Record<string, unknown>;
  const serverError = typeof body.error === 'string' && body.error !== '' ? body.error : null;
  const code = typeof body.code === 'string' ? body.code : payload === NOT_JSON ? 'NOT_JSON' : 'HTTP_ERROR';
  const message =
    serverError ?? (payload === NOT_JSON ? 'Unexpected response from server (not JSON)' : `Request failed with status ${status}`);
  return new ApiError(status, code, message, serverError, text.slice(0, BODY_QUOTE_LIMIT));
}

/** Builds a `request` function over any fetch; tests pass a fake one. */
export function createApiClient(fetchImpl: FetchLike) {
  return async function request<R extends RouteDef>(route: R, ...[options]: OptionsArg<R>): Promise<OkReplyOf<R>> {
    const opts = (options ?? {}) as { params?: object; query?: object; body?: unknown; signal?: AbortSignal };
    const url = buildUrl(route.url, opts.params, opts.query);
    const headers: Record<string, string> = { accept: 'application/json' };
    const init: RequestInit = { method: route.method, headers, credentials: 'same-origin' };
    if (opts.body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(opts.body);
    }
    if (opts.signal) init.signal = opts.signal;

    let response: Response;
    try {
      response = await fetchImpl(url, init);
    } catch (error) {
      // An abort must stay an AbortError so callers can ignore it.
      if ((error as { name?: unknown }).name === 'AbortError' || opts.signal?.aborted) throw error;
      throw new ApiError(0, 'NETWORK_ERROR', NETWORK_MESSAGE);
    }
    const text = response.status === 204 ? '' : await response.text();
    return settleReply<R>(response.status, text);
  };
}

/**
 * A reply's status and body text turned into the parsed reply, or thrown as an `ApiError`:
 * shared by `request()` and `uploadWithProgress()` (XMLHttpRequest), so both fail alike.
 */
export function settleReply<R extends RouteDef>(status: number, text: string): OkReplyOf<R> {
  const payload = parseBody(status, text);
  const flagged = typeof payload === 'object' && payload !== null && (payload as { success?: unknown }).success === false;
  const ok = status >= 200 && status < 300;
  if (!ok || flagged || payload === NOT_JSON) throw failure(status, payload, text);
  return payload as OkReplyOf<R>;
}

export const request = createApiClient((input, init) => fetch(input, init));
