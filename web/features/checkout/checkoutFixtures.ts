/** A cart line as the cart keeps it, for this feature's tests: one black T-shirt in M, with its screenshot. */
import type { CartItem } from '../../stores/cart/cartRecord.ts';

export const cartItem = (over: Partial<CartItem> = {}): CartItem => ({
  line_id: 'l1',
  product_id: '0b5b0a44-8f4e-4a53-9d7e-0c6f3f1a2b3c',
  sku: 'unisex-tshirt',
  variant_id: 'unisex-tshirt|Black||M',
  name: 'Unisex T-Shirt',
  price_cents: 2169,
  image: null,
  color: 'Black',
  handle_color: null,
  size: 'M',
  selected_screenshot: 1,
  screenshot: '/media/screenshots/a.jpg',
  qty: 1,
  video_url: null,
  video_title: 'A video',
  creator_name: 'Ada',
  thumbnail: null,
  ...over,
});
