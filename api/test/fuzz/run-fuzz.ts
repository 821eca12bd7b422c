/**
 * Sends the fuzzer's requests (openapi-requests.ts) to the app, through inject() in a test or
 * over real HTTP to a server process, as a signed-out visitor and as each signed-in actor, and
 * counts the answers: by status class, every 5xx, and every answer slower than the limit.
 */
import type { FastifyInstance } from 'fastify';
import fc from 'fast-check';
import http from 'node:http';
import { SESSION_COOKIE } from '../../platform/sessions/sessions.ts';
import { operationsOf, requestsFor, type FuzzRequest, type Known } from './openapi-requests.ts';

export interface Actor {
  name: string;
  /** A fresh session token; null for the signed-out visitor. Called again once the session has ended (logout, 401). */
  session: (() => Promise<string>) | null;
}

export interface Finding {
  actor: string;
  method: string;
  url: string;
  /** The request's own headers (not the session cookie). */
  headers: Record<string, string>;
  body: string;
  status: number;
  response: string;
  ms: number;
}

export interface FuzzCounts {
  total: number;
  byClass: Record<string, number>;
  /** Per operation (`GET /api/videos/{id}`), its answers by status class. */
  byOperation: Record<string, Record<string, number>>;
  serverErrors: Finding[];
  slow: Finding[];
  /** Requests the server never answered (connection closed, or no answer within the hard cap). */
  unanswered: Finding[];
  passed: number;
  failed: number;
  operations: number;
}

export interface FuzzOptions {
  /** The app to inject into, or the origin of a running server. */
  target: { app: FastifyInstance } | { baseUrl: string };
  seed: number;
  requests: number;
  /** An answer slower than this is counted as slow. */
  timeoutMs: number;
  actors: Actor[];
  /** Values the app holds (ids, slugs), by parameter or field name. */
  known?: Known;
  /** The Origin a page of the site sends on writes. */
  origin: string;
  concurrency?: number;
  onProgress?: (done: number) => void;
}

interface Answer {
  status: number;
  body: string;
}

type Send = (req: FuzzRequest, cookie: string | null) => Promise<Answer>;

const excerpt = (s: string | undefined, n: number) => (s === undefined ? '' : s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);

function injectSender(app: FastifyInstance): Send {
  return async (req, cookie) => {
    const res = await app.inject({
      method: req.method as 'GET',
      url: req.url,
      headers: { ...req.headers, ...(cookie ? { cookie } : {}) },
      ...(req.body !== undefined ? { payload: req.body } : {}),
    });
    return { status: res.statusCode, body: res.body };
  };
}

function httpSender(baseUrl: string, capMs: number): Send {
  const origin = new URL(baseUrl);
  return (req, cookie) =>
    new Promise((resolve, reject) => {
      const body = req.body === undefined ? undefined : Buffer.from(req.body);
      const request = http.request(
        {
          // A connection per request: the server closes one after refusing a body it will not
          // read, and a kept-alive socket reused just then would blame the next request.
          agent: false,
          host: origin.hostname,
          port: origin.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, ...(cookie ? { cookie } : {}), ...(body ? { 'content-length': String(body.length) } : {}) },
          timeout: capMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      request.on('timeout', () => request.destroy(new Error(`no answer within ${capMs} ms`)));
      request.on('error', reject);
      request.end(body);
    });
}

export async function runFuzz(opts: FuzzOptions): Promise<FuzzCounts> {
  const app = 'app' in opts.target ? opts.target.app : null;
  if (app) await app.ready();
  const doc = app
    ? (app.swagger() as Parameters<typeof operationsOf>[0])
    : ((await (await fetch(new URL('/api/docs/json', (opts.target as { baseUrl: string }).baseUrl))).json()) as Parameters<typeof operationsOf>[0]);
  const operations = operationsOf(doc);
  const capMs = Math.max(opts.timeoutMs * 6, 30_000);
  const send = app ? injectSender(app) : httpSender((opts.target as { baseUrl: string }).baseUrl, capMs);

  const cookies = new Map<string, string | null>();
  const cookieOf = async (actor: Actor, renew = false): Promise<string | null> => {
    if (!actor.session) return null;
    if (renew || !cookies.has(actor.name)) cookies.set(actor.name, `${SESSION_COOKIE}=${await actor.session()}`);
    return cookies.get(actor.name)!;
  };

  const arbitrary = fc.tuple(fc.nat(opts.actors.length - 1), fc.oneof(...operations.map((op) => requestsFor(op, opts.known))));
  // Made a batch at a time from seeds derived from the one given: the same requests on every run,
  // without holding thousands of bodies (some a megabyte) at once.
  const BATCH = 50;
  let batch: Array<[number, FuzzRequest]> = [];
  let made = 0;
  const next = (): [number, FuzzRequest] | null => {
    if (batch.length === 0) {
      if (made >= opts.requests) return null;
      const n = Math.min(BATCH, opts.requests - made);
      batch = fc.sample(arbitrary, { seed: opts.seed + made, numRuns: n });
      made += n;
    }
    return batch.shift()!;
  };

  const counts: FuzzCounts = { total: 0, byClass: {}, byOperation: {}, serverErrors: [], slow: [], unanswered: [], passed: 0, failed: 0, operations: operations.length };
  const worker = async () => {
    for (let item = next(); item; item = next()) {
      const [actorIndex, req] = item;
      const actor = opts.actors[actorIndex]!;
      const writes = req.method !== 'GET' && req.method !== 'HEAD';
      const request: FuzzRequest = writes ? { ...req, headers: { origin: opts.origin, ...req.headers } } : req;
      const started = performance.now();
      let answer: Answer;
      try {
        answer = await send(request, await cookieOf(actor));
      } catch (err) {
        answer = { status: 0, body: err instanceof Error ? err.message : String(err) };
      }
      const ms = performance.now() - started;
      const finding = (): Finding => ({
        actor: actor.name,
        method: request.method,
        url: excerpt(request.url, 300),
        headers: Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, excerpt(v, 100)])),
        body: excerpt(request.body, 300),
        status: answer.status,
        response: excerpt(answer.body, 500),
        ms: Math.round(ms),
      });
      counts.total++;
      const cls = answer.status === 0 ? 'none' : `${Math.floor(answer.status / 100)}xx`;
      counts.byClass[cls] = (counts.byClass[cls] ?? 0) + 1;
      const forOperation = (counts.byOperation[req.operation] ??= {});
      forOperation[cls] = (forOperation[cls] ?? 0) + 1;
      const lists = [answer.status >= 500 && counts.serverErrors, answer.status === 0 && counts.unanswered, ms > opts.timeoutMs && counts.slow].filter((l) => l !== false);
      for (const list of lists) list.push(finding());
      if (lists.length > 0) counts.failed++;
      else counts.passed++;
      // A signed-in actor whose session has ended (it signed out, say) signs in again.
      if (actor.session && (answer.status === 401 || request.url.startsWith('/api/auth/logout'))) await cookieOf(actor, true);
      opts.onProgress?.(counts.total);
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency ?? 1 }, worker));
  return counts;
}
