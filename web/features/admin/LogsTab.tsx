import { useState } from 'react';
import {
  ADMIN_ACTION_LABELS,
  ADMIN_ACTION_TYPES,
  ADMIN_LOG_PAGE_SIZE,
  ADMIN_TARGET_TYPES,
  adminLogsRoute,
  type AdminActionType,
  type AdminLogEntry,
  type AdminTargetType,
} from '../../../shared/schemas/admin.ts';
import { request } from '../../lib/api.ts';
import { listKey, logsQuery, type LogFilters } from './adminRules.ts';
import { FilterBar, SelectField } from './FilterFields.tsx';
import { LogList } from './LogList.tsx';
import { PagedListBody } from './PagedListBody.tsx';
import { usePagedList } from './usePagedList.ts';

const ACTION_OPTIONS: readonly { value: AdminActionType | 'all'; label: string }[] = [
  { value: 'all', label: 'All' },
  ...ADMIN_ACTION_TYPES.map((a) => ({ value: a, label: ADMIN_ACTION_LABELS[a] })),
];
const TARGET_OPTIONS: readonly { value: AdminTargetType | 'all'; label: string }[] = [
  { value: 'all', label: 'All' },
  ...ADMIN_TARGET_TYPES.map((t) => ({ value: t, label: t[0]!.toUpperCase() + t.slice(1) })),
];

/** Logs: the admin log, newest first, 50 a page, by action and target type. */
export function LogsTab() {
  const [filters, setFilters] = useState<LogFilters>({ actionType: 'all', targetType: 'all' });
  const [attempt, setAttempt] = useState(0);
  const list = usePagedList<AdminLogEntry>(listKey(logsQuery(filters, ADMIN_LOG_PAGE_SIZE), attempt), async (cursor, signal) => {
    const reply = await request(adminLogsRoute, { query: logsQuery(filters, ADMIN_LOG_PAGE_SIZE, cursor), signal });
    return { items: reply.logs, next: reply.next_cursor };
  });

  return (
    <div className="admin-section">
      <FilterBar label="Filter the log">
        <SelectField label="Action" value={filters.actionType} options={ACTION_OPTIONS} onChange={(actionType) => setFilters((f) => ({ ...f, actionType }))} />
        <SelectField label="Target type" value={filters.targetType} options={TARGET_OPTIONS} onChange={(targetType) => setFilters((f) => ({ ...f, targetType }))} />
      </FilterBar>
      <PagedListBody list={list} noun="log entries" onRetry={() => setAttempt((n) => n + 1)}>
        {(entries) => <LogList entries={entries} label="Admin log" />}
      </PagedListBody>
    </div>
  );
}
