/** Catalogue products in the shape the API sends them, for the shop's unit tests. */
import { parseProducts } from '../../../shared/catalogue/parse.ts';
import productsText from '../../../shared/catalogue/products.tsv?raw';
import { toCatalogueReply, type CatalogueProductReply } from '../../../shared/schemas/catalogue.ts';

export const catalogue = parseProducts(productsText);

/** The reply GET /api/product/... carries for a catalogue product. */
export const toReply = toCatalogueReply;

export function parseCatalogueReply(sku: string): CatalogueProductReply {
  const p = catalogue.find((c) => c.sku === sku);
  if (!p) throw new Error(`no ${sku} in the catalogue`);
  return toReply(p);
}
