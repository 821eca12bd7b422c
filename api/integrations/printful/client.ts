/**
 * The one Printful API client, shared by fulfilment (orders) and shipping (rates): one way to
 * call Printful (its key, its store, a timeout), one way to read its answers, and one lookup of
 * a catalogue product's Printful variant by colour and size, whose variant lists are kept for
 * the life of the process.
 */
export const PRINTFUL_API = 'https://api.printful.com';

export interface PrintfulOptions {
  apiKey: string;
  storeId: string | null;
  /** Printful's API, or a stand-in (tests point this at a local HTTP server). */
  baseUrl?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** Printful answered something else than asked for, or could not be reached (status 0). */
export class PrintfulError extends Error {
  override name = 'PrintfulError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The product has no variant in the colour and size asked for. */
export class PrintfulVariantError extends PrintfulError {
  override name = 'PrintfulVariantError';
}

interface PrintfulVariant {
  id: number;
  color?: string | null;
  size?: string | null;
}

export interface PrintfulAnswer {
  status: number;
  json: Record<string, unknown>;
}

/** Sizes and colours as Printful and the catalogue write them may differ in case and spacing ('11 oz', '11oz'). */
const norm = (s: string | null | undefined) => (s ?? '').trim().toLowerCase().replace(/\s+/g, '');

export class PrintfulClient {
  readonly #variants = new Map<number, Promise<PrintfulVariant[]>>();
  readonly #base: string;
  readonly #fetch: typeof fetch;

  constructor(private readonly options: PrintfulOptions) {
    this.#base = (options.baseUrl ?? PRINTFUL_API).replace(/\/+$/, '');
    this.#fetch = options.fetch ?? fetch;
  }

  /** One call; any HTTP status is answered, an unreachable Printful throws PrintfulError(0). */
  async request(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, timeoutMs = this.options.timeoutMs ?? 30_000): Promise<PrintfulAnswer> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.options.apiKey}`, accept: 'application/json' };
    if (this.options.storeId) headers['x-pf-store-id'] = this.options.storeId;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await this.#fetch(`${this.#base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw new PrintfulError(0, `Printful ${path}: ${err instanceof Error ? err.message : String(err)}`);
    }
    const text = await res.text();
    let json: Record<string, unknown> = {};
    try {
      json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      json = { result: text.slice(0, 300) };
    }
    return { status: res.status, json };
  }

  /** What Printful said went wrong, from an error answer. */
  static message(json: Record<string, unknown>): string {
    const error = json.error as { message?: unknown } | undefined;
    return String(error?.message ?? (typeof json.result === 'string' ? json.result : '') ?? '').slice(0, 300);
  }

  #productVariants(productId: number, timeoutMs?: number): Promise<PrintfulVariant[]> {
    let cached = this.#variants.get(productId);
    if (!cached) {
      cached = this.request('GET', `/products/${productId}`, undefined, timeoutMs).then(({ status, json }) => {
        if (status !== 200) throw new PrintfulError(status, `Printful product ${productId} (${status}): ${PrintfulClient.message(json)}`);
        const variants = (json.result as { variants?: unknown } | undefined)?.variants;
        return (Array.isArray(variants) ? variants : []) as PrintfulVariant[];
      });
      // A failed lookup is not kept: the next call asks again.
      cached.catch(() => this.#variants.delete(productId));
      this.#variants.set(productId, cached);
    }
    return cached;
  }

  /** Printful's variant of a catalogue product in a colour and size (null or 'One size' for none). */
  async variantId(productId: number, colour: string, size: string | null, timeoutMs?: number): Promise<number> {
    const variants = await this.#productVariants(productId, timeoutMs);
    const oneSize = size === null || norm(size) === 'onesize';
    const sameColour = (v: PrintfulVariant) => norm(v.color) === norm(colour);
    const match =
      variants.find((v) => sameColour(v) && (norm(v.size) === norm(size) || (oneSize && (!v.size || norm(v.size) === 'onesize')))) ??
      (oneSize ? variants.find(sameColour) : undefined);
    if (!match || typeof match.id !== 'number') {
      throw new PrintfulVariantError(404, `Printful product ${productId} has no variant in ${colour}, size ${size ?? 'one size'}.`);
    }
    return match.id;
  }
}
