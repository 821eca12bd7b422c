/**
 * Paid orders for the fulfilment tests, made directly in the database: a creator, a video, a
 * merch product with one stored screenshot (a real image in storage), and an order with items.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import sharp from 'sharp';
import type { Catalogue } from '../../shared/catalogue/parse.ts';
import type { DB, OrderStatus } from '../platform/db/schema.ts';
import { createUser } from '../modules/accounts/index.ts';
import type { ObjectStorage } from '../platform/storage/object-storage.ts';
import { newKey } from '../platform/storage/object-storage.ts';

export interface ShopDeps {
  db: Kysely<DB>;
  storage: ObjectStorage;
  catalogue: Catalogue;
}

/** A JPEG whose left half is red and right half blue, so a print file's content can be checked. */
export async function twoColourJpeg(width: number, height: number): Promise<Buffer> {
  const left = await sharp({ create: { width: Math.floor(width / 2), height, channels: 3, background: '#ff0000' } }).png().toBuffer();
  return sharp({ create: { width, height, channels: 3, background: '#0000ff' } })
    .composite([{ input: left, left: 0, top: 0 }])
    .jpeg({ quality: 95 })
    .toBuffer();
}

export async function merchProduct(deps: ShopDeps, size = { width: 1280, height: 720 }) {
  const tag = randomUUID().slice(0, 8);
  const creator = await createUser(deps.db, { email: `creator-${tag}@example.com`, displayName: `Creator ${tag}`, role: 'creator', emailVerified: true });
  const video = await deps.db
    .insertInto('videos')
    .values({ user_id: creator.id, title: `Clip ${tag}`, video_key: newKey('mp4'), content_type: 'video/mp4', size_bytes: 1000 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const product = await deps.db
    .insertInto('merch_products')
    .values({ video_id: video.id, creator_id: creator.id, created_by: creator.id, video_title: `Clip ${tag}`, creator_name: `Creator ${tag}` })
    .returning('id')
    .executeTakeFirstOrThrow();
  const image = await twoColourJpeg(size.width, size.height);
  const key = newKey('jpg');
  await deps.storage.put('screenshots', key, image);
  const shot = await deps.db
    .insertInto('merch_screenshots')
    .values({
      merch_product_id: product.id,
      position: 1,
      kind: 'capture',
      storage_key: key,
      content_type: 'image/jpeg',
      width: size.width,
      height: size.height,
      size_bytes: image.length,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { creatorId: creator.id, videoId: video.id, productId: product.id, screenshotId: shot.id };
}

export interface LineSpec {
  sku: string;
  colour: string;
  size: string;
  quantity?: number;
}

/** An order (paid unless told otherwise) for the product's screenshot, priced from the catalogue. */
export async function shopOrder(
  deps: ShopDeps,
  product: Awaited<ReturnType<typeof merchProduct>>,
  lines: LineSpec[],
  options: { status?: OrderStatus; email?: string | null } = {},
): Promise<string> {
  const items = lines.map((l, position) => {
    const p = deps.catalogue.products.find((c) => c.sku === l.sku);
    if (!p) throw new Error(`unknown sku ${l.sku}`);
    const quantity = l.quantity ?? 1;
    const surcharge = p.sizeSurchargesCents[l.size] ?? 0;
    return {
      position,
      sku: p.sku,
      product_name: p.name,
      merch_product_id: product.productId,
      screenshot_id: product.screenshotId,
      video_id: product.videoId,
      creator_id: product.creatorId,
      colour: l.colour,
      size: l.size,
      quantity,
      unit_price_cents: p.priceCents,
      size_surcharge_cents: surcharge,
      base_cost_cents: p.baseCostCents,
      line_total_cents: (p.priceCents + surcharge) * quantity,
    };
  });
  const subtotal = items.reduce((s, i) => s + i.line_total_cents, 0);
  const status = options.status ?? 'paid';
  const order = await deps.db
    .insertInto('orders')
    .values({
      status,
      customer_email: options.email === undefined ? 'buyer@example.com' : options.email,
      shipping_zip: '10001',
      shipping_country: 'US',
      subtotal_cents: subtotal,
      shipping_cents: 499,
      total_cents: subtotal + 499,
      paid_at: status === 'pending' ? null : new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await deps.db.insertInto('order_items').values(items.map((i) => ({ ...i, order_id: order.id }))).execute();
  if (status !== 'pending') {
    await deps.db.insertInto('order_status_history').values({ order_id: order.id, from_status: 'pending', to_status: 'paid', reason: 'test' }).execute();
  }
  return order.id;
}

export async function listKeys(storage: ObjectStorage, bucket: 'prints' | 'screenshots'): Promise<string[]> {
  const keys: string[] = [];
  for await (const k of storage.list(bucket)) keys.push(k);
  return keys.sort();
}
