/**
 * Payments sit behind this interface. Two adapters: Stripe Checkout when STRIPE_SECRET_KEY is
 * set, and the embedded provider (its own hosted payment page in this app) when it is not.
 * Both announce outcomes the same way: Stripe-format events, signed with Stripe's scheme, POSTed
 * to /api/webhooks/stripe, where one code path verifies and applies them.
 */
import type Stripe from 'stripe';

export interface CheckoutLineItem {
  name: string;
  /** Unit price in cents, from the catalogue (size surcharge included). */
  unitAmountCents: number;
  quantity: number;
  /** Absolute URL of the item's picture, when there is one. */
  imageUrl: string | null;
}

export interface CheckoutSessionRequest {
  orderId: string;
  lineItems: CheckoutLineItem[];
  shippingCents: number;
  shippingLabel: string;
  /** The country the shipping was quoted for (ISO 3166 alpha-2): the only one the address may be in. */
  shippingCountry: string;
  /** The ZIP or postal code the shipping was quoted for: the payment page starts with it. */
  shippingZip?: string;
  totalCents: number;
  customerEmail: string | null;
  /** May hold Stripe's {CHECKOUT_SESSION_ID} placeholder. */
  successUrl: string;
  cancelUrl: string;
  /** The same key always answers the same session (a repeated request creates nothing new). */
  idempotencyKey: string;
}

export interface CheckoutSession {
  sessionId: string;
  url: string;
}

/** A verified event, in Stripe's shape whichever provider sent it. */
export type PaymentEvent = Stripe.Event;

/** A Checkout Session in subscription mode: a monthly price with a free trial, for one user. */
export interface SubscriptionCheckoutRequest {
  /** The signed-in user: put in the session's and the subscription's metadata (user_id) and client_reference_id. */
  userId: string;
  customerEmail: string | null;
  /** Stripe's customer when the user already has one (a resubscription), so cards and invoices stay together. */
  customerId: string | null;
  productName: string;
  /** Monthly price in cents (SUBSCRIPTION_TIERS.pro.monthlyPriceCents). */
  monthlyPriceCents: number;
  trialDays: number;
  /** May hold Stripe's {CHECKOUT_SESSION_ID} placeholder. */
  successUrl: string;
  cancelUrl: string;
  /** The same key always answers the same session. */
  idempotencyKey: string;
}

/** A subscription-mode session as the provider reports it now (for /subscription-success's verification). */
export interface SubscriptionSessionInfo {
  sessionId: string;
  status: 'open' | 'complete' | 'expired';
  /** The user the session was opened for (its metadata), as the provider holds it. */
  userId: string | null;
  subscriptionId: string | null;
  customerId: string | null;
}

export interface PaymentProvider {
  readonly kind: 'stripe' | 'embedded';
  createCheckoutSession(request: CheckoutSessionRequest): Promise<CheckoutSession>;
  /** A hosted page where the user starts a subscription (Stripe Checkout, mode subscription; or the embedded page). */
  createSubscriptionCheckout(request: SubscriptionCheckoutRequest): Promise<CheckoutSession>;
  /** A subscription-mode session by id; null when the provider knows no such session. */
  retrieveSubscriptionSession(sessionId: string): Promise<SubscriptionSessionInfo | null>;
  /**
   * The subscription as the provider holds it now, as a Stripe Subscription object (the shape
   * customer.subscription.* events carry); null when unknown. Lets the server catch up without
   * waiting for a webhook (a verified session), through the same rules as the events.
   */
  retrieveSubscription(subscriptionId: string): Promise<Stripe.Subscription | null>;
  /** Where the subscriber cancels or changes the card (Stripe's customer portal, or the embedded provider's page). */
  manageSubscriptionUrl(customerId: string, returnUrl: string): Promise<string>;
  /**
   * Checks the Stripe-Signature header against the raw request body (and its timestamp
   * against the tolerance) and answers the parsed event; throws on any mismatch.
   */
  verifyWebhook(rawBody: Buffer, signatureHeader: string | undefined): PaymentEvent;
  /** Refunds an order's payment in full; the outcome arrives later as a charge.refunded event. */
  refund(paymentIntentId: string): Promise<void>;
  /**
   * The checkout payments (payment mode) that succeeded at the provider since `since`, refunded
   * ones marked so: what reconciliation holds the orders against.
   */
  succeededPayments(since: Date): Promise<SucceededPayment[]>;
}

/** A checkout payment the provider took. */
export interface SucceededPayment {
  sessionId: string;
  paymentIntentId: string | null;
  /** The order named in the session's metadata. */
  orderId: string | null;
  amountCents: number;
  currency: string;
  /** Given back in full already. */
  refunded: boolean;
}

/** Stripe's default tolerance for a signature's timestamp. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
