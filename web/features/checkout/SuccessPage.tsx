import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { checkoutSessionRoute } from '../../../shared/schemas/checkout.ts';
import type { ReplyOf } from '../../../shared/schemas/route.ts';
import { StatusMessage } from '../../components/StatusMessage.tsx';
import { request } from '../../lib/api.ts';
import { isApiError } from '../../lib/ApiError.ts';
import { useCart } from '../../stores/cart/cartStore.ts';
import { useDocumentTitle } from '../../lib/useDocumentTitle.ts';
import { CheckoutSteps } from './CheckoutSteps.tsx';
import { isSessionId, orderStatusLabel, sameSitePath, SESSION_POLL_MS, SESSION_WAIT_MS } from './orderView.ts';
import { usePolledRead } from './usePolledRead.ts';
import './CheckoutPage.css';

/**
 * /success?session_id=...: where the payment page sends the buyer. The payment is confirmed to
 * the server by its own event, which may land a moment after this page opens, so the order is
 * read again while it is still awaiting payment. 'Order Complete' and the step bar show only
 * once the session's order is found; a missing or unknown session shows the error alone.
 */
export function SuccessPage() {
  const sessionId = useSearchParams()[0].get('session_id')?.trim() ?? '';
  return (
    <section className="checkout">
      {isSessionId(sessionId) ? (
        <SessionResult sessionId={sessionId} />
      ) : (
        <NotFound>The link has no checkout session. If you paid, the confirmation email has a link to your order.</NotFound>
      )}
    </section>
  );
}

function NotFound({ children }: { children: string }) {
  useDocumentTitle('Checkout not found');
  return (
    <StatusMessage kind="error" title="We could not find this checkout.">
      <p>{children}</p>
      <Link to="/">Back to the home page</Link>
    </StatusMessage>
  );
}

function SessionResult({ sessionId }: { sessionId: string }) {
  const state = usePolledRead(`session:${sessionId}`, (signal) => request(checkoutSessionRoute, { params: { sessionId }, signal }), {
    intervalMs: SESSION_POLL_MS,
    maxMs: SESSION_WAIT_MS,
    again: (reply) => reply.status === 'pending',
  });
  const found = state.status === 'ready';

  // The order exists: the cart it was made from is done.
  useEffect(() => {
    if (found) useCart.getState().clear();
  }, [found]);

  if (state.status === 'loading') return <StatusMessage kind="loading" title="Confirming your order..." />;
  if (state.status === 'error') {
    const unknown = isApiError(state.error) && (state.error.status === 404 || state.error.status === 400);
    if (unknown) return <NotFound>This checkout session is not known. If you paid, the confirmation email has a link to your order.</NotFound>;
    return (
      <StatusMessage kind="error" title="We could not load your order right now.">
        <p>Please reload the page in a moment.</p>
        <Link to="/">Back to the home page</Link>
      </StatusMessage>
    );
  }
  return <OrderComplete data={state.data} polling={state.polling} />;
}

/** The session's order. Still awaiting payment (a declined card's session too), it is not called complete. */
export function OrderComplete({ data, polling }: { data: ReplyOf<typeof checkoutSessionRoute>; polling: boolean }) {
  const confirming = data.status === 'pending';
  const title = confirming ? 'Confirming your payment' : 'Order Complete';
  useDocumentTitle(confirming ? title : 'Order confirmed');
  return (
    <>
      <CheckoutSteps current={confirming ? 2 : 3} />
      <h1 className="checkout__title">{title}</h1>
      <div className="checkout__card checkout__done">
        <p role="status">
          {confirming
            ? polling
              ? 'Thank you! We are confirming your payment...'
              : 'Thank you! Your payment is still being confirmed; your order page shows when it is.'
            : 'Thank you! Your order is confirmed.'}
        </p>
        <dl className="checkout__facts">
          <dt>Order ID</dt>
          <dd data-testid="order-id">{data.order_id}</dd>
          <dt>Status</dt>
          <dd>{orderStatusLabel(data.status)}</dd>
        </dl>
        <p>We will email you when your order ships. Orders ship within 3-5 business days.</p>
        <div className="checkout__actions">
          <OrderLink url={data.order_url} />
          {data.tracking_url && (
            <a className="button button--ghost" href={data.tracking_url} target="_blank" rel="noreferrer">
              Carrier tracking
            </a>
          )}
          <Link className="button button--ghost" to="/">
            Continue Shopping
          </Link>
        </div>
      </div>
    </>
  );
}

/** The order page: inside the app when the link is on this site. */
function OrderLink({ url }: { url: string }) {
  const path = sameSitePath(url, window.location.origin);
  return path ? (
    <Link className="button button--primary" to={path}>
      Track your order
    </Link>
  ) : (
    <a className="button button--primary" href={url}>
      Track your order
    </a>
  );
}
