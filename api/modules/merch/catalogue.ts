/** Loads the catalogue from shared/catalogue/*.tsv, the one place it lives. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCatalogue, type Catalogue } from '../../../shared/catalogue/parse.ts';
import { toCatalogueReply, type CatalogueProductReply } from '../../../shared/schemas/catalogue.ts';

const DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/catalogue');

export async function readCatalogue(dir = DIR): Promise<Catalogue> {
  const read = (f: string) => readFile(path.join(dir, f), 'utf8');
  return parseCatalogue({
    products: await read('products.tsv'),
    shipping: await read('shipping.tsv'),
    printSizes: await read('print-sizes.tsv'),
  });
}

/** The catalogue products of a category (all of them for null), as the API sends them. */
export function catalogueReplies(catalogue: Catalogue, category: string | null): CatalogueProductReply[] {
  return catalogue.products.filter((p) => !category || p.category === category).map(toCatalogueReply);
}
