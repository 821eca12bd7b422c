/**
 * Product outlines for the live mockup, drawn on a 400 x 400 canvas: each shape has an outline
 * (an SVG path filled with the chosen colour) and the box on it where artwork can go. The
 * product's own print area (inches, from the catalogue) is fitted inside that box, so a tall
 * print area looks tall and a wide one wide.
 */
import type { CatalogueProduct } from '../../../shared/catalogue/parse.ts';

export const MOCKUP_SIZE = 400;

export type MockupShape = 'tshirt' | 'tank' | 'longsleeve' | 'hoodie' | 'shorts' | 'hat' | 'mug' | 'bag' | 'flat';

export interface ShapeDrawing {
  outline: string;
  /** Details drawn over the fill (seams, handle, cuffs), stroked only. */
  details: string;
  /** Where the print area may sit: x, y, width, height in mockup pixels. */
  printBox: { x: number; y: number; width: number; height: number };
}

export const SHAPES: Record<MockupShape, ShapeDrawing> = {
  tshirt: {
    outline: 'M140 40 Q200 70 260 40 L350 80 L380 150 L320 170 L310 140 L310 370 L90 370 L90 140 L80 170 L20 150 L50 80 Z',
    details: 'M140 40 Q200 95 260 40',
    printBox: { x: 125, y: 110, width: 150, height: 200 },
  },
  tank: {
    outline: 'M130 30 L165 30 Q200 110 235 30 L270 30 Q280 120 320 150 L320 370 L80 370 L80 150 Q120 120 130 30 Z',
    details: 'M165 30 Q200 110 235 30',
    printBox: { x: 120, y: 150, width: 160, height: 190 },
  },
  longsleeve: {
    outline: 'M140 40 Q200 70 260 40 L340 70 L390 330 L345 340 L310 160 L310 370 L90 370 L90 160 L55 340 L10 330 L60 70 Z',
    details: 'M140 40 Q200 95 260 40 M345 340 L390 330 M55 340 L10 330',
    printBox: { x: 125, y: 110, width: 150, height: 200 },
  },
  hoodie: {
    outline: 'M150 50 Q200 10 250 50 L340 80 L390 330 L345 340 L310 170 L310 370 L90 370 L90 170 L55 340 L10 330 L60 80 Z',
    details: 'M150 50 Q200 120 250 50 M185 80 L185 130 M215 80 L215 130 M130 270 L270 270 L250 330 L150 330 Z',
    printBox: { x: 130, y: 120, width: 140, height: 140 },
  },
  shorts: {
    outline: 'M80 60 L320 60 L350 340 L220 340 L200 160 L180 340 L50 340 Z',
    details: 'M80 85 L320 85',
    printBox: { x: 90, y: 100, width: 100, height: 100 },
  },
  hat: {
    outline: 'M70 250 Q70 90 200 90 Q330 90 330 250 L390 270 Q380 300 330 290 L70 290 Z',
    details: 'M200 90 L200 250 M70 250 L330 250',
    printBox: { x: 120, y: 150, width: 160, height: 80 },
  },
  mug: {
    outline: 'M80 80 L300 80 L300 340 Q300 360 280 360 L100 360 Q80 360 80 340 Z',
    details: 'M300 130 Q380 130 380 210 Q380 290 300 290 M300 160 Q350 160 350 210 Q350 260 300 260',
    printBox: { x: 100, y: 110, width: 180, height: 200 },
  },
  bag: {
    outline: 'M60 120 L340 120 L340 380 L60 380 Z',
    details: 'M130 120 Q130 30 200 30 Q270 30 270 120',
    printBox: { x: 80, y: 140, width: 240, height: 220 },
  },
  flat: {
    outline: 'M30 30 L370 30 L370 370 L30 370 Z',
    details: '',
    printBox: { x: 40, y: 40, width: 320, height: 320 },
  },
};

const BY_SKU: Array<[RegExp, MockupShape]> = [
  [/tank/, 'tank'],
  [/hoodie|sweatshirt/, 'hoodie'],
  [/long-sleeve/, 'longsleeve'],
  [/shorts/, 'shorts'],
  [/hat|cap/, 'hat'],
  [/mug/, 'mug'],
  [/bag|tote|sleeve$/, 'bag'],
  [/tshirt|tee|shirt|ribbed|crop-top|bodysuit/, 'tshirt'],
];

export function shapeOf(product: Pick<CatalogueProduct, 'sku' | 'category'>): MockupShape {
  for (const [pattern, shape] of BY_SKU) if (pattern.test(product.sku)) return shape;
  return product.category === 'mugs' ? 'mug' : product.category === 'hats' ? 'hat' : 'flat';
}

/** Colour names to fills. Unknown names fall back to a neutral grey rather than failing. */
const FILLS: Record<string, string> = {
  Black: '#1c1c1e', White: '#f7f7f5', Navy: '#1f2a44', 'Heather Grey': '#b9b9bd', Red: '#c62828', 'Royal Blue': '#2850a8',
  'Forest Green': '#24472f', Maroon: '#5c1a2b', 'Sport Grey': '#a7a9ac', Charcoal: '#3c3d40', Pink: '#f2a7c3', Gold: '#e8b41f',
  Purple: '#5b2d8a', Orange: '#ef6c1a', 'Light Blue': '#a9cbea', 'Military Green': '#59603f', Ash: '#d9d9d6', Sand: '#d8c8a8',
  Brown: '#5a3a24', Natural: '#efe6d2',
};

export function fillOf(colour: string): string {
  return FILLS[colour] ?? '#9e9e9e';
}
