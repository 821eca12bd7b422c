import { Type, type Static } from 'typebox';
import type { CatalogueProduct } from '../catalogue/parse.ts';
import { MERCH_CATEGORIES } from '../categories.ts';
import { errorReplies } from './common.ts';
import { defineRoute } from './route.ts';

const AreaIn = Type.Object({ width_in: Type.Number(), height_in: Type.Number() });

export const CatalogueProductReply = Type.Object({
  sku: Type.String(),
  name: Type.String(),
  category: Type.String(),
  price_cents: Type.Integer({ minimum: 0 }),
  size_surcharges_cents: Type.Record(Type.String(), Type.Integer({ minimum: 0 })),
  sizes: Type.Array(Type.String()),
  colours: Type.Array(Type.String()),
  handle_colours: Type.Array(Type.String()),
  print_area: AreaIn,
  print_area_by_size: Type.Record(Type.String(), AreaIn),
});
export type CatalogueProductReply = Static<typeof CatalogueProductReply>;

/** A catalogue product as the API sends it (the shape the shop's pages read). */
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

export const catalogueRoute = defineRoute({
  method: 'GET',
  url: '/api/catalogue/products',
  access: 'public',
  schema: {
    summary: 'Products the shop sells, with retail prices in cents and print areas in inches',
    tags: ['shop'],
    querystring: Type.Object(
      { category: Type.Optional(Type.Enum([...MERCH_CATEGORIES])) },
      { additionalProperties: false },
    ),
    response: {
      200: Type.Object({ success: Type.Literal(true), products: Type.Array(CatalogueProductReply) }),
      ...errorReplies(400),
    },
  },
});
