/**
 * The Printful adapter: creates and confirms an order (POST /orders?confirm=true) with one print
 * file per item, each item's variant looked up from the catalogue product's Printful product
 * (GET /products/{id}) by colour and size. The order is keyed by our order id (external_id, as
 * 32 hex digits: Printful's external ids are short), so a second submission is refused by
 * Printful as a duplicate and answered with the order already made (GET /orders/@{external_id}).
 */
import type { CancelOutcome, FulfilmentOrder, FulfilmentOrderRequest, FulfilmentProvider } from './fulfilment-provider.ts';
import { PermanentJobError } from '../../platform/jobs/runner.ts';
import { PrintfulClient, PrintfulError, PrintfulVariantError } from './client.ts';

/** Our order id as Printful's external_id. */
export function printfulExternalId(orderId: string): string {
  return orderId.replace(/-/g, '').toLowerCase();
}

export class PrintfulFulfilment implements FulfilmentProvider {
  readonly kind = 'printful' as const;

  constructor(private readonly client: PrintfulClient) {}

  #request(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) {
    return this.client.request(method, path, body);
  }

  static #message(json: Record<string, unknown>): string {
    return PrintfulClient.message(json);
  }

  /** The Printful variant of a catalogue product in a colour and size; a colour or size Printful lacks fails for good. */
  async variantId(productId: number, colour: string, size: string): Promise<number> {
    try {
      return await this.client.variantId(productId, colour, size);
    } catch (err) {
      throw err instanceof PrintfulVariantError ? new PermanentJobError(err.message) : err;
    }
  }

  async submitOrder(request: FulfilmentOrderRequest): Promise<FulfilmentOrder> {
    const externalId = printfulExternalId(request.externalId);
    const items = [];
    for (const item of request.items) {
      if (item.podCatalogId === null) throw new PermanentJobError(`${item.sku} is not sold through Printful.`);
      items.push({
        variant_id: await this.variantId(item.podCatalogId, item.colour, item.size),
        quantity: item.quantity,
        retail_price: (item.retailPriceCents / 100).toFixed(2),
        files: [{ type: 'default', url: item.printFileUrl }],
      });
    }
    const address = request.recipient.address ?? {};
    const recipient = {
      name: request.recipient.name ?? address.name ?? 'FrameMerch customer',
      address1: address.address1 ?? address.line1 ?? '',
      address2: address.address2 ?? address.line2 ?? undefined,
      city: address.city ?? '',
      state_code: address.state_code ?? address.state ?? undefined,
      country_code: request.recipient.country_code,
      // The address the buyer gave at payment, else the ZIP the shipping was quoted for.
      zip: address.zip ?? request.recipient.zip,
    };
    const created = await this.#request('POST', '/orders?confirm=true', { external_id: externalId, recipient, items });
    if (created.status === 200) return PrintfulFulfilment.#order(created.json);
    const message = PrintfulFulfilment.#message(created.json);
    const duplicate = created.status === 409 || (created.status === 400 && /external[ _]?id/i.test(message) && /(already|exist|duplicate|unique)/i.test(message));
    if (!duplicate) {
      const error = new PrintfulError(created.status, `Printful refused the order (${created.status}): ${message}`);
      // An order Printful calls wrong stays wrong; anything else (a key being fixed, 429, 5xx) is worth another try.
      throw [400, 404, 422].includes(created.status) ? new PermanentJobError(error.message) : error;
    }
    const existing = await this.#request('GET', `/orders/@${externalId}`);
    if (existing.status !== 200) {
      throw new PrintfulError(existing.status, `Printful order ${externalId} could not be read: ${PrintfulFulfilment.#message(existing.json)}`);
    }
    return PrintfulFulfilment.#order(existing.json);
  }

  /**
   * DELETE /orders/@{external_id}: Printful cancels an order it has not started (draft, pending,
   * on hold, failed) and refuses one in production or shipped (400/409).
   */
  async cancelOrder(orderId: string): Promise<CancelOutcome> {
    const externalId = printfulExternalId(orderId);
    const res = await this.#request('DELETE', `/orders/@${externalId}`);
    if (res.status === 200) return 'cancelled';
    if (res.status === 404) return 'not-found';
    if (res.status === 400 || res.status === 409) {
      // Cancelling twice answers that the order is already cancelled.
      const message = PrintfulFulfilment.#message(res.json);
      return /already/i.test(message) && /cancel/i.test(message) ? 'cancelled' : 'too-late';
    }
    throw new PrintfulError(res.status, `Printful could not cancel order ${externalId} (${res.status}): ${PrintfulFulfilment.#message(res.json)}`);
  }

  static #order(json: Record<string, unknown>): FulfilmentOrder {
    const result = json.result as { id?: number | string; status?: string } | undefined;
    if (!result || result.id === undefined) throw new PrintfulError(502, 'Printful answered without an order.');
    return { providerOrderId: String(result.id), status: String(result.status ?? 'pending') };
  }
}
