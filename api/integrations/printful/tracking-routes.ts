/**
 * The tracking page of the embedded print shop's parcels (/track/:number), as a carrier's site
 * would serve it: the print shop's own parcels, read from its own orders, a limited number of
 * lookups per address.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { FULFILMENT_MESSAGES, TRACKING_NUMBER_PATTERN, trackingPageRoute } from '../../../shared/schemas/fulfilment.ts';
import { AppError } from '../../platform/http/errors.ts';
import { RateLimiter } from '../../platform/http/rate-limit.ts';
import { parcelPage } from './tracking-page.ts';

const TRACKING = new RegExp(TRACKING_NUMBER_PATTERN);

/**
 * Lookups per address: a buyer opens a parcel's page now and then; tracking numbers carry about
 * 40 bits, so this keeps guessing them far out of reach.
 */
export const TRACKING_LOOKUPS = { max: 30, windowMs: 10 * 60_000 };

const trackingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const perIp = new RateLimiter(app.db, 'tracking-lookup', TRACKING_LOOKUPS.max, TRACKING_LOOKUPS.windowMs);
  app.route({
    ...trackingPageRoute,
    handler: async (request, typedReply) => {
      const reply = typedReply as unknown as FastifyReply;
      await perIp.takeOrRefuse(request.ip, reply, FULFILMENT_MESSAGES.tooManyLookups);
      const number = request.params.number;
      const parcel = TRACKING.test(number) ? await app.embeddedPod.parcel(number) : undefined;
      if (!parcel) throw AppError.notFound(FULFILMENT_MESSAGES.unknownParcel);
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(parcelPage({ trackingNumber: number, status: parcel.status, updatedAt: parcel.updated_at }));
    },
  });
};

export default trackingRoutes;
