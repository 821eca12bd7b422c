/**
 * The print shop: fulfilment (orders made and shipped) and shipping quotes, each behind one
 * interface, from Printful when PRINTFUL_API_KEY is set (one Printful client for both) and from
 * the embedded print shop and the catalogue's rates when it is not. openFulfilment and
 * openShipping choose; the plugin wires them into the app.
 */
export type { CancelOutcome, FulfilmentEvent, FulfilmentItem, FulfilmentOrder, FulfilmentOrderRequest, FulfilmentProvider } from './fulfilment-provider.ts';
export { ShippingUnavailableError, type ShippingProvider, type ShippingQuoteLine, type ShippingRate } from './shipping-provider.ts';
export type { FulfilmentWebhooks } from './webhooks.ts';
export type { EmbeddedPod } from './embedded-pod.ts';
export { PrintfulClient, PrintfulError } from './client.ts';
export { PrintfulFulfilment, printfulExternalId } from './printful.ts';
export { rateToCents } from './printful-shipping.ts';
export { openFulfilment, openShipping, printfulClient, type FulfilmentDeps } from './open.ts';
export { default as printShopPlugin, PRINTFUL_WEBHOOK_PATH } from './plugin.ts';
