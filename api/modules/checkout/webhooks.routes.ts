/**
 * POST /api/webhooks/stripe: payment events from Stripe, or from the embedded provider in the
 * same format. The signature covers the exact bytes sent, so this plugin (encapsulated: the
 * rest of the API still parses JSON as usual) keeps JSON bodies as raw buffers, verifies them,
 * and only then reads the event. A refused event writes nothing.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { stripeWebhookRoute } from '../../../shared/schemas/checkout.ts';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import { AppError } from '../../platform/http/errors.ts';
import type { PaymentEvent } from '../../integrations/stripe/index.ts';
import { applyPaymentEvent } from './payment-events.ts';

/** Stripe's events are a few kilobytes; this leaves room for large line-item lists. */
export const WEBHOOK_BODY_LIMIT = 1024 * 1024;
const MAX_EVENT_ID_LENGTH = 255;

function isEvent(v: unknown): v is PaymentEvent {
  const e = v as Partial<PaymentEvent> | null;
  return (
    typeof e === 'object' &&
    e !== null &&
    typeof e.id === 'string' &&
    e.id.length > 0 &&
    e.id.length <= MAX_EVENT_ID_LENGTH &&
    typeof e.type === 'string' &&
    e.type.length > 0 &&
    typeof e.data === 'object' &&
    e.data !== null &&
    typeof e.data.object === 'object' &&
    e.data.object !== null
  );
}

function parsesAsJson(raw: Buffer): boolean {
  try {
    JSON.parse(raw.toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

const webhooks: FastifyPluginAsyncTypebox = async (app) => {
  const { db, config } = app;
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) => {
    done(null, body);
  });

  app.route({
    ...stripeWebhookRoute,
    bodyLimit: WEBHOOK_BODY_LIMIT,
    handler: async (request) => {
      const raw = request.body;
      if (!Buffer.isBuffer(raw)) {
        throw new AppError(415, ERROR_CODES.UNSUPPORTED_MEDIA_TYPE, 'Payment events must be sent as application/json.');
      }
      const header = request.headers['stripe-signature'];
      let event: unknown;
      try {
        event = app.payments.verifyWebhook(raw, typeof header === 'string' ? header : undefined);
      } catch (err) {
        request.log.warn({ reason: err instanceof Error ? err.message : String(err) }, 'payment event refused');
        if (!parsesAsJson(raw)) throw new AppError(400, ERROR_CODES.MALFORMED_REQUEST, 'The request body is not valid JSON.');
        throw new AppError(400, ERROR_CODES.INVALID_SIGNATURE, 'The event signature could not be verified.');
      }
      if (!isEvent(event)) throw new AppError(400, ERROR_CODES.MALFORMED_REQUEST, 'The event is not a payment event.');
      const outcome = await applyPaymentEvent({ db, publicUrl: config.publicUrl, log: request.log }, event);
      if (outcome.duplicate) return { received: true as const, duplicate: true };
      request.log.info({ eventId: event.id, type: event.type, effect: outcome.effect, orderId: outcome.orderId }, 'payment event applied');
      return { received: true as const, duplicate: false };
    },
  });
};

export default webhooks;
