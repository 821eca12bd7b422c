/**
 * Shipping quotes from Printful's shipping-rates API (POST /shipping/rates), so the buyer pays
 * what the print shop charges. Printful prices its own variants: each cart line's variant is
 * looked up from the catalogue product's Printful product (GET /products/{id}) by colour and
 * size, and the product's variant list is kept for the life of the process.
 *
 * A cart holding a product that is not sold through Printful (no pod_catalog_id) is quoted by
 * the catalogue's own rules instead, as one cart: Printful could not quote part of it.
 */
import type { CheckoutCountry } from '../../../shared/constants.ts';
import { SHIPPING_METHOD } from '../../../shared/shop/shipping.ts';
import type { EmbeddedShipping } from './embedded-shipping.ts';
import { ShippingUnavailableError, type ShippingProvider, type ShippingQuoteLine, type ShippingRate } from './shipping-provider.ts';

export const PRINTFUL_API_URL = 'https://api.printful.com';

export interface PrintfulShippingOptions {
  apiKey: string;
  storeId: string | null;
  /** Printful's API, or a stand-in (tests point this at a local HTTP server). */
  baseUrl?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** Quotes carts Printful cannot (items not sold through it). */
  fallback: EmbeddedShipping;
}

interface PrintfulVariant {
  id: number;
  color?: string | null;
  size?: string | null;
}

interface PrintfulRate {
  id?: string;
  name?: string;
  rate?: string | number;
  currency?: string;
}

const norm = (s: string | null | undefined) => (s ?? '').trim().toLowerCase().replace(/\s+/g, '');

/** "13.6", "13.60" or 13.6 to cents, rounding any further digits half up; null for anything else. */
export function rateToCents(rate: unknown): number | null {
  const text = typeof rate === 'number' ? String(rate) : typeof rate === 'string' ? rate.trim() : '';
  const m = /^(\d{1,7})(?:\.(\d+))?$/.exec(text);
  if (!m) return null;
  const frac = (m[2] ?? '').padEnd(3, '0');
  return Number(m[1]) * 100 + Number(frac.slice(0, 2)) + (Number(frac[2]) >= 5 ? 1 : 0);
}

export class PrintfulShipping implements ShippingProvider {
  readonly kind = 'printful' as const;
  readonly #base: string;
  readonly #fetch: typeof fetch;
  readonly #variants = new Map<number, Promise<PrintfulVariant[]>>();

  constructor(private readonly options: PrintfulShippingOptions) {
    this.#base = (options.baseUrl ?? PRINTFUL_API_URL).replace(/\/+$/, '');
    this.#fetch = options.fetch ?? fetch;
  }

  async #request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Record<string, unknown>> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.options.apiKey}`, accept: 'application/json' };
    if (this.options.storeId) headers['x-pf-store-id'] = this.options.storeId;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await this.#fetch(`${this.#base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 15_000),
      });
    } catch (err) {
      throw new ShippingUnavailableError(`Printful ${path}: ${err instanceof Error ? err.message : String(err)}`);
    }
    const text = await res.text();
    let json: Record<string, unknown> = {};
    try {
      json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      json = {};
    }
    if (res.status !== 200) {
      const error = json.error as { message?: unknown } | undefined;
      throw new ShippingUnavailableError(`Printful ${path} answered ${res.status}: ${String(error?.message ?? json.result ?? '').slice(0, 200)}`);
    }
    return json;
  }

  #productVariants(productId: number): Promise<PrintfulVariant[]> {
    let cached = this.#variants.get(productId);
    if (!cached) {
      cached = this.#request('GET', `/products/${productId}`).then((json) => {
        const variants = (json.result as { variants?: unknown } | undefined)?.variants;
        if (!Array.isArray(variants)) throw new ShippingUnavailableError(`Printful product ${productId} lists no variants`);
        return variants as PrintfulVariant[];
      });
      // A failed lookup is not kept: the next quote asks again.
      cached.catch(() => this.#variants.delete(productId));
      this.#variants.set(productId, cached);
    }
    return cached;
  }

  /** Printful's variant of a catalogue product in a colour and size. */
  async variantId(productId: number, colour: string, size: string | null): Promise<number> {
    const variants = await this.#productVariants(productId);
    const oneSize = size === null || norm(size) === 'onesize';
    const sameColour = (v: PrintfulVariant) => norm(v.color) === norm(colour);
    const match =
      variants.find((v) => sameColour(v) && (norm(v.size) === norm(size) || (oneSize && (!v.size || norm(v.size) === 'onesize')))) ??
      (oneSize ? variants.find(sameColour) : undefined);
    if (!match || typeof match.id !== 'number') {
      throw new ShippingUnavailableError(`Printful product ${productId} has no variant in ${colour}, size ${size ?? 'one size'}`);
    }
    return match.id;
  }

  async quote(lines: readonly ShippingQuoteLine[], zip: string, country: CheckoutCountry): Promise<ShippingRate> {
    if (lines.some((l) => l.product.podCatalogId === null)) return this.options.fallback.quote(lines, zip, country);
    const items: Array<{ variant_id: number; quantity: number }> = [];
    for (const line of lines) {
      const variantId = await this.variantId(line.product.podCatalogId!, line.variant.colour, line.variant.size);
      const same = items.find((i) => i.variant_id === variantId);
      if (same) same.quantity += line.quantity;
      else items.push({ variant_id: variantId, quantity: line.quantity });
    }
    const json = await this.#request('POST', '/shipping/rates', {
      recipient: { country_code: country, zip },
      items,
      currency: 'USD',
      locale: 'en_US',
    });
    const rates = (Array.isArray(json.result) ? json.result : []) as PrintfulRate[];
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
