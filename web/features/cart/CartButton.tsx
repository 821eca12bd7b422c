import { lazy, Suspense, useEffect, useState } from 'react';
import { cartCount } from '../../stores/cart/cartRecord.ts';
import { useCart } from '../../stores/cart/cartStore.ts';
import './CartButton.css';

const CartModal = lazy(async () => ({ default: (await import('./CartModal.tsx')).CartModal }));

/** The navbar's cart: how many items it holds, and the cart modal on a click. */
export function CartButton({ className = 'icon-button' }: { className?: string }) {
  const count = useCart((s) => cartCount(s.items));
  const [open, setOpen] = useState(false);

  useEffect(() => {
    void useCart.getState().load();
  }, []);

  return (
    <>
      <button
        type="button"
        className={`${className} cart-button`}
        aria-label={`Cart, ${count} ${count === 1 ? 'item' : 'items'}`}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        <svg width={22} height={22} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
          <path d="M3 4h2l2.4 11.2a1 1 0 0 0 1 .8h9.2a1 1 0 0 0 1-.8L20 8H6.2M9 20.5h.01M17 20.5h.01" />
        </svg>
        {count > 0 && (
          <span className="cart-button__count" aria-hidden="true">
            {count}
          </span>
        )}
      </button>
      {open && (
        <Suspense fallback={null}>
          <CartModal onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
