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
import type { FastifyError, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import {
  calculateShippingRoute,
  CHECKOUT_MESSAGES,
  checkoutSessionRoute,
  createCheckoutSessionRoute,
  orderRoute,
  placeOrderRoute,
  type CheckoutBody,
  type OrderReply,
} from '../../../shared/schemas/checkout.ts';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import { addressLines } from '../../../shared/shop/address.ts';
import { FailureLimiter } from '../../platform/http/rate-limit.ts';
import { AppError } from '../../platform/http/errors.ts';
import { checkAddress, createOrder, orderIdByIdempotencyKey, priceCart, sessionRequestFor, shippingLines, usableEmail } from './service.ts';
import { mediaUrl } from '../../platform/storage/media-urls.ts';
import { checkOrderAccessToken, orderPagePath } from '../orders/order-links.ts';
import { shippingProvider } from '../../integrations/printful/shipping.ts';
import { ShippingUnavailableError } from '../../integrations/printful/shipping-provider.ts';

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

function refuseInvalid(request: FastifyRequest): void {
  const err = request.validationError as FastifyError | undefined;
  if (!err) return;
  const message = validationMessage(err);
  if (message) throw AppError.badRequest(message);
  throw err;
}

const checkout: FastifyPluginAsyncTypebox = async (app) => {
  const { config, db, catalogue } = app;
  const shipping = shippingProvider(config, catalogue);
  const checkouts = new FailureLimiter(CHECKOUTS_PER_MINUTE, 60_000);
  const quotes = new FailureLimiter(QUOTES_PER_MINUTE, 60_000);

  /**
   * Per-address limit. Outside production, loopback is exempt: the load bench and the browser
   * tests run every buyer from 127.0.0.1.
   */
  function limit(limiter: FailureLimiter, request: FastifyRequest): void {
    if (config.env !== 'production' && LOOPBACK.has(request.ip)) return;
    if (limiter.blocked(request.ip)) {
      throw new AppError(429, ERROR_CODES.RATE_LIMITED, 'Too many checkout attempts from your address. Please wait a minute and try again.');
    }
    limiter.fail(request.ip);
  }

  /** The order for this request: the one its idempotency key already made, else a new one. */
  async function orderFor(request: FastifyRequest, body: CheckoutBody): Promise<string> {
    const key = body.idempotency_key ?? null;
    if (key) {
      const existing = await orderIdByIdempotencyKey(db, key);
      if (existing) return existing;
    }
    let priced;
    try {
      priced = await priceCart(catalogue, db, shipping, body);
    } catch (err) {
      if (err instanceof ShippingUnavailableError) {
        request.log.warn({ err }, 'shipping quote failed');
        throw new AppError(502, ERROR_CODES.SERVICE_UNAVAILABLE, CHECKOUT_MESSAGES.shippingDefault);
      }
      throw err;
    }
    const { orderId } = await createOrder(db, priced, {
      email: usableEmail(body.email),
      smsConsent: body.sms_consent === true,
      idempotencyKey: key,
      customerUserId: request.user?.id ?? null,
    });
    return orderId;
  }

  /** Asks the payment provider for the order's hosted checkout and notes it on the order. */
  async function openSession(request: FastifyRequest, orderId: string) {
    const sessionRequest = await sessionRequestFor(db, orderId, config.publicUrl);
    let session;
    try {
      session = await app.payments.createCheckoutSession(sessionRequest);
    } catch (err) {
      request.log.error({ err, orderId }, 'the payment provider did not open a checkout session');
      throw new AppError(502, ERROR_CODES.SERVICE_UNAVAILABLE, CHECKOUT_MESSAGES.paymentUnavailable);
    }
    await db
      .updateTable('orders')
      .set({ payment_provider: app.payments.kind, payment_session_id: session.sessionId, updated_at: sql<Date>`now()` })
      .where('id', '=', orderId)
      .execute();
    return session;
  }

  app.route({
    ...calculateShippingRoute,
    attachValidation: true,
    handler: async (request) => {
      refuseInvalid(request);
      limit(quotes, request);
      const { zip, country } = checkAddress(request.body.shipping_address);
      const lines = shippingLines(catalogue, request.body.cart);
      let rate;
      try {
        rate = await shipping.quote(lines, zip, country);
      } catch (err) {
        if (!(err instanceof ShippingUnavailableError)) throw err;
        request.log.warn({ err }, 'shipping quote failed');
        throw new AppError(502, ERROR_CODES.SERVICE_UNAVAILABLE, CHECKOUT_MESSAGES.shippingDefault);
      }
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
    handler: async (request) => {
      refuseInvalid(request);
      limit(checkouts, request);
      const orderId = await orderFor(request, request.body);
      const session = await openSession(request, orderId);
      return { success: true as const, url: session.url, order_id: orderId, session_id: session.sessionId };
    },
  });

  app.route({
    ...placeOrderRoute,
    attachValidation: true,
    handler: async (request) => {
      refuseInvalid(request);
      limit(checkouts, request);
      // The same pending order as create-checkout-session; only a payment event ever marks it paid.
      const orderId = await orderFor(request, request.body);
      const session = await openSession(request, orderId);
      return { success: true as const, next_url: session.url, order_id: orderId };
    },
  });

  app.route({
    ...checkoutSessionRoute,
    handler: async (request) => {
      const order = await db
        .selectFrom('orders')
        .select(['id', 'status', 'tracking_url'])
        .where('payment_session_id', '=', request.params.sessionId)
        .executeTakeFirst();
      if (!order) throw AppError.notFound(CHECKOUT_MESSAGES.orderNotFound);
      return {
        success: true as const,
        order_id: order.id,
        status: order.status,
        order_url: await orderPagePath(db, order.id),
        tracking_url: order.tracking_url,
      };
    },
  });

  app.route({
    ...orderRoute,
    handler: async (request) => {
      const { id } = request.params;
      // A wrong token and a missing order answer the same, so ids cannot be probed.
      if (!(await checkOrderAccessToken(db, id, request.query.token))) throw AppError.notFound(CHECKOUT_MESSAGES.orderNotFound);
      const order = await db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst();
      if (!order) throw AppError.notFound(CHECKOUT_MESSAGES.orderNotFound);
      const items = await db
        .selectFrom('order_items as i')
        .leftJoin('merch_screenshots as s', 's.id', 'i.screenshot_id')
        .leftJoin('merch_products as p', 'p.id', 'i.merch_product_id')
        .select([
          'i.product_name',
          'i.sku',
          'i.colour',
          'i.handle_colour',
          'i.size',
          'i.quantity',
          'i.unit_price_cents',
          'i.size_surcharge_cents',
          'i.line_total_cents',
          's.storage_key',
          'p.video_title',
        ])
        .where('i.order_id', '=', id)
        .orderBy('i.position')
        .execute();
      const history = await db
        .selectFrom('order_status_history')
        .select(['to_status', 'created_at'])
        .where('order_id', '=', id)
        .orderBy('id')
        .execute();
      const reply: OrderReply = {
        id: order.id,
        status: order.status,
        created_at: order.created_at.toISOString(),
        paid_at: order.paid_at ? order.paid_at.toISOString() : null,
        shipping_zip: order.shipping_zip,
        shipping_country: order.shipping_country,
        shipping_name: order.shipping_name,
        shipping_address_lines: addressLines(order.shipping_address, order.shipping_country),
        shipping_method: order.shipping_method,
        subtotal_cents: order.subtotal_cents,
        shipping_cents: order.shipping_cents,
        total_cents: order.total_cents,
        tracking_number: order.tracking_number,
        tracking_url: order.tracking_url,
        items: items.map((i) => ({
          product_name: i.product_name,
          sku: i.sku,
          colour: i.colour,
          handle_colour: i.handle_colour,
          size: i.size,
          quantity: i.quantity,
          // What the buyer paid for one: the price with its size surcharge.
          unit_price_cents: i.unit_price_cents + i.size_surcharge_cents,
          line_total_cents: i.line_total_cents,
          screenshot_url: i.storage_key ? mediaUrl('screenshots', i.storage_key) : null,
          video_title: i.video_title || null,
        })),
        history: history.map((h) => ({ status: h.to_status, at: h.created_at.toISOString() })),
      };
      return { success: true as const, order: reply };
    },
  });
};

export default checkout;
