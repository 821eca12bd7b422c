/**
 * Sending money to creators: one interface (provider.ts) with PayPal Payouts, Stripe Connect and
 * ACH by NACHA file as the real adapters and the embedded payout provider as their twin.
 * openPayoutProviders chooses per method; the plugin wires them into the app
 * (app.payoutProviders) with the embedded provider's clock and onboarding page. Outcomes arrive
 * as webhooks in PayPal's and Stripe's formats, read by app.payoutProviders.webhooks.
 */
export type { PayoutDestination, PayoutEvent, PayoutProvider, PayoutRequest, PayoutSubmission } from './provider.ts';
export { PayoutProviderError, PayoutWebhookError } from './errors.ts';
export { openPayoutProviders, type PayoutProviders, type PayoutProvidersDeps } from './open.ts';
export { default as payoutProvidersPlugin, embeddedPayoutSecrets, PAYPAL_PAYOUTS_WEBHOOK_PATH, STRIPE_CONNECT_WEBHOOK_PATH, type PayoutProvidersPluginOptions } from './plugin.ts';
export type { PayoutWebhooks } from './webhooks.ts';
export { EmbeddedPayouts, failsOnRequest, FAILING_TEST_ACCOUNT_NUMBER, type EmbeddedPayoutDelivery } from './embedded.ts';
export { PayPalPayouts, centsToDollars, payoutEventFromPayPal } from './paypal.ts';
export {
  StripeConnectPayouts,
  connectOutcomeFromEvent,
  type ConnectAccountStatus,
  type ConnectAccountUpdate,
  type ConnectOnboarder,
  type ConnectOnboarding,
  type ConnectWebhookOutcome,
} from './stripe-connect.ts';
export { NachaPayouts, nachaFileFor, confirmNachaUpload, type NachaFile, type PayoutEventSink } from './ach.ts';
export { abaChecksumValid, buildNachaFile, NachaError, type NachaOrigin } from './nacha.ts';
