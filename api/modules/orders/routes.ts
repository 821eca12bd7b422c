/**
 * Printful's webhook (authorised by the secret token in its URL, as Printful signs nothing) and
 * the tracking page of the embedded print shop's parcels. Both hand off to services in one line.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { FULFILMENT_MESSAGES, printfulWebhookRoute, TRACKING_NUMBER_PATTERN, trackingPageRoute } from '../../../shared/schemas/fulfilment.ts';
import { AppError } from '../../platform/http/errors.ts';
import { parcelPage } from '../../integrations/printful/tracking-page.ts';
import { applyFulfilmentEvent } from './fulfilment-events.ts';

const digest = (s: string) => createHash('sha256').update(s).digest();

function sameSecret(given: string | undefined, expected: string | null | undefined): boolean {
  if (!given || !expected) return false;
  return timingSafeEqual(digest(given), digest(expected));
}

const TRACKING = new RegExp(TRACKING_NUMBER_PATTERN);

const fulfilmentWebhooks: FastifyPluginAsyncTypebox = async (app) => {
  app.route({
    ...printfulWebhookRoute,
    handler: async (request) => {
      if (!sameSecret(request.query.token, app.config.printful?.webhookToken)) throw AppError.notFound(FULFILMENT_MESSAGES.unknownWebhook);
      const result = await applyFulfilmentEvent(app.db, request.body, { publicUrl: app.config.publicUrl });
      return { success: true as const, duplicate: !result.firstDelivery, status: result.status };
    },
  });

  app.route({
    ...trackingPageRoute,
    handler: async (request, typedReply) => {
      const reply = typedReply as unknown as FastifyReply;
      const number = request.params.number;
      const parcel = TRACKING.test(number)
        ? await app.db
            .selectFrom('embedded_pod_orders')
            .select(['status', 'tracking_number', 'created_at', 'updated_at'])
            .where('tracking_number', '=', number)
            .executeTakeFirst()
        : undefined;
      if (!parcel) throw AppError.notFound(FULFILMENT_MESSAGES.unknownParcel);
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(parcelPage({ trackingNumber: number, status: parcel.status, updatedAt: parcel.updated_at }));
    },
  });
};

export default fulfilmentWebhooks;
