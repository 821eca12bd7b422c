/**
 * Print-on-demand fulfilment sits behind this interface. Two adapters: Printful when
 * PRINTFUL_API_KEY is set, and the embedded print-on-demand simulator when it is not. Both
 * key an order by our order id (external_id), so submitting the same order again answers the
 * order already made, and both report progress as Printful-shaped webhook events that one
 * handler applies (the orders module, behind POST /api/webhooks/printful).
 */

export interface FulfilmentRecipient {
  zip: string;
  country_code: string;
  name?: string | null;
  /** Street address fields as the checkout collected them (address1, city, state_code...). */
  address?: Record<string, string> | null;
}

export interface FulfilmentItem {
  sku: string;
  podCatalogId: number | null;
  colour: string;
  size: string;
  quantity: number;
  /** Absolute URL the provider downloads the print file from. */
  printFileUrl: string;
  printFileKey: string;
  retailPriceCents: number;
}

export interface FulfilmentOrderRequest {
  /** Our order id. */
  externalId: string;
  recipient: FulfilmentRecipient;
  items: FulfilmentItem[];
}

export interface FulfilmentOrder {
  providerOrderId: string;
  status: string;
}

/** What asking the print shop to cancel an order came to. */
export type CancelOutcome = 'cancelled' | 'too-late' | 'not-found';

export interface FulfilmentProvider {
  readonly kind: 'printful' | 'embedded';
  /** Creates the order, or answers the one already made for this externalId. */
  submitOrder(request: FulfilmentOrderRequest): Promise<FulfilmentOrder>;
  /**
   * Cancels the order made for this externalId while the print shop has not started on it
   * ('too-late' once it has; cancelling a cancelled order answers 'cancelled' again).
   */
  cancelOrder(externalId: string): Promise<CancelOutcome>;
}

/** A progress report in the shape of Printful's webhooks. */
export interface FulfilmentEvent {
  type: string;
  data?: {
    order?: { id?: number | string; external_id?: string | null; status?: string | null };
    shipment?: { id?: number | string; tracking_number?: string | null; tracking_url?: string | null; carrier?: string | null };
  };
}
