/**
 * Stripe's webhook signature scheme (Stripe-Signature: t=<unix seconds>,v1=<HMAC-SHA256 of
 * "t.body">), through the stripe library itself, so the embedded provider signs exactly as
 * Stripe does and one verification serves both.
 */
import Stripe from 'stripe';
import { WEBHOOK_TOLERANCE_SECONDS, type PaymentEvent } from './provider.ts';

const webhooks = Stripe.webhooks;

/** The Stripe-Signature header for a body, as Stripe would send it now (or at `timestamp`). */
export function signWebhookBody(body: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return webhooks.generateTestHeaderString({ payload: body, secret, timestamp });
}

export class WebhookSignatureError extends Error {
  override name = 'WebhookSignatureError';
}

/** The event in a raw body whose signature matches `secret` within the tolerance; throws otherwise. */
export function verifyWebhookBody(rawBody: Buffer, header: string | undefined, secret: string): PaymentEvent {
  if (!header) throw new WebhookSignatureError('Missing Stripe-Signature header');
  try {
    return webhooks.constructEvent(rawBody, header, secret, WEBHOOK_TOLERANCE_SECONDS);
  } catch (err) {
    throw new WebhookSignatureError(err instanceof Error ? err.message : 'Invalid signature');
  }
}
