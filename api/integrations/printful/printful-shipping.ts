/**
 * Shipping quotes from Printful's shipping-rates API (POST /shipping/rates), so the buyer pays
 * what the print shop charges. Printful prices its own variants: each cart line's variant is
 * looked up by the one Printful client (client.ts) from the catalogue product's Printful product
 * by colour and size, the same lookup the orders sent to Printful use.
 *
 * A cart holding a product that is not sold through Printful (no pod_catalog_id) is quoted by
 * the catalogue's own rules instead, as one cart: Printful could not quote part of it.
 */
import type { CheckoutCountry } from '../../../shared/constants.ts';
import { SHIPPING_METHOD } from '../../../shared/shop/shipping.ts';
import type { PrintfulClient } from './client.ts';
import type { EmbeddedShipping } from './embedded-shipping.ts';
import { ShippingUnavailableError, type ShippingProvider, type ShippingQuoteLine, type ShippingRate } from './shipping-provider.ts';

/** The buyer waits for a quote: Printful gets less time than for an order. */
const QUOTE_TIMEOUT_MS = 15_000;

interface PrintfulRate {
  id?: string;
  name?: string;
  rate?: string | number;
  currency?: string;
}

/** "13.6", "13.60" or 13.6 to cents, rounding any further digits half up; null for anything else. */
export function rateToCents(rate: unknown): number | null {
  const text = typeof rate === 'number' ? String(rate) : typeof rate === 'string' ? rate.trim() : '';
  const m = /^(\d{1,7})(?:\.(\d+))?$/.exec(text);
  if (!m) return null;
  const frac = (m[2] ?? '').padEnd(3, '0');
  return Number(m[1]) * 100 + Number(frac.slice(0, 2)) + (Number(frac[2]) >= 5 ? 1 : 0);
}

/** Any failure to get a quote from Printful is the buyer's "shipping unavailable". */
async function quoting<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw err instanceof ShippingUnavailableError ? err : new ShippingUnavailableError(err instanceof Error ? err.message : String(err));
  }
}

export class PrintfulShipping implements ShippingProvider {
  readonly kind = 'printful' as const;

  constructor(
    private readonly client: PrintfulClient,
    /** Quotes carts Printful cannot (items not sold through it). */
    private readonly fallback: EmbeddedShipping,
  ) {}

  async #rates(body: unknown): Promise<PrintfulRate[]> {
    const { status, json } = await this.client.request('POST', '/shipping/rates', body, QUOTE_TIMEOUT_MS);
    if (status !== 200) {
      const error = json.error as { message?: unknown } | undefined;
      throw new ShippingUnavailableError(`Printful /shipping/rates answered ${status}: ${String(error?.message ?? json.result ?? '').slice(0, 200)}`);
    }
    return (Array.isArray(json.result) ? json.result : []) as PrintfulRate[];
  }

  async quote(lines: readonly ShippingQuoteLine[], zip: string, country: CheckoutCountry): Promise<ShippingRate> {
    if (lines.some((l) => l.product.podCatalogId === null)) return this.fallback.quote(lines, zip, country);
    const items: Array<{ variant_id: number; quantity: number }> = [];
    for (const line of lines) {
      const variantId = await quoting(() => this.client.variantId(line.product.podCatalogId!, line.variant.colour, line.variant.size, QUOTE_TIMEOUT_MS));
      const same = items.find((i) => i.variant_id === variantId);
      if (same) same.quantity += line.quantity;
      else items.push({ variant_id: variantId, quantity: line.quantity });
    }
    const rates = await quoting(() => this.#rates({ recipient: { country_code: country, zip }, items, currency: 'USD', locale: 'en_US' }));
    const usable = rates
      .filter((r) => (r.currency ?? 'USD').toUpperCase() === 'USD')
      .map((r) => ({ rate: r, cents: rateToCents(r.rate) }))
      .filter((r): r is { rate: PrintfulRate; cents: number } => r.cents !== null);
    if (usable.length === 0) throw new ShippingUnavailableError('Printful offered no shipping rate in USD');
    // Standard shipping when offered (what the catalogue quotes too), else the cheapest.
    const chosen = usable.find((r) => r.rate.id === 'STANDARD') ?? usable.reduce((a, b) => (b.cents < a.cents ? b : a));
    return { cents: chosen.cents, method: chosen.rate.id === 'STANDARD' ? SHIPPING_METHOD : (chosen.rate.name ?? chosen.rate.id ?? SHIPPING_METHOD).slice(0, 100) };
  }
}
