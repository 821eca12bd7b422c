/**
 * For the checkout tests: a creator's video and a merch product made from it, written straight
 * into the database as create-product leaves them (the video's thumbnail at position 0, then
 * the captures), and checkout bodies.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { CatalogueProduct } from '../../shared/catalogue/parse.ts';
import type { CheckoutBody } from '../../shared/schemas/checkout.ts';
import { variantId } from '../../shared/shop/variants.ts';
import type { DB } from '../platform/db/schema.ts';
import { createUser } from '../modules/accounts/index.ts';
import type { TestApp } from './harness.ts';

export interface TestProduct {
  id: string;
  videoId: string;
  creatorId: string;
  videoTitle: string;
  /** Storage keys: the thumbnail's, then the captures' in order. */
  thumbnailKey: string | null;
  captureKeys: string[];
  screenshotIds: { thumbnail: string | null; captures: string[] };
}

const hex = (n = 6) => randomBytes(n).toString('hex');

export async function makeCreator(db: Kysely<DB>): Promise<string> {
  const user = await createUser(db, { email: `creator-${hex()}@example.com`, displayName: 'Frame Creator', role: 'creator', emailVerified: true });
  return user.id;
}

export async function makeMerchProduct(db: Kysely<DB>, opts: { creatorId?: string; captures?: number; thumbnail?: boolean } = {}): Promise<TestProduct> {
  const creatorId = opts.creatorId ?? (await makeCreator(db));
  const videoTitle = `Sunset ${hex(3)}`;
  const video = await db
    .insertInto('videos')
    .values({ user_id: creatorId, title: videoTitle, video_key: `test/${hex()}.mp4`, content_type: 'video/mp4', size_bytes: 1000 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const product = await db
    .insertInto('merch_products')
    .values({ video_id: video.id, creator_id: creatorId, created_by: creatorId, category: 'mens', video_title: videoTitle, creator_name: 'Frame Creator' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const withThumb = opts.thumbnail ?? true;
  const rows = [
    ...(withThumb ? [{ position: 0, kind: 'thumbnail' as const }] : []),
    ...Array.from({ length: opts.captures ?? 2 }, (_, i) => ({ position: i + 1, kind: i === 1 ? ('crop' as const) : ('capture' as const) })),
  ].map((r) => ({
    ...r,
    merch_product_id: product.id,
    storage_key: `${hex(1)}/${hex(8)}.jpg`,
    content_type: 'image/jpeg' as const,
    width: 1600,
    height: 900,
    size_bytes: 12345,
  }));
  const shots = await db.insertInto('merch_screenshots').values(rows).returning(['id', 'kind', 'storage_key', 'position']).execute();
  shots.sort((a, b) => a.position - b.position);
  const thumb = shots.find((s) => s.kind === 'thumbnail') ?? null;
  const captures = shots.filter((s) => s.kind !== 'thumbnail');
  return {
    id: product.id,
    videoId: video.id,
    creatorId,
    videoTitle,
    thumbnailKey: thumb?.storage_key ?? null,
    captureKeys: captures.map((s) => s.storage_key),
    screenshotIds: { thumbnail: thumb?.id ?? null, captures: captures.map((s) => s.id) },
  };
}

export function catalogueProduct(t: TestApp, sku: string): CatalogueProduct {
  const p = t.app.catalogue.products.find((x) => x.sku === sku);
  if (!p) throw new Error(`${sku} is not in the catalogue`);
  return p;
}

/** A variant id of a catalogue product: its first colour (and handle colour) unless told otherwise. */
export function variantOf(p: CatalogueProduct, size: string, colour = p.colours[0]!): string {
  return variantId({ sku: p.sku, colour, handleColour: p.handleColours[0] ?? null, size });
}

export type CartLine = CheckoutBody['cart'][number];

export function checkoutBody(cart: CartLine[], extra: Partial<CheckoutBody> = {}): CheckoutBody {
  return { shipping_address: { zip: '10001', country_code: 'US' }, cart, ...extra };
}

export async function countRows(db: Kysely<DB>) {
  const n = async (table: 'orders' | 'order_items' | 'order_status_history' | 'embedded_payment_sessions' | 'embedded_payment_events') =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  return {
    orders: await n('orders'),
    items: await n('order_items'),
    history: await n('order_status_history'),
    sessions: await n('embedded_payment_sessions'),
    events: await n('embedded_payment_events'),
  };
}

/** The page's origin in the checkout tests (the app's PUBLIC_URL there). */
export const CHECKOUT_ORIGIN = 'http://localhost:3000';

/** Requests as the shop's pages make them, against the test app `app()` answers. */
export function checkoutClient(app: () => TestApp) {
  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    app().app.inject({ method: 'POST', url, payload: payload as object, headers: { origin: CHECKOUT_ORIGIN, ...headers } });
  /** The hosted payment page's form, submitted. */
  const payForm = (sessionId: string, fields: Record<string, string>) =>
    app().app.inject({
      method: 'POST',
      url: `/pay/${sessionId}`,
      payload: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: CHECKOUT_ORIGIN },
    });
  /** The embedded provider's stored session. */
  const session = (id: string) => app().db.selectFrom('embedded_payment_sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return { post, payForm, session };
}

/** A shipping address in New York (the ZIP the checkout tests quote for), as the payment page's fields. */
export const TEST_ADDRESS = { name: 'Pat Buyer', address_line1: '1 Main St', address_line2: 'Apt 2', city: 'New York', state: 'NY', postal_code: '10001' } as const;

/** The payment page's fields for a card number, valid otherwise (with TEST_ADDRESS). */
export function testCard(number: string, extra: Partial<Record<'email' | 'expiry' | 'cvc' | keyof typeof TEST_ADDRESS, string>> = {}): Record<string, string> {
  return { email: 'buyer@example.com', card_number: number, expiry: '12 / 34', cvc: '123', ...TEST_ADDRESS, ...extra };
}
