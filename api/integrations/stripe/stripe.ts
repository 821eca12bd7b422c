/**
 * Stripe Checkout: a hosted Checkout Session in payment mode for each order (its line items at
 * the server's prices, a fixed shipping rate, the order id in the session's and the payment's
 * metadata), created with an idempotency key so a repeated request answers the same session.
 * Outcomes arrive as Stripe's own webhooks, verified with STRIPE_WEBHOOK_SECRET.
 *
 * Subscriptions: a Checkout Session in subscription mode (a monthly price made inline with
 * price_data, the free trial in subscription_data, the user in both metadata and
 * client_reference_id), the session and the subscription read back for the success page's
 * verification, and Stripe's customer portal for cancelling or changing the card.
 */
import Stripe from 'stripe';
import type {
  CheckoutSession,
  CheckoutSessionRequest,
  PaymentEvent,
  PaymentProvider,
  SubscriptionCheckoutRequest,
  SubscriptionSessionInfo,
  SucceededPayment,
} from './provider.ts';
import { verifyWebhookBody } from './signature.ts';

export interface StripePaymentsOptions {
  secretKey: string;
  webhookSecret: string;
  /** Stripe's API host by default; tests point these at a local stand-in. */
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
  timeoutMs?: number;
  maxNetworkRetries?: number;
}

export class StripePayments implements PaymentProvider {
  readonly kind = 'stripe' as const;
  readonly client: Stripe;

  constructor(private readonly options: StripePaymentsOptions) {
    this.client = new Stripe(options.secretKey, {
      ...(options.host ? { host: options.host } : {}),
      ...(options.port ? { port: options.port } : {}),
      ...(options.protocol ? { protocol: options.protocol } : {}),
      timeout: options.timeoutMs ?? 20_000,
      // Retries resend the same idempotency key, so they never make a second session.
      maxNetworkRetries: options.maxNetworkRetries ?? 2,
      appInfo: { name: 'FrameMerch' },
    });
  }

  async createCheckoutSession(request: CheckoutSessionRequest): Promise<CheckoutSession> {
    const session = await this.client.checkout.sessions.create(
      {
        mode: 'payment',
        line_items: request.lineItems.map((item) => ({
          quantity: item.quantity,
          price_data: {
            currency: 'usd',
            unit_amount: item.unitAmountCents,
            product_data: {
              name: item.name,
              // Stripe shows only pictures it can fetch over https.
              ...(item.imageUrl?.startsWith('https://') ? { images: [item.imageUrl] } : {}),
            },
          },
        })),
        // The print shop needs a street address; the checkout page asks only for ZIP and country
        // (the shipping quote), so Stripe collects the rest, in the country quoted for.
        shipping_address_collection: {
          allowed_countries: [request.shippingCountry as Stripe.Checkout.SessionCreateParams.ShippingAddressCollection.AllowedCountry],
        },
        shipping_options: [
          {
            shipping_rate_data: {
              type: 'fixed_amount',
              fixed_amount: { amount: request.shippingCents, currency: 'usd' },
              display_name: request.shippingLabel,
            },
          },
        ],
        metadata: { order_id: request.orderId },
        payment_intent_data: { metadata: { order_id: request.orderId } },
        client_reference_id: request.orderId,
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
        ...(request.customerEmail ? { customer_email: request.customerEmail } : {}),
      },
      { idempotencyKey: request.idempotencyKey },
    );
    if (!session.url) throw new Error(`Stripe answered checkout session ${session.id} without a url`);
    return { sessionId: session.id, url: session.url };
  }

  async createSubscriptionCheckout(request: SubscriptionCheckoutRequest): Promise<CheckoutSession> {
    const session = await this.client.checkout.sessions.create(
      {
        mode: 'subscription',
        line_items: [
          {
            price_data: {
              currency: 'usd',
              unit_amount: request.monthlyPriceCents,
              recurring: { interval: 'month' },
              product_data: { name: request.productName },
            },
            quantity: 1,
          },
        ],
        subscription_data: {
          ...(request.trialDays > 0 ? { trial_period_days: request.trialDays } : {}),
          metadata: { user_id: request.userId },
        },
        metadata: { user_id: request.userId },
        client_reference_id: request.userId,
        // A returning subscriber keeps their customer (cards, invoices); a new one is made from the email.
        ...(request.customerId ? { customer: request.customerId } : request.customerEmail ? { customer_email: request.customerEmail } : {}),
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
      },
      { idempotencyKey: request.idempotencyKey },
    );
    if (!session.url) throw new Error(`Stripe answered checkout session ${session.id} without a url`);
    return { sessionId: session.id, url: session.url };
  }

  async retrieveSubscriptionSession(sessionId: string): Promise<SubscriptionSessionInfo | null> {
    let session: Stripe.Checkout.Session;
    try {
      session = await this.client.checkout.sessions.retrieve(sessionId);
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
    if (session.mode !== 'subscription') return null;
    return {
      sessionId: session.id,
      status: session.status === 'complete' ? 'complete' : session.status === 'expired' ? 'expired' : 'open',
      userId: session.metadata?.user_id ?? session.client_reference_id ?? null,
      subscriptionId: idOf(session.subscription),
      customerId: idOf(session.customer),
    };
  }

  async retrieveSubscription(subscriptionId: string): Promise<Stripe.Subscription | null> {
    try {
      return await this.client.subscriptions.retrieve(subscriptionId);
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async manageSubscriptionUrl(customerId: string, returnUrl: string): Promise<string> {
    const portal = await this.client.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl });
    return portal.url;
  }

  verifyWebhook(rawBody: Buffer, signatureHeader: string | undefined): PaymentEvent {
    return verifyWebhookBody(rawBody, signatureHeader, this.options.webhookSecret);
  }

  async refund(paymentIntentId: string): Promise<void> {
    await this.client.refunds.create({ payment_intent: paymentIntentId }, { idempotencyKey: `refund:${paymentIntentId}` });
  }

  async succeededPayments(since: Date): Promise<SucceededPayment[]> {
    const found: SucceededPayment[] = [];
    const sessions = this.client.checkout.sessions.list({ created: { gte: Math.floor(since.getTime() / 1000) }, status: 'complete', limit: 100, expand: ['data.payment_intent.latest_charge'] });
    for await (const s of sessions) {
      if (s.mode !== 'payment' || s.payment_status !== 'paid') continue;
      const intent = typeof s.payment_intent === 'object' ? s.payment_intent : null;
      const charge = intent && typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
      found.push({
        sessionId: s.id,
        paymentIntentId: idOf(s.payment_intent),
        orderId: s.metadata?.order_id ?? null,
        amountCents: s.amount_total ?? 0,
        currency: s.currency ?? 'usd',
        refunded: charge?.refunded === true,
      });
    }
    return found;
  }
}

/** Stripe's answer for an id it does not know (404, resource_missing). */
function isMissing(err: unknown): boolean {
  const e = err as { code?: unknown; statusCode?: unknown } | null;
  return !!e && (e.code === 'resource_missing' || e.statusCode === 404);
}

/** The id of an expandable field (an id, an object, or null). */
function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}
