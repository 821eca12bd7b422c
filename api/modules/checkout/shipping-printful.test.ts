/**
 * Shipping quotes from Printful (PRINTFUL_API_KEY set), against a local stand-in for Printful's
 * API on 127.0.0.1 that records what it is asked: the variants are looked up from the catalogue
 * product's Printful product by colour and size (once), the rates request names them, and a
 * failing Printful answers 502 with the checkout's shipping message.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKOUT_MESSAGES } from '../../../shared/schemas/checkout.ts';
import { rateToCents } from '../../integrations/printful/index.ts';
import { catalogueProduct, variantOf } from '../../test/checkout-support.ts';
import { testApp, testConfig, type TestApp } from '../../test/harness.ts';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

let server: Server;
let seen: Seen[] = [];
let ratesStatus = 200;
let t: TestApp;

// Printful product 71 (the unisex t-shirt) in two colours and three sizes; 19 (the mug) one colour, two sizes.
const VARIANTS: Record<number, Array<{ id: number; color: string; size: string }>> = {
  71: [
    { id: 4011, color: 'Black', size: 'S' },
    { id: 4012, color: 'Black', size: 'M' },
    { id: 4017, color: 'White', size: 'M' },
    { id: 4018, color: 'White', size: '2XL' },
  ],
  19: [
    { id: 1320, color: 'White', size: '11 oz' },
    { id: 4830, color: 'White', size: '15 oz' },
  ],
};

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: text ? JSON.parse(text) : null });
      res.setHeader('content-type', 'application/json');
      const product = /^\/products\/(\d+)$/.exec(req.url ?? '');
      if (req.method === 'GET' && product) {
        const variants = VARIANTS[Number(product[1])];
        res.statusCode = variants ? 200 : 404;
        res.end(JSON.stringify(variants ? { code: 200, result: { product: { id: Number(product[1]) }, variants } } : { code: 404, error: { message: 'Not found' } }));
        return;
      }
      if (req.method === 'POST' && req.url === '/shipping/rates') {
        res.statusCode = ratesStatus;
        res.end(
          JSON.stringify(
            ratesStatus === 200
              ? {
                  code: 200,
                  result: [
                    { id: 'EXPRESS', name: 'Express', rate: '21.10', currency: 'USD' },
                    { id: 'STANDARD', name: 'Flat Rate (3-4 business days after fulfillment)', rate: '13.6', currency: 'USD' },
                  ],
                }
              : { code: ratesStatus, error: { message: 'Upstream trouble' } },
          ),
        );
        return;
      }
      res.statusCode = 404;
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  t = await testApp({
    config: await testConfig({ PRINTFUL_API_KEY: 'pf-test-key', PRINTFUL_STORE_ID: '777', PRINTFUL_API_URL: `http://127.0.0.1:${port}` }),
  });
});
afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const quote = (cart: Array<{ variant_id: string; quantity: number }>, zip = '10001', country_code = 'US') =>
  t.app.inject({ method: 'POST', url: '/api/calculate-shipping', payload: { shipping_address: { zip, country_code }, cart } });

describe('Printful shipping rates', () => {
  it('reads rates as cents without floating point', () => {
    expect(rateToCents('13.60')).toBe(1360);
    expect(rateToCents('13.6')).toBe(1360);
    expect(rateToCents(4.75)).toBe(475);
    expect(rateToCents('0.995')).toBe(100);
    expect(rateToCents('7')).toBe(700);
    expect(rateToCents('-1')).toBeNull();
    expect(rateToCents('abc')).toBeNull();
  });

  it("quotes Printful's standard rate for the cart's Printful variants, looked up once per product", async () => {
    seen = [];
    const shirt = catalogueProduct(t, 'unisex-tshirt');
    const mug = catalogueProduct(t, 'white-glossy-mug');
    expect(shirt.podCatalogId).toBe(71);
    expect(mug.podCatalogId).toBe(19);
    const cart = [
      { variant_id: variantOf(shirt, 'M', 'White'), quantity: 2 },
      { variant_id: variantOf(shirt, '2XL', 'White'), quantity: 1 },
      { variant_id: variantOf(mug, '11oz', 'White'), quantity: 3 },
    ];
    const res = await quote(cart, 'K1A 0B1', 'CA');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, shipping_cost: 13.6, shipping_cost_cents: 1360, shipping_method: 'Standard', currency: 'USD' });

    expect(seen.filter((s) => s.method === 'GET').map((s) => s.url).sort()).toEqual(['/products/19', '/products/71']);
    const rates = seen.find((s) => s.url === '/shipping/rates')!;
    expect(rates.headers.authorization).toBe('Bearer pf-test-key');
    expect(rates.headers['x-pf-store-id']).toBe('777');
    expect(rates.body).toMatchObject({
      recipient: { country_code: 'CA', zip: 'K1A 0B1' },
      items: [
        { variant_id: 4017, quantity: 2 },
        { variant_id: 4018, quantity: 1 },
        { variant_id: 1320, quantity: 3 },
      ],
    });

    // The variant lists are kept: a second quote asks only for rates.
    seen = [];
    const again = await quote(cart.slice(0, 1));
    expect(again.statusCode, again.body).toBe(200);
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(['POST /shipping/rates']);
    expect((seen[0]!.body as { items: unknown }).items).toEqual([{ variant_id: 4017, quantity: 2 }]);
  });

  it('answers 502 with the shipping message when Printful fails or has no such variant', async () => {
    ratesStatus = 500;
    try {
      const res = await quote([{ variant_id: variantOf(catalogueProduct(t, 'unisex-tshirt'), 'M'), quantity: 1 }]);
      expect(res.statusCode, res.body).toBe(502);
      expect(res.json().error).toBe(CHECKOUT_MESSAGES.shippingDefault);
    } finally {
      ratesStatus = 200;
    }
    // Black 2XL is sold by the catalogue but the stand-in's product 71 has no such variant.
    const missing = await quote([{ variant_id: variantOf(catalogueProduct(t, 'unisex-tshirt'), '2XL', 'Black'), quantity: 1 }]);
    expect(missing.statusCode, missing.body).toBe(502);
    expect(missing.json().error).toBe(CHECKOUT_MESSAGES.shippingDefault);
  });

  it('quotes a cart holding an item Printful does not sell by the catalogue rates', async () => {
    seen = [];
    const shorts = catalogueProduct(t, 'pajama-shorts');
    expect(shorts.podCatalogId).toBeNull();
    const res = await quote([{ variant_id: variantOf(shorts, 'M'), quantity: 2 }]);
    expect(res.statusCode, res.body).toBe(200);
    // Catalogue rates, shirts bucket: 4.75 + 2.20.
    expect(res.json().shipping_cost_cents).toBe(475 + 220);
    expect(seen).toEqual([]);
  });
});
