import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { cartCount } from '../../lib/cart/cartRecord.ts';
import { useCart } from '../../lib/cart/cartStore.ts';

const CartModal = lazy(async () => ({ default: (await import('../../components/cart/CartModal.tsx')).CartModal }));

/** View Cart (opens the cart modal) and Checkout, shown at the top and the bottom of the product page. */
export function ShopActions({ label }: { label: string }) {
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
