/**
 * What the buyer reads after paying: the success page's look-up of the order a session made,
 * and the order page behind its secret link.
 */
import type { Kysely } from 'kysely';
import { CHECKOUT_MESSAGES, type OrderReply } from '../../../shared/schemas/checkout.ts';
import { addressLines } from '../../../shared/shop/address.ts';
import type { DB } from '../../platform/db/schema.ts';
import { AppError } from '../../platform/http/errors.ts';
import { mediaUrl } from '../../platform/storage/media-urls.ts';
import { checkOrderAccessToken, orderPagePath } from '../orders/index.ts';
import { orderBySession, orderPage } from './repository.ts';

/** The order a checkout session made, with its page's link. */
export async function sessionOrder(db: Kysely<DB>, sessionId: string) {
  const order = await orderBySession(db, sessionId);
  if (!order) throw AppError.notFound(CHECKOUT_MESSAGES.orderNotFound);
  return { id: order.id, status: order.status, trackingUrl: order.tracking_url, pagePath: await orderPagePath(db, order.id) };
}

/** The order page; a wrong token and a missing order answer the same, so ids cannot be probed. */
export async function orderView(db: Kysely<DB>, id: string, token: string): Promise<OrderReply> {
  const page = (await checkOrderAccessToken(db, id, token)) ? await orderPage(db, id) : null;
  if (!page) throw AppError.notFound(CHECKOUT_MESSAGES.orderNotFound);
  const { order, items, history } = page;
  return {
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
}
