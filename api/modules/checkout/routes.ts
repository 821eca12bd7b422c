/**
 * Checkout routes: the shipping quote, opening a hosted checkout for a cart (Stripe's, or the
 * embedded payment page), the success page's look-up of the order a session made, and the
 * buyer's order page behind its secret link.
 *
 * If the payment provider cannot open a session, the answer is 502 and the order stays pending
 * with no session: nothing can be charged for it, and a retry with the same idempotency key
 * finds the same order and asks the provider again. No cleanup is needed.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import {
  calculateShippingRoute,
  CHECKOUT_MESSAGES,
  checkoutSessionRoute,
  createCheckoutSessionRoute,
  orderRoute,
  placeOrderRoute,
} from '../../../shared/schemas/checkout.ts';
import { RateLimiter } from '../../platform/http/rate-limit.ts';
import { AppError } from '../../platform/http/errors.ts';
import { checkoutService } from './service.ts';

/** Checkouts one address may open a minute; generous, since each creates an order. */
export const CHECKOUTS_PER_MINUTE = 60;
export const QUOTES_PER_MINUTE = 120;
const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** The spec's messages for a body the schema refused, by the field it refused. */
function validationMessage(err: FastifyError): string | null {
  const first = err.validation?.[0];
  const path = first?.instancePath ?? '';
  if (/^\/cart\/\d+\/quantity$/.test(path)) return CHECKOUT_MESSAGES.badQuantity;
  if (/^\/cart\/\d+\/variant_id$/.test(path)) return CHECKOUT_MESSAGES.unknownVariant;
  if (/^\/cart\/\d+\/product_id$/.test(path)) return CHECKOUT_MESSAGES.unknownProduct;
  if (/^\/cart\/\d+\/selected_screenshot$/.test(path)) return CHECKOUT_MESSAGES.unknownScreenshot;
  if (path === '/cart' && first?.keyword === 'maxItems') return CHECKOUT_MESSAGES.tooManyLines;
  if (path === '/shipping_address/zip') return CHECKOUT_MESSAGES.badZip;
  if (path === '/shipping_address/country_code') return CHECKOUT_MESSAGES.badCountry;
  return null;
}

/** The checkbox's answer; the app coerces "true" or 1 elsewhere, but a consent must be given as exactly true or false. */
export const SMS_CONSENT_MESSAGE = 'SMS consent must be true or false.';

/** Runs before the schema (and its type coercion) sees the body. */
async function strictSmsConsent(request: FastifyRequest): Promise<void> {
  const body = request.body;
  if (typeof body !== 'object' || body === null || !('sms_consent' in body)) return;
  if (typeof (body as { sms_consent: unknown }).sms_consent !== 'boolean') throw AppError.badRequest(SMS_CONSENT_MESSAGE);
}

function refuseInvalid(request: FastifyRequest): void {
  const err = request.validationError as FastifyError | undefined;
  if (!err) return;
  const message = validationMessage(err);
  if (message) throw AppError.badRequest(message);
  throw err;
}

const checkout: FastifyPluginAsyncTypebox = async (app) => {
  const { config } = app;
  const service = checkoutService({ db: app.db, catalogue: app.catalogue, shipping: app.shipping, publicUrl: config.publicUrl });
  const checkouts = new RateLimiter(app.db, 'checkout', CHECKOUTS_PER_MINUTE, 60_000);
  const quotes = new RateLimiter(app.db, 'shipping-quote', QUOTES_PER_MINUTE, 60_000);

  /**
   * Per-address limit. With CHECKOUT_LIMIT_LOOPBACK off, loopback is exempt: development, the
   * load bench and the API tests run every buyer from 127.0.0.1.
   */
  async function limit(limiter: RateLimiter, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (!config.checkoutLimitLoopback && LOOPBACK.has(request.ip)) return;
    await limiter.takeOrRefuse(request.ip, reply, 'Too many checkout attempts from your address. Please wait a minute and try again.');
  }

  app.route({
    ...calculateShippingRoute,
    attachValidation: true,
    handler: async (request, reply) => {
      refuseInvalid(request);
      await limit(quotes, request, reply);
      const rate = await service.quote(request.body, request.log);
      return {
        success: true as const,
        shipping_cost: rate.cents / 100,
        shipping_cost_cents: rate.cents,
        shipping_method: rate.method,
        currency: 'USD' as const,
      };
    },
  });

  app.route({
    ...createCheckoutSessionRoute,
    attachValidation: true,
    preValidation: strictSmsConsent,
    handler: async (request, reply) => {
      refuseInvalid(request);
      await limit(checkouts, request, reply);
      const { orderId, session } = await service.checkout(app.payments, request.body, request.user?.id ?? null, request.log);
      return { success: true as const, url: session.url, order_id: orderId, session_id: session.sessionId };
    },
  });

  app.route({
    ...placeOrderRoute,
    attachValidation: true,
    preValidation: strictSmsConsent,
    handler: async (request, reply) => {
      refuseInvalid(request);
      await limit(checkouts, request, reply);
      // The same pending order as create-checkout-session; only a payment event ever marks it paid.
      const { orderId, session } = await service.checkout(app.payments, request.body, request.user?.id ?? null, request.log);
      return { success: true as const, next_url: session.url, order_id: orderId };
    },
  });

  app.route({
    ...checkoutSessionRoute,
    handler: async (request) => {
      const order = await service.sessionOrder(request.params.sessionId);
      return { success: true as const, order_id: order.id, status: order.status, order_url: order.pagePath, tracking_url: order.trackingUrl };
    },
  });

  app.route({
    ...orderRoute,
    handler: async (request) => ({ success: true as const, order: await service.orderView(request.params.id, request.query.token) }),
  });
};

export default checkout;
