/**
 * The product page's pure parts: the screenshots a viewer can choose from, which one starts
 * chosen, and the cart line an Add to Cart makes.
 */
import type { CatalogueProductReply } from '../../../shared/schemas/catalogue.ts';
import type { MerchProductReply } from '../../../shared/schemas/products.ts';
import type { Size } from '../../../shared/print.ts';
import type { VariantChoice } from '../../../shared/shop/variants.ts';
import type { NewCartItem } from '../../stores/cart/cartStore.ts';
import { priceInSize, variantOf } from './productOptions.ts';

export type ScreenshotSelection = 'thumbnail' | number;

export interface ScreenshotChoice {
  selection: ScreenshotSelection;
  url: string;
  /** Pixel size as the server stored it; null when unknown (then read from the loaded image). */
  size: Size | null;
  label: string;
}

/** The thumbnail first, then every captured screenshot; the thumbnail is never listed twice. */
export function screenshotChoices(product: MerchProductReply): ScreenshotChoice[] {
  const choices: ScreenshotChoice[] = [];
  if (product.thumbnail_url) choices.push({ selection: 'thumbnail', url: product.thumbnail_url, size: product.thumbnail_size, label: 'Thumbnail' });
  product.screenshots.forEach((url, index) => {
    if (url === product.thumbnail_url) return;
    choices.push({ selection: index, url, size: product.screenshot_sizes[index] ?? null, label: `Screenshot ${index + 1}` });
  });
  return choices;
}

/**
 * The first captured screenshot when there is one, else the thumbnail. The thumbnails category
 * sells photo prints of the video's thumbnail, so there the thumbnail comes first.
 */
export function defaultSelection(choices: readonly ScreenshotChoice[], category: string | null = null): ScreenshotSelection | null {
  if (category === 'thumbnails' && choices.some((c) => c.selection === 'thumbnail')) return 'thumbnail';
  return choices.find((c) => c.selection !== 'thumbnail')?.selection ?? choices[0]?.selection ?? null;
}

export function choiceOf(choices: readonly ScreenshotChoice[], selection: ScreenshotSelection | null): ScreenshotChoice | null {
  return choices.find((c) => c.selection === selection) ?? null;
}

/** One item of a catalogue product in the chosen variant, printed with the chosen screenshot. */
export function cartItemFor(args: {
  merch: MerchProductReply;
  product: CatalogueProductReply;
  choice: VariantChoice;
  screenshot: ScreenshotChoice;
  image: string | null;
}): NewCartItem {
  const { merch, product, choice, screenshot, image } = args;
  return {
    product_id: merch.id,
    sku: product.sku,
    variant_id: variantOf(choice),
    name: product.name,
    price_cents: priceInSize(product, choice.size),
    image,
    color: choice.colour,
    handle_color: choice.handleColour,
    size: choice.size,
    selected_screenshot: screenshot.selection,
    screenshot: screenshot.url,
    qty: 1,
    video_url: merch.video_url,
    video_title: merch.video_title,
    creator_name: merch.creator_name,
    thumbnail: merch.thumbnail_url,
  };
}
