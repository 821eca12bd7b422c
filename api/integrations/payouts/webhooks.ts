/**
 * Who may report payout outcomes to the app, and what they said. Two webhook formats:
 *  - PayPal's: an event the embedded provider signed (its auth algorithm named in the headers) is
 *    checked with its key; any other is checked by PayPal itself, when PayPal is configured;
 *  - Stripe's: the Stripe-Signature must hold for one of STRIPE_CONNECT_WEBHOOK_SECRET's secrets
 *    or the embedded provider's.
 * The embedded provider is trusted even with the real services configured, so payouts it took
 * before the switch still finish. Both formats are read by the same code as the real services'.
 */
import type { PayoutEvent } from './provider.ts';
import { isEmbeddedPayPalWebhook, receivePayPalWebhook, type PayPalPayouts, type PayPalWebhookHeaders, type PayPalWebhookVerifier } from './paypal.ts';
import { connectOutcomeFromEvent, verifyConnectWebhook, type ConnectWebhookOutcome } from './stripe-connect.ts';
import { PayoutWebhookError } from './errors.ts';

export interface PayoutWebhooks {
  /**
   * A PayPal-format webhook verified and read: its PayoutEvent, or null for one that decides
   * nothing. Throws PayoutWebhookError (refused) or PayoutProviderError (PayPal could not be
   * asked: the sender should try again).
   */
  paypal(rawBody: Buffer, headers: PayPalWebhookHeaders): Promise<PayoutEvent | null>;
  /** A Stripe Connect webhook verified and read. Throws PayoutWebhookError when refused. */
  stripeConnect(rawBody: Buffer, signature: string | undefined): ConnectWebhookOutcome;
}

export function payoutWebhooks(sources: {
  paypal: PayPalPayouts | null;
  embeddedPayPal: PayPalWebhookVerifier;
  connectSecrets: readonly string[];
  embeddedStripeSecret: string;
}): PayoutWebhooks {
  const stripeSecrets = [...sources.connectSecrets, sources.embeddedStripeSecret];
  return {
    async paypal(rawBody, headers) {
      if (isEmbeddedPayPalWebhook(headers)) return receivePayPalWebhook(rawBody, headers, sources.embeddedPayPal);
      if (!sources.paypal) throw new PayoutWebhookError('PayPal is not configured: only the embedded provider reports here.', 'signature');
      return sources.paypal.receiveWebhook(rawBody, headers);
    },
    stripeConnect(rawBody, signature) {
      return connectOutcomeFromEvent(verifyConnectWebhook(rawBody, signature, stripeSecrets));
    },
  };
}
