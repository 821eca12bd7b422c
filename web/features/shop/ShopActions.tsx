import { Suspense, useState, type ComponentType } from 'react';
import { Link } from 'react-router';
import { cartCount } from '../../stores/cart/cartRecord.ts';
import { useCart } from '../../stores/cart/cartStore.ts';

/** The cart modal, handed in by the app layer (it belongs to the cart); loaded when first opened. */
export type CartModalComponent = ComponentType<{ onClose: () => void }>;

/** View Cart (opens the cart modal) and Checkout, shown at the top and the bottom of the product page. */
export function ShopActions({ label, CartModal }: { label: string; CartModal: CartModalComponent }) {
  const count = useCart((s) => cartCount(s.items));
  const [open, setOpen] = useState(false);
  return (
    <div className="shop-actions" role="group" aria-label={label}>
      <button type="button" className="button button--ghost" onClick={() => setOpen(true)}>
        View Cart ({count})
      </button>
      <Link className="button button--primary" to="/checkout">
        Checkout
      </Link>
      {open && (
        <Suspense fallback={null}>
          <CartModal onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}
