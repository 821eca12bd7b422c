/** SQL for the catalogue tables, which mirror shared/catalogue/*.tsv. */
import type { Kysely, Transaction } from 'kysely';
import type { Catalogue } from '../../../shared/catalogue/parse.ts';
import type { DB } from '../../platform/db/schema.ts';

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
