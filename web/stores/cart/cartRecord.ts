/**
 * The cart as the browser keeps it: lines naming a merch product, a catalogue variant and the
 * screenshot to print. Prices here are for display only; the server prices every order itself.
 * Pure functions; the store (cartStore.ts) holds one cart and persists it.
 */
import { parseVariantId } from '../../../shared/shop/variants.ts';
import { MAX_ITEM_QUANTITY } from '../../../shared/shop/pricing.ts';

export const CART_VERSION = 2;
export const MAX_CART_LINES = 50;

export interface CartItem {
  /** Stable line id (React keys, removal). */
  line_id: string;
  /** The merch product (the screenshots' owner) this line prints from. */
  product_id: string;
  sku: string;
  /** sku|colour|handle colour|size: see shared/shop/variants.ts. */
  variant_id: string;
  name: string;
  /** Unit price shown when the item was added, in cents (display only). */
  price_cents: number;
  image: string | null;
  color: string;
  handle_color: string | null;
  size: string | null;
  /** 'thumbnail' or the index of the product's screenshot, and its URL. */
  selected_screenshot: 'thumbnail' | number;
  screenshot: string;
  qty: number;
  video_url: string | null;
  video_title: string;
  creator_name: string;
  thumbnail: string | null;
}

export interface StoredCart {
  version: typeof CART_VERSION;
  items: CartItem[];
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isNullableString = (v: unknown): v is string | null => v === null || typeof v === 'string';

/** A line when every field has the right type and the variant id parses; else null. */
export function parseItem(raw: unknown): CartItem | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const r = raw as Record<string, unknown>;
  const ok =
    isString(r.line_id) &&
    isString(r.product_id) &&
    isString(r.sku) &&
    isString(r.variant_id) &&
    parseVariantId(r.variant_id)?.sku === r.sku &&
    isString(r.name) &&
    Number.isSafeInteger(r.price_cents) &&
    (r.price_cents as number) >= 0 &&
    isNullableString(r.image) &&
    isString(r.color) &&
    isNullableString(r.handle_color) &&
    isNullableString(r.size) &&
    (r.selected_screenshot === 'thumbnail' || (Number.isInteger(r.selected_screenshot) && (r.selected_screenshot as number) >= 0)) &&
    isString(r.screenshot) &&
    Number.isInteger(r.qty) &&
    (r.qty as number) >= 1 &&
    (r.qty as number) <= MAX_ITEM_QUANTITY &&
    isNullableString(r.video_url) &&
    isString(r.video_title) &&
    isString(r.creator_name) &&
    isNullableString(r.thumbnail);
  return ok ? (r as unknown as CartItem) : null;
}

/**
 * Reads whatever was stored: the current version keeps its valid lines; version 1 (which had
 * prices in dollars as `price`) is migrated; anything else (older shapes, junk) is an empty cart.
 */
export function parseStoredCart(raw: unknown): { items: CartItem[]; dropped: number } {
  if (typeof raw !== 'object' || raw === null) return { items: [], dropped: 0 };
  const r = raw as Record<string, unknown>;
  if (!Array.isArray(r.items)) return { items: [], dropped: r.version === undefined ? 0 : 1 };
  let lines: unknown[] = r.items;
  if (r.version === 1) lines = lines.map(migrateV1);
  else if (r.version !== CART_VERSION) return { items: [], dropped: lines.length };
  const items = lines.map(parseItem).filter((i): i is CartItem => i !== null).slice(0, MAX_CART_LINES);
  return { items, dropped: lines.length - items.length };
}

/** Version 1 lines had `price` in dollars (a number or text) and `quantity`. */
function migrateV1(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null) return null;
  const r = raw as Record<string, unknown>;
  const dollars = typeof r.price === 'number' ? r.price : typeof r.price === 'string' ? Number(r.price.replace(/^\$/, '')) : Number.NaN;
  if (!Number.isFinite(dollars)) return null;
  const { price: _price, quantity, ...rest } = r;
  return { ...rest, price_cents: Math.round(dollars * 100), qty: r.qty ?? quantity ?? 1 };
}

export function toStoredCart(items: readonly CartItem[]): StoredCart {
  return { version: CART_VERSION, items: [...items] };
}

export function cartCount(items: readonly CartItem[]): number {
  return items.reduce((n, i) => n + i.qty, 0);
}

/** The total shown in the cart, in cents (the server's checkout total is the one charged). */
export function cartDisplayTotalCents(items: readonly CartItem[]): number {
  return items.reduce((sum, i) => sum + i.price_cents * i.qty, 0);
}

/** "Color: Black · Handle: White · Size: M", leaving out what the item does not have. */
export function optionsText(item: Pick<CartItem, 'color' | 'handle_color' | 'size'>): string {
  const parts = [`Color: ${item.color}`];
  if (item.handle_color) parts.push(`Handle Color: ${item.handle_color}`);
  if (item.size) parts.push(`Size: ${item.size}`);
  return parts.join(' · ');
}
