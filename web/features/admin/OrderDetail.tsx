import { useEffect, useId, useRef, useState } from 'react';
import { formatCents } from '../../../shared/money.ts';
import { adminOrderRoute, refundOrderRoute, retryFulfilmentRoute, type AdminOrderDetail, type AdminOrderRow } from '../../../shared/schemas/admin-orders.ts';
import { ORDER_STATUS_LABELS } from '../../../shared/schemas/checkout.ts';
import { StatusMessage } from '../../components/StatusMessage.tsx';
import { request } from '../../lib/api.ts';
import { useApiRead } from '../../lib/useApiRead.ts';
import { AccessDenied, useDenyAccess } from './AccessDenied.tsx';
import { errorText, isForbidden } from './adminAccess.ts';
import { fulfilmentLabel, shortOrderId } from './adminRules.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';

interface OrderDetailProps {
  orderId: string;
  onClose: () => void;
  /** The order changed (refund, retry): the list's row is replaced by this. */
  onChanged: (row: AdminOrderRow) => void;
}

type Notice = { kind: 'info' | 'error'; text: string } | null;
const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** One order as the admin sees it: items, totals, fulfilment, status history; refund and retry. */
export function OrderDetail({ orderId, onClose, onChanged }: OrderDetailProps) {
  const ids = useId();
  const deny = useDenyAccess();
  const heading = useRef<HTMLHeadingElement>(null);
  const [attempt, setAttempt] = useState(0);
  const [changed, setChanged] = useState<AdminOrderDetail | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState(false);
  const [refunding, setRefunding] = useState<{ busy: boolean; error: string | null } | null>(null);
  const read = useApiRead(`order:${orderId}#${attempt}`, (signal) => request(adminOrderRoute, { params: { id: orderId }, signal }));

  useEffect(() => heading.current?.focus(), []);

  if (read.status === 'loading') return <StatusMessage kind="loading" title="Loading the order..." />;
  if (read.status === 'error') {
    if (isForbidden(read.error)) return <AccessDenied />;
    return (
      <StatusMessage kind="error" title={errorText(read.error, 'Failed to load the order.')}>
        <button type="button" className="button button--ghost" onClick={() => setAttempt((n) => n + 1)}>
          Try again
        </button>
        <button type="button" className="button button--ghost" onClick={onClose}>
          Close
        </button>
      </StatusMessage>
    );
  }
  const order = changed ?? read.data.order;

  const done = (next: AdminOrderDetail, message: string) => {
    setChanged(next);
    onChanged(next);
    setNotice({ kind: 'info', text: message });
  };

  const retry = async () => {
    setBusy(true);
    setNotice(null);
    try {
      const reply = await request(retryFulfilmentRoute, { params: { id: order.id } });
      done(reply.order, reply.message);
    } catch (error) {
      if (isForbidden(error)) deny();
      else setNotice({ kind: 'error', text: errorText(error, 'Failed to retry the fulfilment.') });
    } finally {
      setBusy(false);
    }
  };

  const refund = async () => {
    setRefunding({ busy: true, error: null });
    try {
      const reply = await request(refundOrderRoute, { params: { id: order.id }, body: { confirm: true } });
      setRefunding(null);
      done(reply.order, reply.message);
    } catch (error) {
      if (isForbidden(error)) deny();
      else setRefunding({ busy: false, error: errorText(error, 'Failed to refund the order.') });
    }
  };

  return (
    <section className="admin-detail" aria-labelledby={`${ids}-title`}>
      <div className="admin-detail__head">
        <h2 id={`${ids}-title`} className="admin__heading" tabIndex={-1} ref={heading}>
          Order <span className="admin-table__mono">{shortOrderId(order.id)}</span>{' '}
          <span className={`admin-badge admin-badge--order-${order.status}`}>{ORDER_STATUS_LABELS[order.status]}</span>
        </h2>
        <button type="button" className="button button--ghost" onClick={onClose}>
          Close
        </button>
      </div>

      {notice && <StatusMessage kind={notice.kind} title={notice.text} />}

      <dl className="admin-facts">
        <dt>Order id</dt>
        <dd className="admin-table__mono">{order.id}</dd>
        <dt>Email</dt>
        <dd>{order.customer_email ?? '—'}</dd>
        <dt>Placed</dt>
        <dd>{when(order.created_at)}</dd>
        <dt>Paid</dt>
        <dd>{order.paid_at ? when(order.paid_at) : '—'}</dd>
        <dt>Items and shipping</dt>
        <dd>
          {formatCents(order.subtotal_cents)} + {formatCents(order.shipping_cents)} ({order.shipping_method}, {order.shipping_country}) ={' '}
          <strong>{formatCents(order.total_cents)}</strong>
        </dd>
        <dt>Payment</dt>
        <dd>{order.payment_provider === 'stripe' ? 'Stripe' : order.payment_provider === 'embedded' ? 'Embedded provider' : '—'}</dd>
        <dt>Fulfilment</dt>
        <dd>
          {fulfilmentLabel(order.fulfilment)}
          {order.fulfilment_order_id && <span className="admin-muted"> · print shop order {order.fulfilment_order_id}</span>}
          {order.tracking_url && (
            <>
              {' · '}
              <a href={order.tracking_url} target="_blank" rel="noreferrer">
                Tracking
              </a>
            </>
          )}
          {order.last_fulfilment_error && <p className="field__error">{order.last_fulfilment_error}</p>}
        </dd>
      </dl>

      <div className="admin-actions">
        <button type="button" className="button button--ghost admin-danger" disabled={!order.can_refund || busy} onClick={() => setRefunding({ busy: false, error: null })}>
          Refund
        </button>
        <button type="button" className="button button--ghost" disabled={!order.can_retry_fulfilment || busy} onClick={() => void retry()}>
          {busy ? 'Retrying...' : 'Retry fulfilment'}
        </button>
      </div>

      <h3 className="admin__subheading">Items</h3>
      <ul className="admin-lines">
        {order.items.map((item, i) => (
          <li key={i}>
            {item.quantity} × {item.label} at {formatCents(item.unit_price_cents)}
            {item.creator_username && <span className="admin-muted"> · @{item.creator_username}</span>}
          </li>
        ))}
      </ul>

      <h3 className="admin__subheading">Status history</h3>
      <ol className="admin-lines">
        {order.history.map((h, i) => (
          <li key={i}>
            <time dateTime={h.created_at}>{when(h.created_at)}</time>: {h.from_status ? `${ORDER_STATUS_LABELS[h.from_status]} → ` : ''}
            {ORDER_STATUS_LABELS[h.to_status]}
            {h.reason && <span className="admin-muted"> ({h.reason})</span>}
          </li>
        ))}
      </ol>

      {refunding && (
        <ConfirmDialog title="Refund order?" confirmLabel="Refund in full" busy={refunding.busy} error={refunding.error} onConfirm={() => void refund()} onCancel={() => setRefunding(null)}>
          <p>
            Refund <strong>{formatCents(order.total_cents)}</strong> to {order.customer_email ?? 'the buyer'} through the payment provider? The creators' earnings from this
            order are reversed. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
