import { ProductPage } from '../../features/shop/ProductPage.tsx';
import { CartModal } from '../lazyModals.ts';

/** /product/…: the product page's View Cart opens the cart. */
export function ProductRoute() {
  return <ProductPage CartModal={CartModal} />;
}
