/**
 * Routes that take large JSON bodies (data-URL screenshots and print images, up to tens of
 * megabytes) hold each body several times over while it is read, parsed and decoded. A burst of
 * them read all at once would grow the process by hundreds of megabytes and stall every other
 * request behind garbage collection, so such a body is only read once it has one of a few slots
 * (two per core); the others wait, unread, in order. A request that waits longer than
 * LARGE_BODY_WAIT_MS is answered 503 with Retry-After, so a queue behind slow senders stays short.
 */
import os from 'node:os';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import { Slots, SlotWaitTimeout } from '../concurrency/slots.ts';
import { AppError } from './errors.ts';

export const LARGE_BODY_WAIT_MS = 15_000;
export const BUSY_MESSAGE = 'The server is busy with other uploads. Please try again in a moment.';

/** The slots large bodies of this process share. */
export const largeBodies = new Slots(2 * Math.max(1, os.availableParallelism()));

/**
 * Route options that read the body only once a slot is free, and free it when the reply has
 * gone (or the connection has closed), whatever happened in between.
 */
export function inLargeBodySlot(slots: Slots = largeBodies, waitMs = LARGE_BODY_WAIT_MS) {
  return {
    preParsing: async (_request: FastifyRequest, reply: FastifyReply, payload: NodeJS.ReadableStream) => {
      let release: () => void;
      try {
        release = await slots.acquire(waitMs);
      } catch (err) {
        if (!(err instanceof SlotWaitTimeout)) throw err;
        void reply.header('retry-after', String(Math.ceil(waitMs / 1000)));
        throw new AppError(503, ERROR_CODES.SERVICE_UNAVAILABLE, BUSY_MESSAGE);
      }
      if (reply.raw.writableFinished || reply.raw.destroyed) release();
      else reply.raw.once('close', release);
      return payload;
    },
  };
}
