import type { ReactNode } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { formatCents } from '../../../shared/money.ts';
import { CHECKOUT_MESSAGES, orderRoute, type OrderReply } from '../../../shared/schemas/checkout.ts';
import { StatusMessage } from '../../components/StatusMessage.tsx';
import { request } from '../../lib/api.ts';
import { isApiError } from '../../lib/ApiError.ts';
import { useDocumentTitle } from '../../lib/useDocumentTitle.ts';
import { isFinalStatus, isOrderId, ORDER_POLL_MS, ORDER_WATCH_MS, orderStatusLabel } from './orderView.ts';
import { usePolledRead } from './usePolledRead.ts';
import './CheckoutPage.css';
import './OrderPage.css';

/**
 * /orders/:id?token=...: the buyer's order, from the secret link in the confirmation email (no
 * account needed). Read again every few seconds until the order can change no more.
 */
export function OrderPage() {
  useDocumentTitle('Your order');
  const id = useParams().id ?? '';
  const token = useSearchParams()[0].get('token') ?? '';
  return (
    <section className="checkout" aria-labelledby="order-title">
      <h1 id="order-title" className="checkout__title">
        Your order
      </h1>
      {isOrderId(id) && token.length >= 10 ? <OrderView id={id} token={token} /> : <NotFound />}
    </section>
  );
}

function NotFound() {
  return (
    <StatusMessage kind="error" title={CHECKOUT_MESSAGES.orderNotFound}>
      <p>Check that the whole link from your confirmation email was opened.</p>
      <Link to="/">Back to the home page</Link>
    </StatusMessage>
  );
}

function OrderView({ id, token }: { id: string; token: string }) {
  const state = usePolledRead(`order:${id}:${token}`, (signal) => request(orderRoute, { params: { id }, query: { token }, signal }), {
    intervalMs: ORDER_POLL_MS,
    maxMs: ORDER_WATCH_MS,
    again: (reply) => !isFinalStatus(reply.order.status),
  });

  if (state.status === 'loading') return <StatusMessage kind="loading" title="Loading your order..." />;
  if (state.status === 'error') {
    if (isApiError(state.error) && (state.error.status === 404 || state.error.status === 400)) return <NotFound />;
    return (
      <StatusMessage kind="error" title="We could not load your order right now.">
        <p>{isApiError(state.error) ? state.error.message : 'Please reload the page in a moment.'}</p>
      </StatusMessage>
    );
  }
  return <OrderDetails order={state.data.order} />;
}

const when = (iso: string) => new Date(iso).toLocaleString();

/** Laid out as the checkout page: the order's cards in the main column, its totals beside them. */
function OrderDetails({ order }: { order: OrderReply }) {
  return (
    <div className="checkout__layout order">
      <div className="checkout__main">
        <div className="checkout__card">
          <p className="order__status" role="status" aria-label="Order status">
            {orderStatusLabel(order.status)}
          </p>
          <dl className="checkout__facts">
            <dt>Order ID</dt>
            <dd>{order.id}</dd>
            <dt>Placed</dt>
            <dd>
              <time dateTime={order.created_at}>{when(order.created_at)}</time>
            </dd>
            <dt>Ships to</dt>
            <dd>
              {order.shipping_address_lines.length > 0 ? (
                <>
                  <address className="order__address">
                    {[order.shipping_name, ...order.shipping_address_lines].filter(Boolean).map((line, i) => (
                      <span key={i}>{line}</span>
                    ))}
                  </address>
                  <span className="order__method">{order.shipping_method} shipping</span>
                </>
              ) : (
                `${order.shipping_zip}, ${order.shipping_country} (${order.shipping_method})`
              )}
            </dd>
            <dt>Tracking number</dt>
            <dd>{order.tracking_number ?? 'Not shipped yet'}</dd>
          </dl>
          {order.tracking_url && (
            <a className="button button--primary order__track" href={order.tracking_url} target="_blank" rel="noreferrer">
              Track your package
            </a>
          )}
        </div>

        <TitledCard id="order-history" title="Status history">
          <ol className="order__history" aria-label="Status history">
            {order.history.map((h, i) => (
              <li key={`${h.status}-${i}`}>
                <span className="order__history-status">{orderStatusLabel(h.status)}</span>
                <time dateTime={h.at}>{when(h.at)}</time>
              </li>
            ))}
          </ol>
        </TitledCard>

        <TitledCard id="order-items" title="Items">
          <ul className="checkout__items" aria-label="Order items">
            {order.items.map((item, i) => (
              <li key={i} className="order__item">
                {item.screenshot_url ? <img className="checkout__screenshot" src={item.screenshot_url} crossOrigin="anonymous" alt="Printed screenshot" width={64} height={36} /> : <span />}
                <div className="checkout__details">
                  <p className="checkout__name">{item.product_name}</p>
                  <p className="checkout__options">
                    {[`Color: ${item.colour}`, item.handle_colour && `Handle Color: ${item.handle_colour}`, item.size && `Size: ${item.size}`].filter(Boolean).join(' · ')}
                  </p>
                  {item.video_title && <p className="checkout__options">From “{item.video_title}”</p>}
                  <p className="checkout__qty">
                    Qty: {item.quantity} × {formatCents(item.unit_price_cents)}
                  </p>
                </div>
                <p className="checkout__price">{formatCents(item.line_total_cents)}</p>
              </li>
            ))}
          </ul>
        </TitledCard>
      </div>

      <TitledCard id="order-summary" title="Order summary" tag="aside" className="checkout__summary">
        <dl className="checkout__totals">
          <div>
            <dt>Subtotal</dt>
            <dd>{formatCents(order.subtotal_cents)}</dd>
          </div>
          <div>
            <dt>Shipping</dt>
            <dd>{formatCents(order.shipping_cents)}</dd>
          </div>
          <div className="checkout__total">
            <dt>Total</dt>
            <dd>{formatCents(order.total_cents)}</dd>
          </div>
        </dl>
        <Link className="button button--ghost" to="/">
          Continue Shopping
        </Link>
      </TitledCard>
    </div>
  );
}

/** One of the page's cards, named by its heading (whose id is `id`): a section, or the summary's aside. */
function TitledCard({ id, title, tag: Tag = 'section', className, children }: { id: string; title: string; tag?: 'section' | 'aside'; className?: string; children: ReactNode }) {
  return (
    <Tag className={className ? `checkout__card ${className}` : 'checkout__card'} aria-labelledby={id}>
      <h2 id={id} className="checkout__heading">
        {title}
      </h2>
      {children}
    </Tag>
  );
}
