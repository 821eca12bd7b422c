import { Type } from 'typebox';
import { errorReplies } from './common.ts';
import { defineRoute } from './route.ts';

export const APP_CLOCK_MESSAGES = {
  fixed: "The app's clock is the system clock: start the app with TEST_CLOCK=true to move it.",
} as const;

const AppClockReply = Type.Object({
  success: Type.Literal(true),
  /** The app's time now (ISO 8601). */
  now: Type.String(),
  /** How far ahead of the system's clock it runs. */
  offset_ms: Type.Integer({ minimum: 0 }),
  /** Whether it may be moved (TEST_CLOCK). */
  adjustable: Type.Boolean(),
});

/** The app's clock, which decides which payout periods are due (see api/platform/clock). */
export const appClockRoute = defineRoute({
  method: 'GET',
  url: '/api/admin/clock',
  access: 'admin',
  schema: {
    summary: "The app's clock: its time, and how far it has been moved ahead of the system's",
    tags: ['system', 'admin'],
    response: { 200: AppClockReply, ...errorReplies(401, 403) },
  },
});

/** Moves the app's clock forward (only with TEST_CLOCK; a time already passed leaves it). */
export const advanceAppClockRoute = defineRoute({
  method: 'POST',
  url: '/api/admin/clock',
  access: 'admin',
  schema: {
    summary: "Moves the app's test clock forward to a time (TEST_CLOCK only); never back",
    tags: ['system', 'admin'],
    body: Type.Object({ to: Type.String({ format: 'date-time', description: 'ISO 8601 with a time zone' }) }, { additionalProperties: false }),
    response: { 200: AppClockReply, ...errorReplies(400, 401, 403, 409) },
  },
});
