/**
 * Payments: one interface (provider.ts) with Stripe Checkout as the real adapter and the
 * embedded payment provider (its own payment page in this app) as its twin. openPayments
 * chooses; the plugin wires it into the app; both announce outcomes as Stripe-signed events.
 */
export type {
  CheckoutLineItem,
  CheckoutSession,
  CheckoutSessionRequest,
  PaymentEvent,
  PaymentProvider,
  SubscriptionCheckoutRequest,
  SubscriptionSessionInfo,
  SucceededPayment,
} from './provider.ts';
export { openPayments, type PaymentsDeps } from './open.ts';
export { default as paymentsPlugin, STRIPE_WEBHOOK_PATH } from './plugin.ts';
export { default as embeddedPayRoutes } from './embedded-routes.ts';
export { StripePayments } from './stripe.ts';
export { signWebhookBody, verifyWebhookBody } from './signature.ts';
