/**
 * Checkout: a cart priced by the server, the pending order it becomes, the hosted payment
 * session opened for it, and the payment events that settle it.
 */
export { default as checkoutRoutes } from './routes.ts';
export { default as paymentWebhookRoutes } from './webhooks.routes.ts';
export { default as reconcileRoutes } from './reconcile.routes.ts';
