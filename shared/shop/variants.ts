/**
 * A variant is one product in one colour, handle colour (mugs) and size. Its id names all four,
 * so a cart line says exactly what to make, and the server checks every part against its own
 * catalogue before pricing it.
 */
import type { CatalogueProduct } from '../catalogue/parse.ts';

export interface VariantChoice {
  sku: string;
  colour: string;
  handleColour: string | null;
  size: string | null;
}

const SEP = '|';

export function variantId(v: VariantChoice): string {
  return [v.sku, v.colour, v.handleColour ?? '', v.size ?? ''].join(SEP);
}

export function parseVariantId(id: string): VariantChoice | null {
  const parts = id.split(SEP);
  if (parts.length !== 4 || !parts[0] || !parts[1]) return null;
  return { sku: parts[0], colour: parts[1], handleColour: parts[2] || null, size: parts[3] || null };
}

type Variantable = Pick<CatalogueProduct, 'sku' | 'colours' | 'handleColours' | 'sizes'>;

/** The choice when it names options the product really has (and every option it needs), else null. */
export function checkVariant(product: Variantable, v: VariantChoice): VariantChoice | null {
  if (v.sku !== product.sku || !product.colours.includes(v.colour)) return null;
  if (product.handleColours.length > 0 ? !v.handleColour || !product.handleColours.includes(v.handleColour) : v.handleColour !== null) return null;
  if (product.sizes.length > 0 ? !v.size || !product.sizes.includes(v.size) : v.size !== null) return null;
  return v;
}

/** The first colour, handle colour and size: what a product card shows before any choice. */
export function defaultVariant(product: Variantable): VariantChoice {
  return {
    sku: product.sku,
    colour: product.colours[0] ?? 'White',
    handleColour: product.handleColours[0] ?? null,
    size: product.sizes.includes('M') ? 'M' : (product.sizes[0] ?? null),
  };
}
