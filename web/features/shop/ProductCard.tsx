import { useId, useRef, useState } from 'react';
import { formatCents } from '../../../shared/money.ts';
import type { CatalogueProductReply } from '../../../shared/schemas/catalogue.ts';
import type { MerchProductReply } from '../../../shared/schemas/products.ts';
import type { Size } from '../../../shared/print.ts';
import type { VariantChoice } from '../../../shared/shop/variants.ts';
import { DpiBadge } from '../../components/DpiBadge.tsx';
import { useCart } from '../../stores/cart/cartStore.ts';
import { MockupCanvas } from './MockupCanvas.tsx';
import { cartItemFor, type ScreenshotChoice } from './productPage.ts';
import { areaInSize, firstChoice, lowDpiHint, mockupShapeOf, photoPrintStatus, priceInSize, qualityInSize } from './productOptions.ts';
import './ProductCard.css';

/** The cart shows the mockup this small. */
const CART_IMAGE_PX = 160;

interface ProductCardProps {
  product: CatalogueProductReply;
  /** Null when browsing: nothing can be added before a screenshot exists. */
  merch: MerchProductReply | null;
  screenshot: ScreenshotChoice | null;
  image: HTMLImageElement | null;
  imageSize: Size | null;
  /** The card's heading level: 4 inside a category's section of the all-products view. */
  headingLevel?: 3 | 4;
}

/** The mockup as a small JPEG for the cart line; null when the canvas cannot be read. */
function cartImage(canvas: HTMLCanvasElement | null): string | null {
  if (!canvas) return null;
  try {
    const small = document.createElement('canvas');
    small.width = CART_IMAGE_PX;
    small.height = CART_IMAGE_PX;
    const ctx = small.getContext('2d');
    if (!ctx) return null;
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, CART_IMAGE_PX, CART_IMAGE_PX);
    ctx.drawImage(canvas, 0, 0, CART_IMAGE_PX, CART_IMAGE_PX);
    return small.toDataURL('image/jpeg', 0.85);
  } catch {
    return null;
  }
}

/** One catalogue product: live mockup, price in the chosen size, options, print quality and Add to Cart. */
export function ProductCard({ product, merch, screenshot, image, imageSize, headingLevel = 3 }: ProductCardProps) {
  const [choice, setChoice] = useState<VariantChoice>(() => firstChoice(product));
  const [added, setAdded] = useState<{ text: string; n: number } | null>(null);
  const canvasRef = useRef<HTMLCanvasElement | null>(null);
  const headingId = useId();
  const ids = { colour: useId(), handle: useId(), size: useId() };

  const price = priceInSize(product, choice.size);
  const area = areaInSize(product, choice.size);
  const quality = imageSize ? qualityInSize(imageSize, product, choice.size) : null;
  const hint = imageSize ? lowDpiHint(imageSize, product, choice.size) : null;
  const photo = imageSize ? photoPrintStatus(imageSize, choice.size) : null;
  const canAdd = merch !== null && screenshot !== null;
  const Heading = headingLevel === 4 ? 'h4' : 'h3';

  const addToCart = () => {
    if (!merch || !screenshot) return;
    const ok = useCart.getState().add(cartItemFor({ merch, product, choice, screenshot, image: cartImage(canvasRef.current) }));
    setAdded((prev) => ({ text: ok ? 'Added to cart!' : 'Your cart is full. Remove an item first.', n: (prev?.n ?? 0) + 1 }));
  };

  return (
    <article className="product-card" aria-labelledby={headingId}>
      <div className="product-card__preview">
        <MockupCanvas
          canvasRef={canvasRef}
          shape={mockupShapeOf(product)}
          colour={choice.colour}
          handleColour={choice.handleColour}
          area={area}
          image={image}
          label={`${product.name} mockup in ${choice.colour}${screenshot ? ` with ${screenshot.label}` : ''}`}
        />
        {quality && (
          <div className="product-card__quality">
            <DpiBadge dpi={quality.dpi} label={`Print quality${choice.size ? ` in ${choice.size}` : ''}`} />
            {hint && <p className="product-card__hint">{hint}</p>}
            {photo && (
              <p className="product-card__hint">
                {choice.size} print: {photo.status} (needs {photo.min.width} × {photo.min.height} px)
              </p>
            )}
          </div>
        )}
      </div>
      <div className="product-card__body">
        <Heading className="product-card__name" id={headingId}>
          {product.name}
        </Heading>
        <p className="product-card__price">
          {formatCents(price)}
        </p>
        <div className="product-card__options">
          <div className="field">
            <label className="field__label" htmlFor={ids.colour}>
              Color
            </label>
            <select id={ids.colour} className="field__control" value={choice.colour} onChange={(e) => setChoice({ ...choice, colour: e.target.value })}>
              {product.colours.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
          </div>
          {product.handle_colours.length > 0 && (
            <div className="field">
              <label className="field__label" htmlFor={ids.handle}>
                Handle Color
              </label>
              <select
                id={ids.handle}
                className="field__control"
                value={choice.handleColour ?? ''}
                onChange={(e) => setChoice({ ...choice, handleColour: e.target.value })}
              >
                {product.handle_colours.map((c) => (
                  <option key={c}>{c}</option>
                ))}
              </select>
            </div>
          )}
          {product.sizes.length > 0 && (
            <div className="field">
              <label className="field__label" htmlFor={ids.size}>
                Size
              </label>
              <select id={ids.size} className="field__control" value={choice.size ?? ''} onChange={(e) => setChoice({ ...choice, size: e.target.value })}>
                {product.sizes.map((s) => (
                  <option key={s}>{s}</option>
                ))}
              </select>
            </div>
          )}
        </div>
        <button type="button" className="button button--primary product-card__add" disabled={!canAdd} onClick={addToCart}>
          Add to Cart
        </button>
        <p className="product-card__added" role="status" key={added?.n}>
          {added?.text}
        </p>
      </div>
    </article>
  );
}
