import { useState } from 'react';
import { ADMIN_PAGE_SIZE, ADMIN_SEARCH_MAX_CHARS } from '../../../shared/schemas/admin.ts';
import { adminSubscriptionsRoute, SUBSCRIPTION_STATUSES, type AdminSubscriptionRow, type AdminSubscriptionStatus } from '../../../shared/schemas/admin-subscriptions.ts';
import { request } from '../../lib/api.ts';
import { AdminTable } from './AdminTable.tsx';
import { listKey, SEARCH_DEBOUNCE_MS, subscriptionsQuery, subscriptionStatusLabel, type SubscriptionFilters } from './adminRules.ts';
import { FilterBar, SearchField, SelectField } from './FilterFields.tsx';
import { PagedListBody } from './PagedListBody.tsx';
import { useDebouncedValue } from './useDebouncedValue.ts';
import { usePagedList } from './usePagedList.ts';

const TIER_OPTIONS = [
  { value: 'all', label: 'All' },
  { value: 'free', label: 'Free' },
  { value: 'pro', label: 'Pro' },
] as const;
const STATUS_OPTIONS: readonly { value: AdminSubscriptionStatus | 'all'; label: string }[] = [
  { value: 'all', label: 'All' },
  ...SUBSCRIPTION_STATUSES.map((s) => ({ value: s, label: subscriptionStatusLabel(s) })),
];

const date = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' }) : '—');

/** Subscriptions: every creator's plan, by tier, status and name or email. */
export function SubscriptionsTab() {
  const [q, setQ] = useState('');
  const [tier, setTier] = useState<SubscriptionFilters['tier']>('all');
  const [status, setStatus] = useState<SubscriptionFilters['status']>('all');
  const [attempt, setAttempt] = useState(0);
  const filters: SubscriptionFilters = { q: useDebouncedValue(q, SEARCH_DEBOUNCE_MS), tier, status };
  const list = usePagedList<AdminSubscriptionRow>(listKey(subscriptionsQuery(filters, ADMIN_PAGE_SIZE), attempt), async (cursor, signal) => {
    const reply = await request(adminSubscriptionsRoute, { query: subscriptionsQuery(filters, ADMIN_PAGE_SIZE, cursor), signal });
    return { items: reply.subscriptions, next: reply.next_cursor };
  });

  return (
    <div className="admin-section">
      <FilterBar label="Filter subscriptions">
        <SearchField label="Search subscribers" placeholder="Username or email" maxLength={ADMIN_SEARCH_MAX_CHARS} value={q} onChange={setQ} />
        <SelectField label="Tier" value={tier} options={TIER_OPTIONS} onChange={setTier} />
        <SelectField label="Status" value={status} options={STATUS_OPTIONS} onChange={setStatus} />
      </FilterBar>
      <PagedListBody list={list} noun="subscriptions" onRetry={() => setAttempt((n) => n + 1)}>
        {(rows) => (
          <AdminTable caption="Subscriptions" columns={['Subscriber', 'Email', 'Tier', 'Status', 'Trial ends', 'Period ends', 'Since']}>
            {rows.map((row) => (
              <tr key={row.id}>
                <th scope="row">
                  {row.user.display_name} <span className="admin-muted">@{row.user.username}</span>
                  {row.is_third_tier && <span className="admin-badge admin-badge--admin">Creator network</span>}
                </th>
                <td>{row.user.email}</td>
                <td>{row.tier === 'pro' ? 'Pro' : 'Free'}</td>
                <td>
                  <span className={`admin-badge admin-badge--${row.status}`}>{subscriptionStatusLabel(row.status)}</span>
                </td>
                <td>{date(row.trial_end)}</td>
                <td>
                  {date(row.current_period_end)}
                  {row.cancel_at_period_end && <span className="admin-badge admin-badge--pending">Cancels then</span>}
                </td>
                <td>{date(row.created_at)}</td>
              </tr>
            ))}
          </AdminTable>
        )}
      </PagedListBody>
    </div>
  );
}
