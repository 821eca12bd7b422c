/**
 * The cart store: zustand, persisted in IndexedDB (idb-keyval) so the cart survives reloads and
 * works offline. Saves run one after another; a failed save leaves the cart working in memory.
 */
import { createStore as createIdbStore, get, set as idbSet } from 'idb-keyval';
import { create } from 'zustand';
import { MAX_ITEM_QUANTITY } from '../../../shared/shop/pricing.ts';
import { MAX_CART_LINES, parseStoredCart, toStoredCart, type CartItem, type StoredCart } from './cartRecord.ts';

export interface CartPersistence {
  load(): Promise<unknown>;
  save(cart: StoredCart): Promise<void>;
}

const KEY = 'cart';

export function idbCartPersistence(): CartPersistence {
  let store: ReturnType<typeof createIdbStore> | null = null;
  const db = () => (store ??= createIdbStore('framemerch-cart', 'cart'));
  return { load: () => get(KEY, db()), save: (cart) => idbSet(KEY, cart, db()) };
}

export type NewCartItem = Omit<CartItem, 'line_id'>;

export interface CartState {
  status: 'loading' | 'ready';
  items: CartItem[];
  /** Lines of a stored cart that could not be read and were dropped. */
  dropped: number;
  saveError: string | null;
  load: () => Promise<void>;
  /** Appends a line; false when the cart is full. */
  add: (item: NewCartItem) => boolean;
  remove: (lineId: string) => void;
  /** Sets a line's quantity, kept to whole numbers from 1 to MAX_ITEM_QUANTITY (what checkout accepts). */
  setQty: (lineId: string, qty: number) => void;
  clear: () => void;
}

let seq = 0;
const newLineId = () => `${Date.now().toString(36)}-${(seq++).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

export function createCartStore(persistence: CartPersistence) {
  let saving: Promise<void> = Promise.resolve();
  let loading: Promise<void> | null = null;

  return create<CartState>()((set, getState) => {
    const commit = (items: CartItem[]) => {
      set({ items });
      saving = saving
        .then(() => persistence.save(toStoredCart(items)))
        .then(
          () => set({ saveError: null }),
          (error: unknown) => set({ saveError: error instanceof Error ? error.message : String(error) }),
        );
    };
    // Changes made before the stored cart is read are kept after its lines.
    const whenLoaded = (change: () => void) => {
      if (getState().status === 'ready') change();
      else void getState().load().then(change);
    };

    return {
      status: 'loading',
      items: [],
      dropped: 0,
      saveError: null,

      load: () =>
        (loading ??= (async () => {
          let raw: unknown = null;
          try {
            raw = await persistence.load();
          } catch {
            // Storage unavailable: an empty cart in memory.
          }
          const { items, dropped } = parseStoredCart(raw);
          set({ status: 'ready', items: [...items, ...getState().items], dropped });
          if (dropped > 0) commit(getState().items);
        })()),

      add: (item) => {
        if (getState().items.length >= MAX_CART_LINES) return false;
        const line = { ...item, line_id: newLineId() };
        set({ items: [...getState().items, line] });
        whenLoaded(() => commit(getState().items));
        return true;
      },

      remove: (lineId) => whenLoaded(() => commit(getState().items.filter((i) => i.line_id !== lineId))),

      setQty: (lineId, qty) => {
        if (!Number.isFinite(qty)) return;
        const next = Math.min(MAX_ITEM_QUANTITY, Math.max(1, Math.round(qty)));
        whenLoaded(() => {
          const items = getState().items;
          if (!items.some((i) => i.line_id === lineId && i.qty !== next)) return;
          commit(items.map((i) => (i.line_id === lineId ? { ...i, qty: next } : i)));
        });
      },

      clear: () => whenLoaded(() => commit([])),
    };
  });
}

/** The page's cart. */
export const useCart = createCartStore(idbCartPersistence());
