/** Loads the catalogue from shared/catalogue/*.tsv, the one place it lives. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCatalogue, type Catalogue, type CatalogueProduct } from '../../shared/catalogue/parse.ts';
import type { CatalogueProductReply } from '../../shared/schemas/catalogue.ts';

const DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../shared/catalogue');

export async function readCatalogue(dir = DIR): Promise<Catalogue> {
  const read = (f: string) => readFile(path.join(dir, f), 'utf8');
  return parseCatalogue({
    products: await read('products.tsv'),
    shipping: await read('shipping.tsv'),
    printSizes: await read('print-sizes.tsv'),
  });
}

export function toCatalogueReply(p: CatalogueProduct): CatalogueProductReply {
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
