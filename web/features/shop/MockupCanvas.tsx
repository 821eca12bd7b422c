import { useLayoutEffect, type RefObject } from 'react';
import type { Area } from '../../../shared/catalogue/parse.ts';
import { drawMockup } from './mockup.ts';
import { MOCKUP_SIZE, type MockupShape } from './mockupShapes.ts';

interface MockupCanvasProps {
  shape: MockupShape;
  colour: string;
  handleColour: string | null;
  area: Area;
  /** Not in the document, so its width and height are its natural size. */
  image: HTMLImageElement | null;
  label: string;
  /** The card reads the drawn mockup through it (the cart's picture). */
  canvasRef: RefObject<HTMLCanvasElement | null>;
}

/** The live mockup; redrawn whenever the screenshot, a colour or the print area changes. */
export function MockupCanvas({ shape, colour, handleColour, area, image, label, canvasRef }: MockupCanvasProps) {
  const { widthIn, heightIn } = area;

  // Before paint, so what is on screen always matches the options shown beside it.
  useLayoutEffect(() => {
    const ctx = canvasRef.current?.getContext('2d');
    if (!ctx) return;
    drawMockup(ctx, { shape, colour, handleColour, area: { widthIn, heightIn }, image });
  }, [canvasRef, shape, colour, handleColour, widthIn, heightIn, image]);

  return (
    <canvas
      ref={canvasRef}
      className="mockup-canvas"
      width={MOCKUP_SIZE}
      height={MOCKUP_SIZE}
      role="img"
      aria-label={label}
      // Which image the canvas holds, for the page's tests and tools: empty while none is drawn.
      data-image={image?.src ?? ''}
    />
  );
}
