import { describe, expect, it } from 'vitest';
import { createApiClient, NETWORK_MESSAGE } from '../../lib/api.ts';
import { ApiError } from '../../lib/ApiError.ts';
import { parseCached } from './productCache.ts';
import { cacheKeyOf, categoryParamOf, fetchProductData, isProductId, pageKeyOf, productFailure, productRequestOf } from './productFetch.ts';

const ID = '3f1c2a9e-1d2b-4c3d-8e9f-0a1b2c3d4e5f';
const browseReply = { success: true, product: null, products: [], category: 'mugs', img_url: null };

function fakeServer(answers: Array<() => Response>) {
  const urls: string[] = [];
  const request = createApiClient(async (url) => {
    urls.push(url);
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    return next();
  });
  return { request, urls };
}
const offline = () => {
  throw new TypeError('Failed to fetch');
};

describe('what the address asks for', () => {
  it('reads a product id with the category asked for, or the browse query', () => {
    expect(productRequestOf(ID, new URLSearchParams())).toEqual({ kind: 'product', productId: ID, category: null, unknownCategory: null });
    expect(productRequestOf(ID, new URLSearchParams('category=hats'))).toEqual({ kind: 'product', productId: ID, category: 'hats', unknownCategory: null });
    expect(productRequestOf(undefined, new URLSearchParams('category=mugs&authenticated=true&email=a@b.c'))).toEqual({
      kind: 'browse',
      category: 'mugs',
      authenticated: 'true',
      email: 'a@b.c',
      unknownCategory: null,
    });
    expect(productRequestOf(undefined, new URLSearchParams())).toMatchObject({ category: 'all', unknownCategory: null });
  });

  it('shows every category for a category name that does not exist, and says which name it was', () => {
    expect(productRequestOf(undefined, new URLSearchParams('category=spaceships'))).toMatchObject({ category: 'all', unknownCategory: 'spaceships' });
    expect(productRequestOf(ID, new URLSearchParams('category=Mugs'))).toMatchObject({ category: 'all', unknownCategory: 'Mugs' });
    expect(categoryParamOf(new URLSearchParams('category=all'))).toEqual({ category: 'all', unknownCategory: null });
  });

  it('keeps one saved copy per product and category, and knows when only the category changed', () => {
    const product = productRequestOf(ID, new URLSearchParams());
    const mugs = productRequestOf(ID, new URLSearchParams('category=mugs'));
    expect(cacheKeyOf(product)).toBe(`product:${ID}`);
    expect(cacheKeyOf(mugs)).toBe(`product:${ID}:mugs`);
    expect(pageKeyOf(mugs)).toBe(pageKeyOf(product));
    const browseHats = productRequestOf(undefined, new URLSearchParams('category=hats'));
    expect(cacheKeyOf(browseHats)).toBe('browse:hats');
    expect(pageKeyOf(browseHats)).toBe(pageKeyOf(productRequestOf(undefined, new URLSearchParams('category=bags'))));
    expect(pageKeyOf(browseHats)).not.toBe(pageKeyOf(product));
  });

  it('accepts only ids the server could know', () => {
    expect(isProductId(ID)).toBe(true);
    expect(isProductId('not-a-product')).toBe(false);
    expect(isProductId(`${ID}x`)).toBe(false);
  });
});

describe('fetching product data', () => {
  it('asks once more after a network failure', async () => {
    const server = fakeServer([offline, () => new Response(JSON.stringify(browseReply))]);
    const data = await fetchProductData({ kind: 'browse', category: 'mugs', authenticated: 'true', email: null, unknownCategory: null }, new AbortController().signal, server.request);
    expect(data).toEqual(browseReply);
    expect(server.urls).toEqual(['/api/product/browse?category=mugs&authenticated=true', '/api/product/browse?category=mugs&authenticated=true']);
  });

  it('gives up after the second failure', async () => {
    const server = fakeServer([offline, offline, offline]);
    await expect(fetchProductData(productRequestOf(ID, new URLSearchParams()), new AbortController().signal, server.request)).rejects.toMatchObject({ status: 0 });
    expect(server.urls).toEqual([`/api/product/${ID}`, `/api/product/${ID}`]);
  });

  it('asks a product in the category chosen', async () => {
    const server = fakeServer([() => new Response(JSON.stringify({ ...browseReply, product: {} }))]);
    await fetchProductData(productRequestOf(ID, new URLSearchParams('category=pets')), new AbortController().signal, server.request);
    expect(server.urls).toEqual([`/api/product/${ID}?category=pets`]);
  });

  it('does not ask again after a refusal', async () => {
    const server = fakeServer([() => new Response(JSON.stringify({ error: 'Product Not Found', code: 'NOT_FOUND' }), { status: 404 })]);
    await expect(fetchProductData(productRequestOf(ID, new URLSearchParams()), new AbortController().signal, server.request)).rejects.toMatchObject({ status: 404 });
    expect(server.urls).toHaveLength(1);
  });
});

describe('product failures', () => {
  it('are Product Not Found for 404, and quote status and body otherwise', () => {
    expect(productFailure(new ApiError(404, 'NOT_FOUND', 'Product Not Found'))).toEqual({ kind: 'not-found' });
    expect(productFailure(new ApiError(500, 'HTTP_ERROR', 'Request failed with status 500', null, 'upstream exploded'))).toEqual({
      kind: 'error',
      message: 'Failed to fetch product data: 500 - upstream exploded',
    });
    expect(productFailure(new ApiError(0, 'NETWORK_ERROR', NETWORK_MESSAGE))).toEqual({ kind: 'error', message: `Network error: ${NETWORK_MESSAGE}` });
  });
});

describe('the product cache', () => {
  it('keeps only copies of the current shape', () => {
    expect(parseCached({ version: 1, savedAt: 1, data: browseReply })).toEqual(browseReply);
    expect(parseCached({ version: 2, savedAt: 1, data: browseReply })).toBeNull();
    expect(parseCached({ version: 1, savedAt: 1, data: { ...browseReply, products: 'x' } })).toBeNull();
    expect(parseCached({ version: 1, savedAt: 1, data: { ...browseReply, product: { id: 'p' } } })).toBeNull();
    expect(parseCached(undefined)).toBeNull();
  });
});
