/** Catalogue products in the shape the API sends them, for the shop's unit tests. */
import { parseProducts, type CatalogueProduct } from '../../../shared/catalogue/parse.ts';
import productsText from '../../../shared/catalogue/products.tsv?raw';
import type { CatalogueProductReply } from '../../../shared/schemas/catalogue.ts';

export const catalogue = parseProducts(productsText);

/** The reply GET /api/product/... carries for a catalogue product. */
export function toReply(p: CatalogueProduct): CatalogueProductReply {
  const area = (a: { widthIn: number; heightIn: number }) => ({ width_in: a.widthIn, height_in: a.heightIn });
  return {
    sku: p.sku,
    name: p.name,
    category: p.category,
    price_cents: p.priceCents,
    size_surcharges_cents: p.sizeSurchargesCents,
    sizes: p.sizes,
    colours: p.colours,
    handle_colours: p.handleColours,
    print_area: area(p.printAreas.front),
    print_area_by_size: Object.fromEntries(Object.entries(p.printAreas.bySize).map(([s, a]) => [s, area(a)])),
  };
}

export function parseCatalogueReply(sku: string): CatalogueProductReply {
  const p = catalogue.find((c) => c.sku === sku);
  if (!p) throw new Error(`no ${sku} in the catalogue`);
  return toReply(p);
}
