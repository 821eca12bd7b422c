import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { advanceAppClockRoute, APP_CLOCK_MESSAGES, appClockRoute } from '../../../shared/schemas/clock.ts';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import { AppError } from './errors.ts';

/** The admin's view of the app's clock, and, with TEST_CLOCK, the way to move it forward. */
const clockRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const state = () => ({ success: true as const, now: app.clock.now().toISOString(), offset_ms: app.clock.offsetMs, adjustable: app.clock.adjustable });

  app.route({
    ...appClockRoute,
    handler: async (_request, reply) => {
      void reply.header('cache-control', 'no-store');
      return state();
    },
  });

  app.route({
    ...advanceAppClockRoute,
    handler: async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      if (!app.clock.adjustable) throw new AppError(409, ERROR_CODES.CONFLICT, APP_CLOCK_MESSAGES.fixed);
      const to = new Date(request.body.to);
      if (Number.isNaN(to.getTime())) throw AppError.badRequest('to must be a date and time (ISO 8601).');
      if (app.clock.advanceTo(to)) request.log.warn({ now: app.clock.now().toISOString(), offsetMs: app.clock.offsetMs }, "the app's test clock was moved forward");
      return state();
    },
  });
};

export default clockRoutes;
