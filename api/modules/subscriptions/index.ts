/**
 * The subscriptions module as others see it: its routes; the payment webhook's hook for
 * subscription events (isSubscriptionEvent, applySubscriptionPaymentEvent, inside the webhook's
 * transaction); and the tier a user's limits apply (effectiveTierOf: Free without a row).
 */
export { default as subscriptionRoutes, type SubscriptionsPluginOptions } from './plugin.ts';
export { applySubscriptionPaymentEvent, effectiveTierOf, isSubscriptionEvent, type SubscriptionEffect } from './service.ts';
