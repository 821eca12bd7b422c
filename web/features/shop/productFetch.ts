/**
 * Reading a product page's data: a merch product (GET /api/product/:id) or a category's
 * catalogue before any screenshot exists (GET /api/product/browse). Each attempt has 30 s; a
 * server that was not reached, or did not answer in time, is asked once more. What the page
 * shows for a failure is decided here.
 */
import { isMerchCategory } from '../../../shared/categories.ts';
import { browseProductsRoute, productRoute } from '../../../shared/schemas/products.ts';
import type { OkReplyOf } from '../../lib/api.ts';
import { request as apiRequest } from '../../lib/api.ts';
import { isAbortError, isApiError, isTimeoutError } from '../../lib/ApiError.ts';
import type { CategoryChoice } from './merchCategories.ts';

/** Spec section 9: the product fetch waits 30 s. */
export const PRODUCT_FETCH_TIMEOUT_MS = 30_000;

export type ProductReply = OkReplyOf<typeof productRoute>;
export type BrowseReply = OkReplyOf<typeof browseProductsRoute>;
/** What the page draws from: the merch product (null when browsing) and the catalogue products. */
export type ProductData = ProductReply | BrowseReply;

export type ProductRequest = (
  | { kind: 'product'; productId: string; /** Null: the category the product was made in. */ category: CategoryChoice | null }
  | { kind: 'browse'; category: CategoryChoice; authenticated: string | null; email: string | null }
) & {
  /** A `category` in the address that names no category; the page says so and shows every product. */
  unknownCategory: string | null;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A product id the server could know; anything else is 'Product Not Found' without asking. */
export function isProductId(id: string): boolean {
  return UUID.test(id);
}

/** The address's `category`: a category, 'all', absent (null), or a name no category has. */
export function categoryParamOf(search: URLSearchParams): { category: CategoryChoice | null; unknownCategory: string | null } {
  const raw = (search.get('category') ?? '').trim();
  if (raw === '') return { category: null, unknownCategory: null };
  if (raw === 'all' || isMerchCategory(raw)) return { category: raw, unknownCategory: null };
  return { category: 'all', unknownCategory: raw.slice(0, 60) };
}

/** What the address asks for: a product id, or the browse page with its query. */
export function productRequestOf(productId: string | undefined, search: URLSearchParams): ProductRequest {
  const { category, unknownCategory } = categoryParamOf(search);
  if (productId !== undefined) return { kind: 'product', productId, category, unknownCategory };
  return {
    kind: 'browse',
    category: category ?? 'all',
    authenticated: search.get('authenticated'),
    email: search.get('email'),
    unknownCategory,
  };
}

/** The cache key of a request: one entry a product in each category asked for, one a browsed category. */
export function cacheKeyOf(req: ProductRequest): string {
  if (req.kind === 'browse') return `browse:${req.category}`;
  return req.category === null ? `product:${req.productId}` : `product:${req.productId}:${req.category}`;
}

/** Requests for the same page (one product, or browsing) that differ only in the category shown. */
export function pageKeyOf(req: ProductRequest): string {
  return req.kind === 'product' ? `product:${req.productId}` : 'browse';
}

type Request = typeof apiRequest;

function attempt(req: ProductRequest, signal: AbortSignal, request: Request): Promise<ProductData> {
  const timed = AbortSignal.any([signal, AbortSignal.timeout(PRODUCT_FETCH_TIMEOUT_MS)]);
  if (req.kind === 'product') {
    const query = req.category === null ? undefined : { category: req.category };
    return request(productRoute, { params: { productId: req.productId }, query, signal: timed });
  }
  const query: Record<string, string> = { category: req.category };
  if (req.authenticated !== null) query.authenticated = req.authenticated.slice(0, 10);
  if (req.email !== null) query.email = req.email.slice(0, 320);
  return request(browseProductsRoute, { query, signal: timed });
}

/** Worth asking again: the server was not reached or did not answer in time. Refusals are final. */
export function isRetryable(error: unknown): boolean {
  return isTimeoutError(error) || (isApiError(error) && error.status === 0);
}

/** Reads the data, asking once more after a network failure or a timeout. */
export async function fetchProductData(req: ProductRequest, signal: AbortSignal, request: Request = apiRequest): Promise<ProductData> {
  try {
    return await attempt(req, signal, request);
  } catch (error) {
    if (signal.aborted || !isRetryable(error)) throw error;
    return attempt(req, signal, request);
  }
}

export type ProductFailure = { kind: 'not-found' } | { kind: 'error'; message: string };

/** Spec section 8: 404 is 'Product Not Found'; anything else quotes the status and the body. */
export function productFailure(error: unknown): ProductFailure {
  if (isApiError(error)) {
    if (error.status === 404) return { kind: 'not-found' };
    if (error.status === 0) return { kind: 'error', message: `Network error: ${error.message}` };
    return { kind: 'error', message: `Failed to fetch product data: ${error.status} - ${error.body || error.message}` };
  }
  if (isTimeoutError(error) || isAbortError(error)) return { kind: 'error', message: 'Network error: the server did not answer in time.' };
  return { kind: 'error', message: `Failed to fetch product data: ${error instanceof Error ? error.message : String(error)}` };
}
