/**
 * The tracking page of the embedded print shop's parcels (/track/:number), as a carrier's site
 * would serve it: the print shop's own parcels, read from its own orders.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { FULFILMENT_MESSAGES, TRACKING_NUMBER_PATTERN, trackingPageRoute } from '../../../shared/schemas/fulfilment.ts';
import { AppError } from '../../platform/http/errors.ts';
import { parcelPage } from './tracking-page.ts';

const TRACKING = new RegExp(TRACKING_NUMBER_PATTERN);

const trackingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    ...trackingPageRoute,
    handler: async (request, typedReply) => {
      const reply = typedReply as unknown as FastifyReply;
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
