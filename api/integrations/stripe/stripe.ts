/**
 * Stripe Checkout: a hosted Checkout Session in payment mode for each order (its line items at
 * the server's prices, a fixed shipping rate, the order id in the session's and the payment's
 * metadata), created with an idempotency key so a repeated request answers the same session.
 * Outcomes arrive as Stripe's own webhooks, verified with STRIPE_WEBHOOK_SECRET.
 */
import Stripe from 'stripe';
import type { CheckoutSession, CheckoutSessionRequest, PaymentEvent, PaymentProvider } from './provider.ts';
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

  verifyWebhook(rawBody: Buffer, signatureHeader: string | undefined): PaymentEvent {
    return verifyWebhookBody(rawBody, signatureHeader, this.options.webhookSecret);
  }

  async refund(paymentIntentId: string): Promise<void> {
    await this.client.refunds.create({ payment_intent: paymentIntentId }, { idempotencyKey: `refund:${paymentIntentId}` });
  }
}
