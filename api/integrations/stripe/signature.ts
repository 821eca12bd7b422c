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

/** The signed timestamp, read as the stripe library reads it (the last `t=` wins); NaN when absent. */
function signedAt(header: string): number {
  let t = Number.NaN;
  for (const item of header.split(',')) {
    const [key, value] = item.split('=');
    if (key === 't') t = value !== undefined && /^\d{1,12}$/.test(value) ? Number(value) : Number.NaN;
  }
  return t;
}

/**
 * The event in a raw body whose signature matches `secret` and whose timestamp is within the
 * tolerance of `now` in either direction; throws otherwise. The library checks only the past,
 * so an event stamped in the future (replayable until that time has come and gone) is refused here.
 */
export function verifyWebhookBody(rawBody: Buffer, header: string | undefined, secret: string, now = Date.now()): PaymentEvent {
  if (!header) throw new WebhookSignatureError('Missing Stripe-Signature header');
  let event: PaymentEvent;
  try {
    event = webhooks.constructEvent(rawBody, header, secret, WEBHOOK_TOLERANCE_SECONDS, undefined, now);
  } catch (err) {
    throw new WebhookSignatureError(err instanceof Error ? err.message : 'Invalid signature');
  }
  const skew = Math.floor(now / 1000) - signedAt(header);
  if (!(Math.abs(skew) <= WEBHOOK_TOLERANCE_SECONDS)) throw new WebhookSignatureError('Timestamp outside the tolerance zone');
  return event;
}
