/**
 * Checkout: the server prices a cart itself and turns it into a pending order.
 *
 * Every price comes from the catalogue (item price, size surcharge, base cost) and the shipping
 * provider; the screenshot, source video and creator come from the stored merch product. A cart
 * line names only what to make (product, variant, screenshot, quantity): anything else a client
 * sends is dropped by the schema before it gets here.
 *
 * The order, its items and its first status-history row are written in one statement (all or
 * nothing). A client-chosen idempotency key makes a repeated (or concurrent) request answer the
 * same order.
 *
 * Round trips of a new checkout: one read (the key and the cart's merch), one write (the order),
 * the payment provider's, and one update noting the session on the order. No transaction is held
 * open across any other work, and the payment session is asked for from the rows just written
 * rather than read back; a repeated request reads the stored order back instead.
 */
import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Catalogue, CatalogueProduct } from '../../../shared/catalogue/parse.ts';
import { CHECKOUT_COUNTRIES, type CheckoutCountry } from '../../../shared/constants.ts';
import { CHECKOUT_MESSAGES, type CheckoutBody } from '../../../shared/schemas/checkout.ts';
import { MAX_ITEM_QUANTITY, sizeSurchargeCents } from '../../../shared/shop/pricing.ts';
import { checkVariant, parseVariantId, type VariantChoice } from '../../../shared/shop/variants.ts';
import type { DB } from '../../platform/db/schema.ts';
import { AppError } from '../../platform/http/errors.ts';
import { ERROR_CODES } from '../../../shared/schemas/common.ts';
import type { CheckoutLineItem, CheckoutSession, CheckoutSessionRequest, PaymentProvider } from '../../integrations/stripe/index.ts';
import { ShippingUnavailableError, type ShippingProvider, type ShippingQuoteLine, type ShippingRate } from '../../integrations/printful/index.ts';
import { mediaUrl } from '../../platform/storage/media-urls.ts';
import { itemLabel } from '../orders/index.ts';
import { orderView, sessionOrder } from './order-page.ts';
import {
  cartMerch,
  insertPendingOrder,
  notePaymentSession,
  orderByIdempotencyKey,
  orderForSession,
  type CartMerch,
  type KeyedOrder,
  type NewOrder,
  type NewOrderItem,
} from './repository.ts';

/** ZIP / postal code patterns of the checkout countries (spaces and case as people type them). */
const POSTAL_CODES: Readonly<Record<CheckoutCountry, RegExp>> = {
  US: /^\d{5}(?:-?\d{4})?$/,
  CA: /^[A-Z]\d[A-Z] ?\d[A-Z]\d$/i,
  GB: /^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/i,
  AU: /^\d{4}$/,
  DE: /^\d{5}$/,
};

const EMAIL = /^[^\s@<>"',;]+@[^\s@<>"',;]+\.[^\s@<>"',;]+$/;

export interface ShippingAddressInput {
  zip: string;
  country_code: string;
}

/** The country and ZIP, checked; answers the ZIP trimmed (and upper-cased, as postal codes are written). */
export function checkAddress(address: ShippingAddressInput): { zip: string; country: CheckoutCountry } {
  const country = address.country_code.trim().toUpperCase();
  if (!(CHECKOUT_COUNTRIES as readonly string[]).includes(country)) throw AppError.badRequest(CHECKOUT_MESSAGES.badCountry);
  const zip = address.zip.trim().replace(/\s+/g, ' ').toUpperCase();
  if (!zip || !POSTAL_CODES[country as CheckoutCountry].test(zip)) throw AppError.badRequest(CHECKOUT_MESSAGES.badZip);
  return { zip, country: country as CheckoutCountry };
}

/** An email the buyer gave, when it looks like one; anything else is not kept. */
export function usableEmail(email: string | undefined): string | null {
  const e = (email ?? '').trim();
  return e.length > 0 && e.length <= 320 && EMAIL.test(e) ? e : null;
}

/** A variant id checked against the catalogue: the product and the choice, or unknownVariant. */
export function catalogueVariant(catalogue: Catalogue, variantId: string): { product: CatalogueProduct; variant: VariantChoice } {
  const choice = parseVariantId(variantId);
  const product = choice ? catalogue.products.find((p) => p.sku === choice.sku) : undefined;
  const variant = choice && product ? checkVariant(product, choice) : null;
  if (!product || !variant) throw AppError.badRequest(CHECKOUT_MESSAGES.unknownVariant);
  return { product, variant };
}

function checkQuantity(quantity: number): void {
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > MAX_ITEM_QUANTITY) throw AppError.badRequest(CHECKOUT_MESSAGES.badQuantity);
}

/** The lines of a shipping quote request, checked against the catalogue. */
export function shippingLines(catalogue: Catalogue, cart: ReadonlyArray<{ variant_id: string; quantity: number }>): ShippingQuoteLine[] {
  if (cart.length === 0) throw AppError.badRequest(CHECKOUT_MESSAGES.cartEmpty);
  return cart.map((line) => {
    checkQuantity(line.quantity);
    return { ...catalogueVariant(catalogue, line.variant_id), quantity: line.quantity };
  });
}

export interface PricedLine {
  position: number;
  product: CatalogueProduct;
  variant: VariantChoice;
  quantity: number;
  merchProductId: string;
  screenshotId: string;
  screenshotKey: string;
  videoId: string | null;
  creatorId: string | null;
  /** The catalogue price of the base size. */
  unitPriceCents: number;
  sizeSurchargeCents: number;
  baseCostCents: number;
  lineTotalCents: number;
}

export interface PricedCart {
  lines: PricedLine[];
  zip: string;
  country: CheckoutCountry;
  subtotalCents: number;
  shippingCents: number;
  shippingMethod: string;
  totalCents: number;
}

/** The merch products a cart names, each once. */
export const cartProductIds = (body: Pick<CheckoutBody, 'cart'>): string[] => [...new Set(body.cart.map((l) => l.product_id))];

/**
 * Prices a cart from the catalogue and the stored merch products (`merch`, read for
 * cartProductIds(body)): each line's product must exist, its variant must be one the catalogue
 * sells, and its screenshot one the product has.
 */
export async function priceCart(
  catalogue: Catalogue,
  merch: Pick<CartMerch, 'products' | 'shots'>,
  shipping: ShippingProvider,
  body: CheckoutBody,
): Promise<PricedCart> {
  const { zip, country } = checkAddress(body.shipping_address);
  if (body.cart.length === 0) throw AppError.badRequest(CHECKOUT_MESSAGES.cartEmpty);

  const { products, shots } = merch;

  const lines: PricedLine[] = body.cart.map((line, position) => {
    const merch = products.find((p) => p.id === line.product_id);
    if (!merch) throw AppError.badRequest(CHECKOUT_MESSAGES.unknownProduct);
    const { product, variant } = catalogueVariant(catalogue, line.variant_id);
    checkQuantity(line.quantity);
    const own = shots.filter((s) => s.merch_product_id === merch.id);
    // 'thumbnail' is the video's thumbnail; a number is the nth capture or crop, in order.
    const shot =
      line.selected_screenshot === 'thumbnail'
        ? own.find((s) => s.kind === 'thumbnail')
        : own.filter((s) => s.kind !== 'thumbnail')[line.selected_screenshot];
    if (!shot) throw AppError.badRequest(CHECKOUT_MESSAGES.unknownScreenshot);
    const surcharge = sizeSurchargeCents(product, variant.size);
    return {
      position,
      product,
      variant,
      quantity: line.quantity,
      merchProductId: merch.id,
      screenshotId: shot.id,
      screenshotKey: shot.storage_key,
      videoId: merch.video_id,
      creatorId: merch.creator_id,
      unitPriceCents: product.priceCents,
      sizeSurchargeCents: surcharge,
      baseCostCents: product.baseCostCents,
      lineTotalCents: (product.priceCents + surcharge) * line.quantity,
    };
  });

  const rate = await shipping.quote(
    lines.map((l) => ({ product: l.product, variant: l.variant, quantity: l.quantity })),
    zip,
    country,
  );
  const subtotalCents = lines.reduce((sum, l) => sum + l.lineTotalCents, 0);
  if (!Number.isSafeInteger(subtotalCents + rate.cents) || rate.cents < 0) throw new Error('order total out of range');
  return { lines, zip, country, subtotalCents, shippingCents: rate.cents, shippingMethod: rate.method, totalCents: subtotalCents + rate.cents };
}

export interface OrderOptions {
  email: string | null;
  smsConsent: boolean;
  idempotencyKey: string | null;
  /** What the key is bound to (checkoutFingerprint); null without a key. */
  idempotencyFingerprint: string | null;
  /** The signed-in buyer, from the session (never from the body). */
  customerUserId: string | null;
}

/** A priced cart as it is stored: what createOrder writes, and what a new order's payment session is asked for. */
export interface OrderRows {
  order: NewOrder;
  items: NewOrderItem[];
}

export function orderRows(cart: PricedCart, options: OrderOptions): OrderRows {
  return {
    order: {
      customer_user_id: options.customerUserId,
      customer_email: options.email,
      shipping_zip: cart.zip,
      shipping_country: cart.country,
      shipping_method: cart.shippingMethod,
      subtotal_cents: cart.subtotalCents,
      shipping_cents: cart.shippingCents,
      total_cents: cart.totalCents,
      sms_consent: options.smsConsent,
      idempotency_key: options.idempotencyKey,
      idempotency_fingerprint: options.idempotencyFingerprint,
    },
    items: cart.lines.map((l) => ({
      position: l.position,
      sku: l.product.sku,
      product_name: l.product.name,
      merch_product_id: l.merchProductId,
      screenshot_id: l.screenshotId,
      video_id: l.videoId,
      creator_id: l.creatorId,
      colour: l.variant.colour,
      handle_colour: l.variant.handleColour,
      size: l.variant.size ?? 'One size',
      quantity: l.quantity,
      unit_price_cents: l.unitPriceCents,
      size_surcharge_cents: l.sizeSurchargeCents,
      base_cost_cents: l.baseCostCents,
      line_total_cents: l.lineTotalCents,
    })),
  };
}

/**
 * Writes the pending order, its items and its first history row in one statement (all or
 * nothing). With an idempotency key another request already used, nothing is written and that
 * order is answered (on PostgreSQL a concurrent insert of the same key waits for the first to
 * commit, then yields).
 */
export async function createOrder(db: Kysely<DB>, rows: OrderRows): Promise<{ orderId: string; created: boolean }> {
  const orderId = await insertPendingOrder(db, rows.order, rows.items, 'Order created');
  if (orderId) return { orderId, created: true };
  const key = rows.order.idempotency_key;
  const existing = key ? await orderByIdempotencyKey(db, key) : null;
  if (!existing) throw new Error('order insert yielded to an idempotency key that is not there');
  return { orderId: sameCheckout(existing, rows.order.idempotency_fingerprint), created: false };
}

/**
 * What an idempotency key is bound to: the cart's lines, the address, the email, the SMS consent
 * and the signed-in buyer, as the server reads them. The same request again has the same digest;
 * another buyer's request with that buyer's key does not, and is refused rather than shown their order.
 */
export function checkoutFingerprint(body: CheckoutBody, customerUserId: string | null): string {
  const { zip, country } = checkAddress(body.shipping_address);
  const lines = body.cart.map((l) => [l.product_id, l.variant_id, l.quantity, l.selected_screenshot]);
  const bound = [customerUserId, usableEmail(body.email)?.toLowerCase() ?? null, zip, country, body.sms_consent === true, lines];
  return createHash('sha256').update(JSON.stringify(bound)).digest('hex');
}

/** The keyed order's id when the request is the one the key was first used with; 409 otherwise (and nothing of that order). */
function sameCheckout(existing: KeyedOrder, fingerprint: string | null): string {
  if (fingerprint === null || existing.fingerprint !== fingerprint) throw new AppError(409, ERROR_CODES.CONFLICT, CHECKOUT_MESSAGES.keyReused);
  return existing.id;
}

/** What sessionRequest needs of an order, as stored. */
interface SessionOrder {
  id: string;
  shipping_cents: number;
  shipping_method: string;
  shipping_country: string;
  shipping_zip: string;
  total_cents: number;
  customer_email: string | null;
}

/** What sessionRequest needs of an order's item, as stored, with its picture's storage key. */
interface SessionItem {
  product_name: string;
  colour: string;
  handle_colour: string | null;
  size: string;
  quantity: number;
  unit_price_cents: number;
  size_surcharge_cents: number;
  storage_key: string | null;
}

/** What the payment provider is asked for an order: made from its stored rows only. */
export function sessionRequest(order: SessionOrder, items: readonly SessionItem[], publicUrl: string): CheckoutSessionRequest {
  const lineItems: CheckoutLineItem[] = items.map((i) => ({
    name: itemLabel(i),
    unitAmountCents: i.unit_price_cents + i.size_surcharge_cents,
    quantity: i.quantity,
    imageUrl: i.storage_key ? `${publicUrl}${mediaUrl('screenshots', i.storage_key)}` : null,
  }));
  return {
    orderId: order.id,
    lineItems,
    shippingCents: order.shipping_cents,
    shippingLabel: order.shipping_method,
    shippingCountry: order.shipping_country,
    shippingZip: order.shipping_zip,
    totalCents: order.total_cents,
    customerEmail: order.customer_email,
    successUrl: `${publicUrl}/success?session_id={CHECKOUT_SESSION_ID}`,
    cancelUrl: `${publicUrl}/checkout`,
    idempotencyKey: `checkout-session:${order.id}`,
  };
}

/**
 * What the payment provider is asked for an order, read back from the stored order so a
 * repeated request asks for exactly the same session.
 */
export async function sessionRequestFor(db: Kysely<DB>, orderId: string, publicUrl: string): Promise<CheckoutSessionRequest> {
  const { order, items } = await orderForSession(db, orderId);
  return sessionRequest(order, items, publicUrl);
}

type Log = Pick<FastifyBaseLogger, 'warn' | 'error'>;

/** A shipping quote the print shop could not give is the buyer's 502 with the shipping message. */
async function quoted<T>(log: Log, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof ShippingUnavailableError)) throw err;
    log.warn({ err }, 'shipping quote failed');
    throw new AppError(502, ERROR_CODES.SERVICE_UNAVAILABLE, CHECKOUT_MESSAGES.shippingDefault);
  }
}

export interface CheckoutDeps {
  db: Kysely<DB>;
  catalogue: Catalogue;
  shipping: ShippingProvider;
  /** The site's origin, for the payment page's return links and pictures. */
  publicUrl: string;
}

/** Checkout's operations, made once when the routes start. */
export function checkoutService(deps: CheckoutDeps) {
  const { db, catalogue, shipping, publicUrl } = deps;
  return {
    /** The shipping of a cart to a ZIP and country. */
    async quote(body: { shipping_address: ShippingAddressInput; cart: ReadonlyArray<{ variant_id: string; quantity: number }> }, log: Log): Promise<ShippingRate> {
      const { zip, country } = checkAddress(body.shipping_address);
      const lines = shippingLines(catalogue, body.cart);
      return quoted(log, () => shipping.quote(lines, zip, country));
    },

    /**
     * The order for a checkout: the one its idempotency key already made, else a new one. A new
     * order comes with the payment session request made from the rows just written (the same
     * sessionRequest reads back for a stored one), so it is not read back.
     */
    async orderFor(body: CheckoutBody, customerUserId: string | null, log: Log): Promise<{ orderId: string; request: CheckoutSessionRequest | null }> {
      const key = body.idempotency_key ?? null;
      const fingerprint = key ? checkoutFingerprint(body, customerUserId) : null;
      const merch = await cartMerch(db, key, cartProductIds(body));
      if (merch.existing) return { orderId: sameCheckout(merch.existing, fingerprint), request: null };
      const priced = await quoted(log, () => priceCart(catalogue, merch, shipping, body));
      const rows = orderRows(priced, {
        email: usableEmail(body.email),
        smsConsent: body.sms_consent === true,
        idempotencyKey: key,
        idempotencyFingerprint: fingerprint,
        customerUserId,
      });
      const { orderId, created } = await createOrder(db, rows);
      if (!created) return { orderId, request: null };
      const items = rows.items.map((i, n) => ({ ...i, storage_key: priced.lines[n]!.screenshotKey }));
      return { orderId, request: sessionRequest({ id: orderId, ...rows.order }, items, publicUrl) };
    },

    /**
     * Asks the payment provider for the order's hosted checkout and notes it on the order; a
     * provider that cannot open one is a 502 that leaves the order pending with no session.
     * `request` is the order's session request when the caller has it (a new order), else it is
     * read back from the stored order.
     */
    async openSession(payments: PaymentProvider, orderId: string, log: Log, request: CheckoutSessionRequest | null = null): Promise<CheckoutSession> {
      const asked = request ?? (await sessionRequestFor(db, orderId, publicUrl));
      let session;
      try {
        session = await payments.createCheckoutSession(asked);
      } catch (err) {
        log.error({ err, orderId }, 'the payment provider did not open a checkout session');
        throw new AppError(502, ERROR_CODES.SERVICE_UNAVAILABLE, CHECKOUT_MESSAGES.paymentUnavailable);
      }
      await notePaymentSession(db, orderId, payments.kind, session.sessionId);
      return session;
    },

    /** The order for a checkout and its hosted payment session. */
    async checkout(payments: PaymentProvider, body: CheckoutBody, customerUserId: string | null, log: Log) {
      const { orderId, request } = await this.orderFor(body, customerUserId, log);
      return { orderId, session: await this.openSession(payments, orderId, log, request) };
    },

    sessionOrder: (sessionId: string) => sessionOrder(db, sessionId),
    orderView: (orderId: string, token: string) => orderView(db, orderId, token),
  };
}
