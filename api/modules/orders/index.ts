/**
 * Orders: an order's lifecycle after checkout (status changes and their history), the print
 * shop's part (the fulfil and cancel jobs, its progress reports), the buyer's emails and the
 * order page's secret link.
 */
export { default as ordersRoutes } from './routes.ts';
export { default as jobsPlugin } from './jobs.ts';
export { transitionOrder, ORDER_RANK, ORDER_TRANSITIONS, canTransition, type TransitionResult } from './order-status.ts';
export { addStatusHistory, recordProviderEvent } from './repository.ts';
export { queueOrderConfirmation, orderConfirmationKey, ORDER_CONFIRMATION_TEMPLATE } from './order-mail.ts';
export { queueShippedMail, orderShippedKey, ORDER_SHIPPED_TEMPLATE } from './shipped-mail.ts';
export { checkOrderAccessToken, orderAccessToken, orderPagePath } from './order-links.ts';
export { itemLabel } from './item-label.ts';
export { applyFulfilmentEvent, fulfilmentEventId, orderIdOf, targetStatus } from './fulfilment-events.ts';
export { fulfilOrder, type FulfilDeps, type FulfilOutcome } from './fulfil-order.ts';
export { cancelFulfilment } from './cancel-fulfilment.ts';
export { queuePaymentRefund } from './refund-payment.ts';
