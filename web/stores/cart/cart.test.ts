import { describe, expect, it } from 'vitest';
import { CART_VERSION, cartCount, cartDisplayTotalCents, parseStoredCart, type CartItem } from './cartRecord.ts';
import { createCartStore, type CartPersistence, type NewCartItem } from './cartStore.ts';

const item = (over: Partial<NewCartItem> = {}): NewCartItem => ({
  product_id: 'p1',
  sku: 'unisex-tshirt',
  variant_id: 'unisex-tshirt|Black||2XL',
  name: 'Unisex T-Shirt',
  price_cents: 2334,
  image: null,
  color: 'Black',
  handle_color: null,
  size: '2XL',
  selected_screenshot: 0,
  screenshot: '/media/screenshots/ab/cd.jpg',
  qty: 1,
  video_url: '/media/videos/ab/v.mp4',
  video_title: 'A video',
  creator_name: 'Ada',
  thumbnail: null,
  ...over,
});

function memory(initial?: unknown) {
  let stored = initial;
  let saves = 0;
  const persistence: CartPersistence = {
    load: async () => stored,
    save: async (cart) => {
      saves++;
      stored = structuredClone(cart);
    },
  };
  return { persistence, stored: () => stored, saves: () => saves };
}
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('cart store', () => {
  it('sets a line\'s quantity within 1 to 100, persists it, and leaves the other lines alone', async () => {
    const mem = memory();
    const cart = createCartStore(mem.persistence);
    await cart.getState().load();
    cart.getState().add(item());
    cart.getState().add(item({ sku: 'kiss-cut-stickers', variant_id: 'kiss-cut-stickers|White||3x3', name: 'Stickers', price_cents: 429, size: '3x3', color: 'White' }));
    const [tee, stickers] = cart.getState().items;
    cart.getState().setQty(tee!.line_id, 3);
    expect(cart.getState().items.map((i) => i.qty)).toEqual([3, 1]);
    expect(cartCount(cart.getState().items)).toBe(4);
    expect(cartDisplayTotalCents(cart.getState().items)).toBe(3 * 2334 + 429);
    for (const [asked, kept] of [[0, 1], [-4, 1], [2.6, 3], [101, 100], [1e9, 100]] as const) {
      cart.getState().setQty(stickers!.line_id, asked);
      expect(cart.getState().items[1]!.qty, `asked ${asked}`).toBe(kept);
    }
    cart.getState().setQty(stickers!.line_id, Number.NaN);
    expect(cart.getState().items[1]!.qty).toBe(100);
    await settle();
    const again = createCartStore(mem.persistence);
    await again.getState().load();
    expect(again.getState().items.map((i) => [i.name, i.qty])).toEqual([
      ['Unisex T-Shirt', 3],
      ['Stickers', 100],
    ]);
  });

  it('adds, removes and persists lines, and a new store finds them again', async () => {
    const mem = memory();
    const cart = createCartStore(mem.persistence);
    await cart.getState().load();
    expect(cart.getState().add(item())).toBe(true);
    expect(cart.getState().add(item({ sku: 'mug-11oz', variant_id: 'mug-11oz|White|Black|', name: 'Mug', price_cents: 1500, size: null, handle_color: 'Black', color: 'White', qty: 2 }))).toBe(true);
    expect(cart.getState().add(item({ size: 'M', variant_id: 'unisex-tshirt|Black||M', price_cents: 2169 }))).toBe(true);
    cart.getState().remove(cart.getState().items[0]!.line_id);
    await settle();
    expect((mem.stored() as { version: number }).version).toBe(CART_VERSION);

    const again = createCartStore(mem.persistence);
    await again.getState().load();
    expect(again.getState().items.map((i) => i.name)).toEqual(['Mug', 'Unisex T-Shirt']);
    expect(cartCount(again.getState().items)).toBe(3);
    expect(cartDisplayTotalCents(again.getState().items)).toBe(1500 * 2 + 2169);
  });

  it('keeps a line added before the stored cart was read, after the stored lines', async () => {
    const mem = memory({ version: CART_VERSION, items: [{ ...item({ name: 'Stored' }), line_id: 'a' }] });
    const cart = createCartStore(mem.persistence);
    cart.getState().add(item({ name: 'New' }));
    await cart.getState().load();
    await settle();
    expect(cart.getState().items.map((i) => i.name)).toEqual(['Stored', 'New']);
    expect((mem.stored() as { items: CartItem[] }).items.map((i) => i.name)).toEqual(['Stored', 'New']);
  });

  it('works in memory when storage fails', async () => {
    const cart = createCartStore({ load: () => Promise.reject(new Error('no IndexedDB')), save: () => Promise.reject(new Error('quota')) });
    await cart.getState().load();
    expect(cart.getState().add(item())).toBe(true);
    await settle();
    expect(cart.getState().items).toHaveLength(1);
    expect(cart.getState().saveError).toBe('quota');
  });
});

describe('stored carts from other versions', () => {
  it('migrates version 1 (prices in dollars) to cents', () => {
    const { price_cents: _c, qty: _q, ...rest } = { ...item(), line_id: 'x' };
    const { items, dropped } = parseStoredCart({ version: 1, items: [{ ...rest, price: '$23.34', quantity: 2 }, { ...rest, price: 21.69 }] });
    expect(dropped).toBe(0);
    expect(items.map((i) => [i.price_cents, i.qty])).toEqual([
      [2334, 2],
      [2169, 1],
    ]);
  });

  it('drops junk, unknown versions and broken lines without throwing', () => {
    for (const raw of [null, undefined, 'cart', 42, [], { items: 'no' }, { version: 99, items: [item()] }, { version: CART_VERSION }]) {
      expect(parseStoredCart(raw).items, JSON.stringify(raw)).toEqual([]);
    }
    const good = { ...item(), line_id: 'g' };
    const { items, dropped } = parseStoredCart({
      version: CART_VERSION,
      items: [good, { ...good, qty: 0 }, { ...good, price_cents: 12.5 }, { ...good, variant_id: 'other|Black||M' }, { ...good, selected_screenshot: 'first' }, null],
    });
    expect(items).toEqual([good]);
    expect(dropped).toBe(5);
  });

  it('rewrites a cart it had to clean, so the dropped lines are gone for good', async () => {
    const mem = memory({ version: CART_VERSION, items: [{ ...item(), line_id: 'g' }, { bad: true }] });
    const cart = createCartStore(mem.persistence);
    await cart.getState().load();
    await settle();
    expect(cart.getState().dropped).toBe(1);
    expect((mem.stored() as { items: unknown[] }).items).toHaveLength(1);
  });
});
