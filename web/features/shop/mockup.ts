/**
 * The live mockup: the chosen screenshot drawn onto the product outline in the chosen colour,
 * inside the product's print area. The layout is pure arithmetic (tested); drawing needs a 2D
 * canvas context.
 */
import type { Area } from '../../../shared/catalogue/parse.ts';
import { fitInside, type Size } from '../../../shared/print.ts';
import { fillOf, MOCKUP_SIZE, SHAPES, type MockupShape } from './mockupShapes.ts';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The print area fitted (centred) into the shape's print box, and the image fitted (centred, top-aligned) into that. */
export function mockupLayout(shape: MockupShape, area: Area, image: Size): { printRect: Rect; imageRect: Rect } {
  const box = SHAPES[shape].printBox;
  const areaSize = fitInside({ width: area.widthIn, height: area.heightIn }, box);
  const printRect = { x: box.x + (box.width - areaSize.width) / 2, y: box.y + (box.height - areaSize.height) / 2, ...areaSize };
  const imgSize = fitInside(image, printRect);
  // Garments print from the top of the area; everything else is centred.
  const top = shape === 'tshirt' || shape === 'tank' || shape === 'longsleeve' || shape === 'hoodie';
  const imageRect = {
    x: printRect.x + (printRect.width - imgSize.width) / 2,
    y: top ? printRect.y : printRect.y + (printRect.height - imgSize.height) / 2,
    ...imgSize,
  };
  return { printRect, imageRect };
}

export interface MockupInput {
  shape: MockupShape;
  colour: string;
  handleColour: string | null;
  area: Area;
  /** The screenshot; null draws the print area as a dashed box (browsing before any screenshot exists). */
  image: (CanvasImageSource & Size) | null;
}

/** The print area on the outline when there is no image to place in it. */
function drawEmptyArea(ctx: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D, input: MockupInput): void {
  const { printRect } = mockupLayout(input.shape, input.area, { width: input.area.widthIn, height: input.area.heightIn });
  ctx.setLineDash([8, 6]);
  ctx.lineWidth = 2;
  ctx.strokeStyle = 'rgba(109, 40, 217, 0.8)';
  ctx.strokeRect(printRect.x, printRect.y, printRect.width, printRect.height);
  ctx.setLineDash([]);
}

export function drawMockup(ctx: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D, input: MockupInput): void {
  const drawing = SHAPES[input.shape];
  ctx.clearRect(0, 0, MOCKUP_SIZE, MOCKUP_SIZE);
  const outline = new Path2D(drawing.outline);
  ctx.fillStyle = fillOf(input.colour);
  ctx.fill(outline);
  ctx.lineWidth = 2;
  ctx.strokeStyle = 'rgba(0, 0, 0, 0.35)';
  ctx.stroke(outline);
  if (drawing.details) {
    ctx.strokeStyle = input.shape === 'mug' && input.handleColour ? fillOf(input.handleColour) : 'rgba(0, 0, 0, 0.3)';
    ctx.lineWidth = input.shape === 'mug' ? 10 : 2;
    ctx.stroke(new Path2D(drawing.details));
  }
  if (!input.image) return drawEmptyArea(ctx, input);
  const { imageRect } = mockupLayout(input.shape, input.area, input.image);
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(input.image, imageRect.x, imageRect.y, imageRect.width, imageRect.height);
}
