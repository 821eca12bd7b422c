/**
 * How long a client may keep a connection without making progress. There is no limit on a
 * whole request (a 2 GB upload over a slow line takes long and must finish); instead each
 * phase that waits on the client is bounded (values in CONNECTION_TIMEOUTS):
 *
 * - headers: the request line and headers must arrive within headersMs (20 s; checked every
 *   checkIntervalMs, 2 s), else 408 and the connection is closed;
 * - idle: a connection on which no byte moves for idleMs (60 s) while the server waits on the
 *   client (headers or body still to come, or a reply it does not read) is closed; an upload
 *   that keeps sending, however slowly, restarts this clock with every packet;
 * - between requests: a kept-alive connection with no new request for keepAliveMs (72 s) is closed.
 *
 * The idle clock stops from the moment a body has fully arrived until the reply starts: a long
 * piece of work on the server (probing and storing a large video) is not the client idling.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyHttpOptions, FastifyInstance } from 'fastify';
import { answerClientError } from './client-errors.ts';

export interface ConnectionTimeouts {
  headersMs: number;
  idleMs: number;
  keepAliveMs: number;
  checkIntervalMs: number;
}

export const CONNECTION_TIMEOUTS: ConnectionTimeouts = {
  headersMs: 20_000,
  idleMs: 60_000,
  // Above the 60 s idle timeout of common load balancers, so they close first.
  keepAliveMs: 72_000,
  checkIntervalMs: 2_000,
};

/** Fastify server options for these timeouts, and the answer to a request cut off by one (or otherwise unreadable). */
export function timeoutOptions(t: ConnectionTimeouts = CONNECTION_TIMEOUTS): FastifyHttpOptions<Server> {
  return {
    // No deadline for a whole request: the idle and header bounds hold slow clients instead.
    requestTimeout: 0,
    connectionTimeout: t.idleMs,
    keepAliveTimeout: t.keepAliveMs,
    http: { headersTimeout: t.headersMs, connectionsCheckingInterval: t.checkIntervalMs },
    clientErrorHandler: answerClientError,
  };
}

/**
 * Stops the idle clock from the moment a request's body has arrived until its reply starts: the
 * server's own work (probing and storing a large video) is not the client idling. The clock
 * runs again while the reply is sent, so a client that stops reading is cut like one that stops
 * sending; Node restarts it for the next request on the connection.
 */
export function pauseIdleClockWhileServing(app: FastifyInstance): void {
  const replying = new WeakSet<object>();
  // Requests made in-process (inject: the embedded identity provider's own calls) have no real socket.
  const setIdle = (raw: { socket?: unknown }, ms: number) => {
    const socket = raw.socket as { setTimeout?: unknown } | undefined;
    if (typeof socket?.setTimeout === 'function') (socket as Socket).setTimeout(ms);
  };
  app.addHook('onRequest', (request, _reply, done) => {
    const raw = request.raw;
    const stop = () => {
      if (!replying.has(raw)) setIdle(raw, 0);
    };
    if (raw.complete) stop();
    else raw.once('end', stop);
    done();
  });
  app.addHook('onSend', (request, _reply, payload, done) => {
    replying.add(request.raw);
    setIdle(request.raw, app.server.timeout);
    done(null, payload);
  });
}
