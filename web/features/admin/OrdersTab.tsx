import { useState } from 'react';
import { formatCents } from '../../../shared/money.ts';
import { ADMIN_PAGE_SIZE, ADMIN_SEARCH_MAX_CHARS } from '../../../shared/schemas/admin.ts';
import { adminOrdersRoute, type AdminOrderRow } from '../../../shared/schemas/admin-orders.ts';
import { ORDER_STATUS_LABELS, ORDER_STATUSES, type OrderStatusName } from '../../../shared/schemas/checkout.ts';
import { request } from '../../lib/api.ts';
import { fulfilmentLabel, listKey, ordersQuery, SEARCH_DEBOUNCE_MS, shortOrderId, type OrderFilters } from './adminRules.ts';
import { AdminTable } from './AdminTable.tsx';
import { FilterBar, SearchField, SelectField } from './FilterFields.tsx';
import { OrderDetail } from './OrderDetail.tsx';
import { PagedListBody } from './PagedListBody.tsx';
import { ReconciliationPanel } from './ReconciliationPanel.tsx';
import { useDebouncedValue } from './useDebouncedValue.ts';
import { usePagedList } from './usePagedList.ts';

const STATUS_OPTIONS: readonly { value: OrderStatusName | 'all'; label: string }[] = [
  { value: 'all', label: 'All' },
  ...ORDER_STATUSES.map((s) => ({ value: s, label: ORDER_STATUS_LABELS[s] })),
];

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Orders: the payment reconciliation; search by order number or email, by status; an order's detail with refund and retry. */
export function OrdersTab() {
  const [q, setQ] = useState('');
  const [status, setStatus] = useState<OrderFilters['status']>('all');
  const [attempt, setAttempt] = useState(0);
  const [open, setOpen] = useState<string | null>(null);
  const filters: OrderFilters = { q: useDebouncedValue(q, SEARCH_DEBOUNCE_MS), status };
  const list = usePagedList<AdminOrderRow>(listKey(ordersQuery(filters, ADMIN_PAGE_SIZE), attempt), async (cursor, signal) => {
    const reply = await request(adminOrdersRoute, { query: ordersQuery(filters, ADMIN_PAGE_SIZE, cursor), signal });
    return { items: reply.orders, next: reply.next_cursor };
  });

  return (
    <div className="admin-section">
      <ReconciliationPanel />
      <FilterBar label="Filter orders">
        <SearchField label="Search orders" placeholder="Order number or email" maxLength={ADMIN_SEARCH_MAX_CHARS} value={q} onChange={setQ} />
        <SelectField label="Status" value={status} options={STATUS_OPTIONS} onChange={setStatus} />
      </FilterBar>

      {open && <OrderDetail key={open} orderId={open} onClose={() => setOpen(null)} onChanged={(row) => list.replace(row)} />}

      <PagedListBody list={list} noun="orders" onRetry={() => setAttempt((n) => n + 1)}>
        {(orders) => (
          <AdminTable caption="Orders" columns={['Order', 'Email', 'Status', 'Total', 'Items', 'Fulfilment', 'Placed', 'Actions']} hidden={['Actions']}>
            {orders.map((order) => (
              <tr key={order.id} aria-current={order.id === open || undefined}>
                <th scope="row" className="admin-table__mono" id={`admin-order-${order.id}`} title={order.id}>
                  {shortOrderId(order.id)}
                </th>
                <td>{order.customer_email ?? '—'}</td>
                <td>
                  <span className={`admin-badge admin-badge--order-${order.status}`}>{ORDER_STATUS_LABELS[order.status]}</span>
                </td>
                <td>{formatCents(order.total_cents)}</td>
                <td>{order.item_count}</td>
                <td>
                  <span className={`admin-badge admin-badge--job-${order.fulfilment}`}>{fulfilmentLabel(order.fulfilment)}</span>
                </td>
                <td>
                  <time dateTime={order.created_at}>{when(order.created_at)}</time>
                </td>
                <td>
                  <button type="button" className="button button--ghost" aria-describedby={`admin-order-${order.id}`} onClick={() => setOpen(order.id)}>
                    View
                  </button>
                </td>
              </tr>
            ))}
          </AdminTable>
        )}
      </PagedListBody>
    </div>
  );
}
