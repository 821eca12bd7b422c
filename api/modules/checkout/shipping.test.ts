/**
 * POST /api/calculate-shipping with the catalogue's own rates: the catalogue README's mixes,
 * worked out by hand here from shipping.tsv, and the refusals of bad input.
 *
 * shipping.tsv (US standard): shirts 4.75 first / 2.20 additional, bundled; hoodies 8.49 / 2.50,
 * bundled; mugs 8.49 / 2.50, own package; hats 4.49 / 2.00, own package. Outside the US a
 * package's first item pays CA/GB/DE 9.99 or AU 14.99 instead.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKOUT_MESSAGES } from '../../../shared/schemas/checkout.ts';
import { catalogueProduct, variantOf } from '../../test/checkout-support.ts';
import { testApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => t?.close());

const quote = (cart: Array<{ variant_id: string; quantity: number }>, zip = '10001', country_code = 'US') =>
  t.app.inject({ method: 'POST', url: '/api/calculate-shipping', payload: { shipping_address: { zip, country_code }, cart } });

const shirt = (size = 'M', quantity = 1) => ({ variant_id: variantOf(catalogueProduct(t, 'unisex-tshirt'), size), quantity });
const hoodie = (quantity = 1) => ({ variant_id: variantOf(catalogueProduct(t, 'unisex-hoodie'), 'L'), quantity });
const mug = (quantity = 1) => ({ variant_id: variantOf(catalogueProduct(t, 'white-glossy-mug'), '11oz'), quantity });
const hat = (quantity = 1) => ({ variant_id: variantOf(catalogueProduct(t, 'dad-hat'), 'One size'), quantity });

describe('POST /api/calculate-shipping (catalogue rates)', () => {
  it('checks the buckets the test arithmetic assumes', () => {
    expect(catalogueProduct(t, 'unisex-tshirt').shippingBucket).toBe('shirts');
    expect(catalogueProduct(t, 'unisex-hoodie').shippingBucket).toBe('hoodies');
    expect(catalogueProduct(t, 'white-glossy-mug').shippingBucket).toBe('mugs');
    expect(catalogueProduct(t, 'dad-hat').shippingBucket).toBe('hats');
    const rates = Object.fromEntries(t.app.catalogue.shipping.map((b) => [b.bucket, [b.firstItemCents, b.additionalItemCents, b.packsSeparately]]));
    expect(rates.shirts).toEqual([475, 220, false]);
    expect(rates.hoodies).toEqual([849, 250, false]);
    expect(rates.mugs).toEqual([849, 250, true]);
    expect(rates.hats).toEqual([449, 200, true]);
  });

  const cases: Array<[string, () => Array<{ variant_id: string; quantity: number }>, string, number]> = [
    // One shirt: its own first-item rate.
    ['one shirt, US', () => [shirt()], 'US', 475],
    // Bundled: the hoodie has the highest first-item rate and pays it (8.49); the two shirts
    // pay their additional rate (2 x 2.20). 8.49 + 4.40 = 12.89. A 2XL surcharge changes nothing.
    ['two shirts and a hoodie, US', () => [shirt('M', 1), shirt('2XL', 1), hoodie()], 'US', 849 + 2 * 220],
    // Mugs and hats each ship as their own package; the shirt alone is the bundle.
    // Shirt 4.75; mugs 8.49 + 2.50 = 10.99; hat 4.49. 4.75 + 10.99 + 4.49 = 20.23.
    ['a shirt, two mugs and a hat, US', () => [shirt(), mug(2), hat()], 'US', 475 + (849 + 250) + 449],
    // Canada: the bundle's first item pays the flat 9.99 instead; the other bundled item its
    // additional rate. Hoodie leads: 9.99 + shirt 2.20 = 12.19.
    ['a shirt and a hoodie, CA', () => [shirt(), hoodie()], 'CA', 999 + 220],
    // Germany, three shirts: 9.99 + 2 x 2.20 = 14.39.
    ['three shirts, DE', () => [shirt('S', 3)], 'DE', 999 + 2 * 220],
    // Australia: every package's first item pays 14.99. Bundle (shirt) 14.99; mugs 14.99 + 2.50.
    // 14.99 + 17.49 = 32.48.
    ['a shirt and two mugs, AU', () => [shirt(), mug(2)], 'AU', 1499 + (1499 + 250)],
    // United Kingdom, hats only: 9.99 + 2.00 = 11.99.
    ['two hats, GB', () => [hat(2)], 'GB', 999 + 200],
  ];
  const zips: Record<string, string> = { US: '10001', CA: 'K1A 0B1', DE: '10115', AU: '2000', GB: 'SW1A 1AA' };

  for (const [name, cart, country, cents] of cases) {
    it(`${name}: ${cents} cents`, async () => {
      const res = await quote(cart(), zips[country], country);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ success: true, shipping_cost: cents / 100, shipping_cost_cents: cents, shipping_method: 'Standard', currency: 'USD' });
    });
  }

  it('refuses bad input with the reason, as 400', async () => {
    const bad: Array<[string, () => Promise<Awaited<ReturnType<typeof quote>>>, string]> = [
      ['blank ZIP', () => quote([shirt()], '   '), CHECKOUT_MESSAGES.badZip],
      ['letters for a US ZIP', () => quote([shirt()], 'ABCDE'), CHECKOUT_MESSAGES.badZip],
      ['markup as a ZIP', () => quote([shirt()], '<b>1</b>'), CHECKOUT_MESSAGES.badZip],
      ['a German ZIP of 4 digits', () => quote([shirt()], '1011', 'DE'), CHECKOUT_MESSAGES.badZip],
      ['a country not shipped to', () => quote([shirt()], '75001', 'FR'), CHECKOUT_MESSAGES.badCountry],
      ['a three-letter country', () => quote([shirt()], '10001', 'USA'), CHECKOUT_MESSAGES.badCountry],
      ['an empty cart', () => quote([]), CHECKOUT_MESSAGES.cartEmpty],
      ['an unknown product', () => quote([{ variant_id: 'no-such-shirt|Black||M', quantity: 1 }]), CHECKOUT_MESSAGES.unknownVariant],
      ['a colour not sold', () => quote([{ variant_id: 'unisex-tshirt|Plaid||M', quantity: 1 }]), CHECKOUT_MESSAGES.unknownVariant],
      ['a size not sold', () => quote([{ variant_id: 'unisex-tshirt|Black||6XL', quantity: 1 }]), CHECKOUT_MESSAGES.unknownVariant],
      ['a mug without its handle colour', () => quote([{ variant_id: 'white-glossy-mug|White||11oz', quantity: 1 }]), CHECKOUT_MESSAGES.unknownVariant],
      ['a garbled variant', () => quote([{ variant_id: 'unisex-tshirt', quantity: 1 }]), CHECKOUT_MESSAGES.unknownVariant],
      ['quantity 0', () => quote([shirt('M', 0)]), CHECKOUT_MESSAGES.badQuantity],
      ['quantity 101', () => quote([shirt('M', 101)]), CHECKOUT_MESSAGES.badQuantity],
      ['too many lines', () => quote(Array.from({ length: 51 }, () => shirt())), CHECKOUT_MESSAGES.tooManyLines],
    ];
    for (const [name, send, message] of bad) {
      const res = await send();
      expect(res.statusCode, `${name}: ${res.body}`).toBe(400);
      expect(res.json().error, name).toBe(message);
    }
  });

  it('accepts ZIPs as people type them: ZIP+4, lower-case postcodes, no space', async () => {
    for (const [zip, country] of [['10001-1234', 'US'], ['k1a0b1', 'CA'], ['sw1a1aa', 'GB'], ['  2000 ', 'AU']] as const) {
      const res = await quote([shirt()], zip, country);
      expect(res.statusCode, `${zip} ${country}: ${res.body}`).toBe(200);
    }
  });
});
