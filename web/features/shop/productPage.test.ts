import { describe, expect, it } from 'vitest';
import { parseCatalogueReply } from './testCatalogue.ts';
import type { MerchProductReply } from '../../../shared/schemas/products.ts';
import { parseItem } from '../../stores/cart/cartRecord.ts';
import { cartItemFor, choiceOf, defaultSelection, screenshotChoices } from './productPage.ts';

const merch = (over: Partial<MerchProductReply> = {}): MerchProductReply => ({
  id: '3f1c2a9e-1d2b-4c3d-8e9f-0a1b2c3d4e5f',
  video_id: 'v1',
  video_url: '/media/videos/ab/clip.mp4',
  video_title: 'A clip',
  creator_name: 'Ada',
  category: 'mens',
  thumbnail_url: '/media/screenshots/t.jpg',
  thumbnail_size: { width: 1280, height: 720 },
  screenshots: ['/media/screenshots/a.jpg', '/media/screenshots/b.jpg'],
  screenshot_sizes: [
    { width: 640, height: 360 },
    { width: 3000, height: 4000 },
  ],
  screenshot_timestamp: 2,
  created_at: '2025-01-01T00:00:00Z',
  ...over,
});

describe('screenshot choices', () => {
  it('list the thumbnail, then each screenshot with its index and size', () => {
    const choices = screenshotChoices(merch());
    expect(choices.map((c) => [c.selection, c.url, c.label])).toEqual([
      ['thumbnail', '/media/screenshots/t.jpg', 'Thumbnail'],
      [0, '/media/screenshots/a.jpg', 'Screenshot 1'],
      [1, '/media/screenshots/b.jpg', 'Screenshot 2'],
    ]);
    expect(choices[2]!.size).toEqual({ width: 3000, height: 4000 });
  });

  it('never repeat the thumbnail, and start on the first screenshot', () => {
    const choices = screenshotChoices(merch({ screenshots: ['/media/screenshots/t.jpg', '/media/screenshots/b.jpg'] }));
    expect(choices.map((c) => c.selection)).toEqual(['thumbnail', 1]);
    expect(defaultSelection(choices)).toBe(1);
    expect(defaultSelection(choices, 'thumbnails')).toBe('thumbnail');
    expect(defaultSelection(choices, 'mugs')).toBe(1);
  });

  it('start on the thumbnail when there is nothing else, and offer nothing without images', () => {
    const onlyThumb = screenshotChoices(merch({ screenshots: [], screenshot_sizes: [] }));
    expect(defaultSelection(onlyThumb)).toBe('thumbnail');
    const none = screenshotChoices(merch({ screenshots: [], screenshot_sizes: [], thumbnail_url: null }));
    expect(none).toEqual([]);
    expect(defaultSelection(none)).toBeNull();
    expect(choiceOf(none, null)).toBeNull();
  });
});

describe('the cart line', () => {
  it('names the product, variant, size price and screenshot, and is a line the cart accepts', () => {
    const tee = parseCatalogueReply('unisex-tshirt');
    const shot = screenshotChoices(merch())[2]!;
    const item = cartItemFor({ merch: merch(), product: tee, choice: { sku: tee.sku, colour: 'Navy', handleColour: null, size: '3XL' }, screenshot: shot, image: null });
    expect(item).toMatchObject({
      product_id: merch().id,
      sku: 'unisex-tshirt',
      variant_id: 'unisex-tshirt|Navy||3XL',
      price_cents: tee.price_cents + tee.size_surcharges_cents['3XL']!,
      color: 'Navy',
      size: '3XL',
      selected_screenshot: 1,
      screenshot: '/media/screenshots/b.jpg',
      qty: 1,
      video_title: 'A clip',
      thumbnail: '/media/screenshots/t.jpg',
    });
    expect(parseItem({ ...item, line_id: 'x' })).not.toBeNull();
  });
});
