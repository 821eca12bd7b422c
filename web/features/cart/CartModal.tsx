import { Link } from 'react-router';
import { formatCents } from '../../../shared/money.ts';
import { MAX_ITEM_QUANTITY } from '../../../shared/shop/pricing.ts';
import { cartDisplayTotalCents, optionsText, type CartItem } from '../../stores/cart/cartRecord.ts';
import { useCart } from '../../stores/cart/cartStore.ts';
import { Modal } from '../../components/Modal.tsx';
import './CartModal.css';

/** A line's quantity: minus and plus buttons around the number, kept from 1 to MAX_ITEM_QUANTITY. */
function QuantityStepper({ item, label }: { item: CartItem; label: string }) {
  const setQty = useCart((s) => s.setQty);
  return (
    <div className="cart-modal__qty" role="group" aria-label={`Quantity of ${label}`}>
      <button type="button" className="button button--ghost" aria-label={`Fewer ${label}`} disabled={item.qty <= 1} onClick={() => setQty(item.line_id, item.qty - 1)}>
        −
      </button>
      <output aria-live="polite">{item.qty}</output>
      <button
        type="button"
        className="button button--ghost"
        aria-label={`More ${label}`}
        disabled={item.qty >= MAX_ITEM_QUANTITY}
        onClick={() => setQty(item.line_id, item.qty + 1)}
      >
        +
      </button>
    </div>
  );
}

/**
 * The cart: every line with its mockup, options, quantity, price and screenshot, and a delete button;
 * Continue Shopping closes it, Checkout goes to /checkout. Mount it to open it.
 */
export function CartModal({ onClose }: { onClose: () => void }) {
  const items = useCart((s) => s.items);
  const status = useCart((s) => s.status);
  const remove = useCart((s) => s.remove);

  return (
    <Modal title="Your Cart" onClose={onClose}>
      {status === 'loading' ? (
        <p role="status">Loading cart...</p>
      ) : items.length === 0 ? (
        <div className="cart-modal__empty">
          <p>Your cart is empty</p>
          <button type="button" className="button button--primary" onClick={onClose} data-autofocus>
            Continue Shopping
          </button>
        </div>
      ) : (
        <>
          <ul className="cart-modal__items" aria-label="Cart items">
            {items.map((item) => (
              <li key={item.line_id} className="cart-modal__item">
                <img className="cart-modal__image" src={item.image ?? item.screenshot} crossOrigin="anonymous" alt={`${item.name} mockup`} width={72} height={72} />
                <div className="cart-modal__details">
                  <p className="cart-modal__name">{item.name}</p>
                  <p className="cart-modal__options">{optionsText(item)}</p>
                  <p className="cart-modal__price">{formatCents(item.price_cents * item.qty)}</p>
                  <QuantityStepper item={item} label={`${item.name} (${optionsText(item)})`} />
                </div>
                <img className="cart-modal__screenshot" src={item.screenshot} crossOrigin="anonymous" alt="Screenshot to print" width={64} height={36} />
                <button
                  type="button"
                  className="button button--ghost cart-modal__delete"
                  aria-label={`Delete ${item.name} (${optionsText(item)})`}
                  onClick={() => remove(item.line_id)}
                >
                  Delete
                </button>
              </li>
            ))}
          </ul>
          <p className="cart-modal__total">
            <span>Total</span> <strong>{formatCents(cartDisplayTotalCents(items))}</strong>
          </p>
          <div className="cart-modal__actions">
            <button type="button" className="button button--ghost" onClick={onClose}>
              Continue Shopping
            </button>
            <Link className="button button--primary" to="/checkout" onClick={onClose} data-autofocus>
              Checkout
            </Link>
          </div>
        </>
      )}
    </Modal>
  );
}
