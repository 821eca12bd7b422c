/**
 * Checkout, orders and the creator's sales: the routes a cart takes to become a paid order,
 * the buyer's order page, and the studio's analytics. Every price here is computed by the
 * server from the catalogue; prices a client sends are not part of any body and are dropped.
 */
import { Type, type Static } from 'typebox';
import { MAX_ITEM_QUANTITY } from '../shop/pricing.ts';
import { errorReplies, Timestamp, Uuid } from './common.ts';
import { defineRoute } from './route.ts';

/** Spec section 9: the countries checkout ships to, US first (the default). */
export const CHECKOUT_COUNTRIES = ['US', 'CA', 'GB', 'AU', 'DE'] as const;
export type CheckoutCountry = (typeof CHECKOUT_COUNTRIES)[number];
export const DEFAULT_COUNTRY: CheckoutCountry = 'US';
export const COUNTRY_NAMES: Readonly<Record<CheckoutCountry, string>> = {
  US: 'United States',
  CA: 'Canada',
  GB: 'United Kingdom',
  AU: 'Australia',
  DE: 'Germany',
};

/** Most lines one order may hold. */
export const MAX_ORDER_LINES = 50;
/** The checkout page calculates shipping on its own this long after the ZIP reaches ZIP_AUTO_LENGTH. */
export const SHIPPING_AUTO_DELAY_MS = 800;
export const ZIP_AUTO_LENGTH = 5;

/** Messages of spec sections 5 and 8, quoted; the server's own refusals follow. */
export const CHECKOUT_MESSAGES = {
  zipFirst: 'Please enter your ZIP / Postal Code first.',
  zipBeforeProceeding: 'Please enter your ZIP / Postal Code before proceeding.',
  waitForShipping: 'Please wait for shipping calculation to complete.',
  addressMissing: 'Shipping address is missing. Please refresh and try again.',
  invalidShippingCost: (received: string) =>
    `Invalid shipping cost received (${received}). Please verify your ZIP code and try again.`,
  shippingNotFound: 'Shipping API endpoint not found (404). The backend may not be deployed. Please contact support.',
  shippingNetwork: (message: string) => `Network error: ${message}. Please check your connection and try again.`,
  shippingDefault: 'Unable to calculate shipping. Please verify your ZIP code and try again.',
  checkoutError: (detail: string) => `Checkout Error: ${detail}`,
  checkoutNetwork: 'Network error starting checkout',
  checkoutFailed: 'Failed to start checkout',
  checkoutException: (message: string) => `Checkout error: ${message}`,
  emptyCart: 'Your cart is empty',
  processing: 'Processing Order...',
  // The server's refusals, shown through 'Checkout Error: ...'.
  cartEmpty: 'Your cart is empty.',
  tooManyLines: `An order can hold at most ${MAX_ORDER_LINES} items.`,
  unknownProduct: 'An item in your cart is no longer available. Please remove it and try again.',
  unknownVariant: 'An item in your cart has a color or size that is no longer sold. Please remove it and add it again.',
  unknownScreenshot: 'The screenshot chosen for an item no longer exists. Please remove it and add it again.',
  badQuantity: `Each item's quantity must be a whole number from 1 to ${MAX_ITEM_QUANTITY}.`,
  badCountry: 'We ship to the United States, Canada, the United Kingdom, Australia and Germany.',
  badZip: 'Please enter a valid ZIP / Postal Code.',
  paymentUnavailable: 'Payments are unavailable right now. Please try again in a few minutes.',
  keyReused: 'This checkout was started with another cart or email. Please start a new checkout.',
  orderNotFound: 'Order not found.',
} as const;

export const ShippingAddress = Type.Object(
  {
    zip: Type.String({ maxLength: 20 }),
    country_code: Type.String({ maxLength: 2 }),
  },
  { additionalProperties: false },
);

/** A cart line as the shipping quote needs it: the catalogue variant (sku|colour|handle|size) and how many. */
export const ShippingCartLine = Type.Object(
  {
    variant_id: Type.String({ minLength: 1, maxLength: 200 }),
    quantity: Type.Integer({ minimum: 1, maximum: MAX_ITEM_QUANTITY }),
  },
  { additionalProperties: false },
);

export const calculateShippingRoute = defineRoute({
  method: 'POST',
  url: '/api/calculate-shipping',
  access: 'public',
  schema: {
    summary: "Quotes shipping for a cart to a ZIP and country, from the catalogue's rates or the print-on-demand provider's",
    tags: ['checkout'],
    body: Type.Object(
      {
        shipping_address: ShippingAddress,
        cart: Type.Array(ShippingCartLine, { maxItems: MAX_ORDER_LINES }),
      },
      { additionalProperties: false },
    ),
    response: {
      200: Type.Object({
        success: Type.Literal(true),
        /** In dollars, as the spec's client reads it; shipping_cost_cents is the exact figure. */
        shipping_cost: Type.Number(),
        shipping_cost_cents: Type.Integer(),
        shipping_method: Type.String(),
        currency: Type.Literal('USD'),
      }),
      ...errorReplies(400, 502),
    },
  },
});

/**
 * A cart line as checkout sends it. The product, variant and screenshot name what to print;
 * any price, name or creator the client adds is dropped before the handler sees the body.
 */
export const CheckoutCartLine = Type.Object(
  {
    product_id: Uuid,
    variant_id: Type.String({ minLength: 1, maxLength: 200 }),
    quantity: Type.Integer({ minimum: 1, maximum: MAX_ITEM_QUANTITY }),
    /** 'thumbnail' or the index of the product's screenshot. */
    selected_screenshot: Type.Union([Type.Literal('thumbnail'), Type.Integer({ minimum: 0, maximum: 5 })]),
  },
  { additionalProperties: false },
);

export const CheckoutBody = Type.Object(
  {
    shipping_address: ShippingAddress,
    cart: Type.Array(CheckoutCartLine, { maxItems: MAX_ORDER_LINES }),
    sms_consent: Type.Optional(Type.Boolean()),
    email: Type.Optional(Type.String({ maxLength: 320 })),
    /** Chosen by the page once per checkout attempt: a repeated request returns the same order. */
    idempotency_key: Type.Optional(Type.String({ minLength: 8, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' })),
  },
  { additionalProperties: false },
);
export type CheckoutBody = Static<typeof CheckoutBody>;

export const createCheckoutSessionRoute = defineRoute({
  method: 'POST',
  url: '/api/create-checkout-session',
  access: 'public',
  schema: {
    summary:
      'Prices the cart from the catalogue, creates the pending order and its items, and opens a hosted checkout (Stripe, or the embedded payment page)',
    tags: ['checkout'],
    body: CheckoutBody,
    response: {
      200: Type.Object({ success: Type.Literal(true), url: Type.String(), order_id: Uuid, session_id: Type.String() }),
      ...errorReplies(400, 409, 429, 502),
    },
  },
});

export const placeOrderRoute = defineRoute({
  method: 'POST',
  url: '/api/place-order',
  access: 'public',
  schema: {
    summary:
      'For clients that got no checkout url: creates (or finds) the same pending order and answers the payment page to go to. Never creates an order that ships unpaid.',
    tags: ['checkout'],
    body: CheckoutBody,
    response: {
      200: Type.Object({ success: Type.Literal(true), next_url: Type.String(), order_id: Uuid }),
      ...errorReplies(400, 409, 429, 502),
    },
  },
});

export const ORDER_STATUSES = ['pending', 'paid', 'submitted', 'in_production', 'shipped', 'delivered', 'cancelled', 'refunded'] as const;
export type OrderStatusName = (typeof ORDER_STATUSES)[number];

/** What a buyer reads about each status on the order page. */
export const ORDER_STATUS_LABELS: Readonly<Record<OrderStatusName, string>> = {
  pending: 'Awaiting payment',
  paid: 'Paid',
  submitted: 'Sent to the print shop',
  in_production: 'Being printed',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
};

export const OrderItemReply = Type.Object({
  product_name: Type.String(),
  sku: Type.String(),
  colour: Type.String(),
  handle_colour: Type.Union([Type.String(), Type.Null()]),
  size: Type.String(),
  quantity: Type.Integer(),
  unit_price_cents: Type.Integer(),
  line_total_cents: Type.Integer(),
  screenshot_url: Type.Union([Type.String(), Type.Null()]),
  video_title: Type.Union([Type.String(), Type.Null()]),
});

export const OrderReply = Type.Object({
  id: Uuid,
  status: Type.Enum(ORDER_STATUSES),
  created_at: Timestamp,
  paid_at: Type.Union([Timestamp, Type.Null()]),
  shipping_zip: Type.String(),
  shipping_country: Type.String(),
  /** The name and street address given at payment, once paid (none before). */
  shipping_name: Type.Union([Type.String(), Type.Null()]),
  /** That address as the lines of a label: street, city with state and postal code, country. */
  shipping_address_lines: Type.Array(Type.String()),
  shipping_method: Type.String(),
  subtotal_cents: Type.Integer(),
  shipping_cents: Type.Integer(),
  total_cents: Type.Integer(),
  tracking_number: Type.Union([Type.String(), Type.Null()]),
  tracking_url: Type.Union([Type.String(), Type.Null()]),
  items: Type.Array(OrderItemReply),
  history: Type.Array(Type.Object({ status: Type.String(), at: Timestamp })),
});
export type OrderReply = Static<typeof OrderReply>;

export const orderRoute = defineRoute({
  method: 'GET',
  url: '/api/orders/:id',
  access: 'public',
  schema: {
    summary: "A buyer's order, status history and tracking, for the holder of the order's secret link (no account needed)",
    tags: ['checkout'],
    params: Type.Object({ id: Uuid }, { additionalProperties: false }),
    querystring: Type.Object({ token: Type.String({ minLength: 10, maxLength: 200 }) }),
    response: { 200: Type.Object({ success: Type.Literal(true), order: OrderReply }), ...errorReplies(400, 404) },
  },
});

export const checkoutSessionRoute = defineRoute({
  method: 'GET',
  url: '/api/checkout/sessions/:sessionId',
  access: 'public',
  schema: {
    summary:
      "The order a finished checkout session made, for the success page: its id, status, tracking, and the order page's secret link",
    tags: ['checkout'],
    params: Type.Object({ sessionId: Type.String({ minLength: 10, maxLength: 200, pattern: '^cs_[A-Za-z0-9_]+$' }) }, { additionalProperties: false }),
    response: {
      200: Type.Object({
        success: Type.Literal(true),
        order_id: Uuid,
        status: Type.String(),
        order_url: Type.String(),
        tracking_url: Type.Union([Type.String(), Type.Null()]),
      }),
      ...errorReplies(400, 404),
    },
  },
});

export const ProductSold = Type.Object({
  product: Type.String(),
  quantity: Type.Integer(),
  revenue_cents: Type.Integer(),
  video_source: Type.Object({
    id: Type.Union([Uuid, Type.Null()]),
    title: Type.String(),
    /** The video's category, for the video page's address (/video/:categoryId/:videoId). */
    category_id: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  }),
});

export const SalesAnalytics = Type.Object({
  /** Paid orders that hold at least one of the creator's items (refunded ones not counted). */
  total_sales: Type.Integer(),
  /** What buyers paid for the creator's items (item prices with surcharges; shipping excluded). */
  total_revenue_cents: Type.Integer(),
  products_sold_count: Type.Integer(),
  videos_with_sales_count: Type.Integer(),
  avg_order_value_cents: Type.Integer(),
  /** The creator's share of those sales, net of reversals. */
  earnings_cents: Type.Integer(),
  products_sold: Type.Array(ProductSold),
});
export type SalesAnalytics = Static<typeof SalesAnalytics>;

export const salesAnalyticsRoute = defineRoute({
  method: 'GET',
  url: '/api/studio/analytics',
  access: 'creator',
  schema: {
    summary: "The signed-in creator's sales of merch made from their videos, from the earning records",
    tags: ['studio'],
    response: { 200: Type.Object({ success: Type.Literal(true), analytics: SalesAnalytics }), ...errorReplies(401, 403) },
  },
});

/**
 * Where the payment provider announces outcomes (Stripe's events, or the embedded provider's in
 * the same format). The body is not parsed by schema: the signature is checked on its raw bytes.
 */
export const stripeWebhookRoute = defineRoute({
  method: 'POST',
  url: '/api/webhooks/stripe',
  access: 'public',
  schema: {
    summary:
      'Payment events (checkout completed or expired, charge refunded), signed with the Stripe-Signature scheme; each event id takes effect at most once',
    tags: ['checkout'],
    response: {
      200: Type.Object({ received: Type.Literal(true), duplicate: Type.Optional(Type.Boolean()) }),
      ...errorReplies(400, 413, 415),
    },
  },
});

/**
 * The embedded payment provider's hosted payment page (used when no Stripe key is set): an
 * HTML page of this app, standing in for Stripe's hosted checkout. It takes Stripe's test cards.
 */
export const embeddedPaymentPageRoute = defineRoute({
  method: 'GET',
  url: '/pay/:sessionId',
  access: 'public',
  schema: {
    summary: "The embedded provider's hosted payment page for a checkout session (an HTML page: items, shipping, total, card form)",
    tags: ['checkout'],
    params: Type.Object({ sessionId: Type.String({ maxLength: 200 }) }, { additionalProperties: false }),
    response: { 200: Type.String({ description: 'text/html' }), 404: Type.String({ description: 'text/html' }) },
  },
});

/** The payment page's form: a test card pays (303 to the success url), a declined one answers the page again (402). */
export const embeddedPaymentSubmitRoute = defineRoute({
  method: 'POST',
  url: '/pay/:sessionId',
  access: 'public',
  schema: {
    summary:
      "Pays an embedded checkout session with a test card and a shipping address in the quoted country (form post): 4242 4242 4242 4242 pays and redirects to the success url, 4000 0000 0000 0002 is declined",
    tags: ['checkout'],
    params: Type.Object({ sessionId: Type.String({ maxLength: 200 }) }, { additionalProperties: false }),
    body: Type.Object({
      email: Type.Optional(Type.String({ maxLength: 1000 })),
      card_number: Type.Optional(Type.String({ maxLength: 1000 })),
      expiry: Type.Optional(Type.String({ maxLength: 1000 })),
      cvc: Type.Optional(Type.String({ maxLength: 1000 })),
      name: Type.Optional(Type.String({ maxLength: 1000 })),
      address_line1: Type.Optional(Type.String({ maxLength: 1000 })),
      address_line2: Type.Optional(Type.String({ maxLength: 1000 })),
      city: Type.Optional(Type.String({ maxLength: 1000 })),
      state: Type.Optional(Type.String({ maxLength: 1000 })),
      postal_code: Type.Optional(Type.String({ maxLength: 1000 })),
    }),
    response: {
      200: Type.String({ description: 'text/html' }),
      400: Type.String({ description: 'text/html' }),
      402: Type.String({ description: 'text/html' }),
      404: Type.String({ description: 'text/html' }),
      409: Type.String({ description: 'text/html' }),
    },
  },
});
