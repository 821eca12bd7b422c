/**
 * Every SQL statement of merch: the catalogue tables (which mirror shared/catalogue/*.tsv), merch
 * products and their screenshots, and the print files of order items.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Catalogue } from '../../../shared/catalogue/parse.ts';
import type { MerchCategory } from '../../../shared/categories.ts';
import type { DB, MerchScreenshotsTable } from '../../platform/db/schema.ts';

/** Replaces the catalogue with the given one in a single transaction. Products no longer listed are deactivated. */
export async function syncCatalogue(db: Kysely<DB>, catalogue: Catalogue): Promise<void> {
  await db.transaction().execute(async (trx: Transaction<DB>) => {
    for (const b of catalogue.shipping) {
      await trx
        .insertInto('shipping_buckets')
        .values({
          bucket: b.bucket,
          first_item_cents: b.firstItemCents,
          additional_item_cents: b.additionalItemCents,
          packs_separately: b.packsSeparately,
        })
        .onConflict((oc) =>
          oc.column('bucket').doUpdateSet({
            first_item_cents: b.firstItemCents,
            additional_item_cents: b.additionalItemCents,
            packs_separately: b.packsSeparately,
          }),
        )
        .execute();
    }
    for (const t of catalogue.printSizes) {
      await trx
        .insertInto('print_targets')
        .values({ target: t.target, min_width_px: t.minWidthPx, min_height_px: t.minHeightPx })
        .onConflict((oc) => oc.column('target').doUpdateSet({ min_width_px: t.minWidthPx, min_height_px: t.minHeightPx }))
        .execute();
    }
    const skus: string[] = [];
    for (const [i, p] of catalogue.products.entries()) {
      skus.push(p.sku);
      const row = {
        name: p.name,
        category: p.category,
        price_cents: p.priceCents,
        base_cost_cents: p.baseCostCents,
        sizes: p.sizes,
        size_surcharges_cents: JSON.stringify(p.sizeSurchargesCents),
        colours: p.colours,
        handle_colours: p.handleColours,
        print_area_text: p.printAreaText,
        print_areas: JSON.stringify(p.printAreas),
        pod_catalog_id: p.podCatalogId,
        shipping_bucket: p.shippingBucket,
        sort_order: i,
        active: true,
        updated_at: new Date(),
      };
      await trx
        .insertInto('catalogue_products')
        .values({ sku: p.sku, ...row })
        .onConflict((oc) => oc.column('sku').doUpdateSet(row))
        .execute();
    }
    if (skus.length > 0) {
      await trx.updateTable('catalogue_products').set({ active: false }).where('sku', 'not in', skus).execute();
    }
  });
}

export interface NewMerchProduct {
  videoId: string;
  creatorId: string;
  createdBy: string;
  category: MerchCategory | null;
  videoTitle: string;
  creatorName: string;
  screenshotTimestampMs: number | null;
}

export interface NewScreenshot {
  position: number;
  kind: MerchScreenshotsTable['kind'];
  storageKey: string;
  contentType: MerchScreenshotsTable['content_type'];
  width: number;
  height: number;
  sizeBytes: number;
}

/** Inserts a merch product and its screenshots; answers the product's id. Run it in a transaction. */
export async function insertMerchProduct(trx: Kysely<DB>, product: NewMerchProduct, screenshots: NewScreenshot[]): Promise<string> {
  const row = await trx
    .insertInto('merch_products')
    .values({
      video_id: product.videoId,
      creator_id: product.creatorId,
      created_by: product.createdBy,
      category: product.category,
      video_title: product.videoTitle,
      creator_name: product.creatorName,
      screenshot_timestamp_ms: product.screenshotTimestampMs,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('merch_screenshots')
    .values(
      screenshots.map((s) => ({
        merch_product_id: row.id,
        position: s.position,
        kind: s.kind,
        storage_key: s.storageKey,
        content_type: s.contentType,
        width: s.width,
        height: s.height,
        size_bytes: s.sizeBytes,
      })),
    )
    .execute();
  return row.id;
}

/** A merch product, or undefined. Its video is looked up through the videos module, which knows whether it may be shown. */
export function findMerchProductRow(db: Kysely<DB>, id: string) {
  return db
    .selectFrom('merch_products')
    .select(['id', 'video_id', 'category', 'video_title', 'creator_name', 'screenshot_timestamp_ms', 'created_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A merch product's screenshots (the thumbnail copy included), in order. */
export function listScreenshots(db: Kysely<DB>, productId: string) {
  return db
    .selectFrom('merch_screenshots')
    .select(['position', 'kind', 'storage_key', 'width', 'height'])
    .where('merch_product_id', '=', productId)
    .orderBy('position')
    .execute();
}

/**
 * An order's items in order, each with its screenshot's key: the product's frame, or once the
 * product is withdrawn the frame the order keeps (null when neither is left).
 */
export function listOrderItemsForPrint(db: Kysely<DB>, orderId: string) {
  return db
    .selectFrom('order_items as i')
    .leftJoin('merch_screenshots as s', 's.id', 'i.screenshot_id')
    .select([
      'i.id',
      'i.position',
      'i.sku',
      'i.colour',
      'i.size',
      'i.quantity',
      'i.unit_price_cents',
      'i.size_surcharge_cents',
      'i.print_file_key',
      (eb) => eb.fn.coalesce('s.storage_key', 'i.withheld_frame_key').as('screenshot_key'),
    ])
    .where('i.order_id', '=', orderId)
    .orderBy('i.position')
    .execute();
}

/** Records an item's print file unless it has one already; answers whether it was recorded. */
export async function setPrintFileKey(trx: Kysely<DB>, itemId: string, key: string): Promise<boolean> {
  const set = await trx
    .updateTable('order_items')
    .set({ print_file_key: key })
    .where('id', '=', itemId)
    .where('print_file_key', 'is', null)
    .executeTakeFirst();
  return Number(set.numUpdatedRows) > 0;
}

/** The print file an item has. */
export async function printFileKeyOf(db: Kysely<DB>, itemId: string): Promise<string | null> {
  const row = await db.selectFrom('order_items').select('print_file_key').where('id', '=', itemId).executeTakeFirstOrThrow();
  return row.print_file_key;
}
