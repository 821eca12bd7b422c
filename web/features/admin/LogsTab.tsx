import { useId, useState } from 'react';
import { ADMIN_LOG_PAGE_SIZE, ADMIN_TARGET_TYPES, adminLogsRoute, type AdminLogEntry, type AdminTargetType } from '../../../shared/schemas/admin.ts';
import { StatusMessage } from '../../components/StatusMessage.tsx';
import { request } from '../../lib/api.ts';
import { AccessDenied } from './AccessDenied.tsx';
import { errorText, isForbidden } from './adminAccess.ts';
import { ACTION_TYPE_PATTERN, listKey, logsQuery, SEARCH_DEBOUNCE_MS, type LogFilters } from './adminRules.ts';
import { LoadMore } from './LoadMore.tsx';
import { LogList } from './LogList.tsx';
import { useDebouncedValue } from './useDebouncedValue.ts';
import { usePagedList } from './usePagedList.ts';

/** Logs: the admin log, newest first, 50 a page, by action type and target type. */
export function LogsTab() {
  const ids = useId();
  const [actionType, setActionType] = useState('');
  const [targetType, setTargetType] = useState<AdminTargetType | 'all'>('all');
  const [attempt, setAttempt] = useState(0);

  const filters: LogFilters = { actionType: useDebouncedValue(actionType, SEARCH_DEBOUNCE_MS), targetType };
  const typed = actionType.trim();
  const actionInvalid = typed !== '' && !ACTION_TYPE_PATTERN.test(typed.toLowerCase());
  const list = usePagedList<AdminLogEntry>(listKey(logsQuery(filters, ADMIN_LOG_PAGE_SIZE), attempt), async (cursor, signal) => {
    const reply = await request(adminLogsRoute, { query: logsQuery(filters, ADMIN_LOG_PAGE_SIZE, cursor), signal });
    return { items: reply.logs, next: reply.next_cursor };
  });

  if (list.status === 'error' && isForbidden(list.error)) return <AccessDenied />;

  return (
    <div className="admin-section">
      <div className="admin-filters" role="search" aria-label="Filter the log">
        <div className="field">
          <label className="field__label" htmlFor={`${ids}-action`}>
            Action type
          </label>
          <input
            id={`${ids}-action`}
            className="field__control"
            type="search"
            maxLength={60}
            placeholder="e.g. user_suspended"
            value={actionType}
            aria-invalid={actionInvalid || undefined}
            aria-describedby={`${ids}-action-hint`}
            onChange={(e) => setActionType(e.target.value)}
          />
          <p id={`${ids}-action-hint`} className={actionInvalid ? 'field__error' : 'field__hint'}>
            {actionInvalid ? 'Action types are lowercase letters and underscores.' : 'The exact action name, as in the list.'}
          </p>
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${ids}-target`}>
            Target type
          </label>
          <select id={`${ids}-target`} className="field__control" value={targetType} onChange={(e) => setTargetType(e.target.value as AdminTargetType | 'all')}>
            <option value="all">All</option>
            {ADMIN_TARGET_TYPES.map((t) => (
              <option key={t} value={t}>
                {t[0]!.toUpperCase() + t.slice(1)}
              </option>
            ))}
          </select>
        </div>
      </div>

      {list.status === 'loading' ? (
        <StatusMessage kind="loading" title="Loading the log..." />
      ) : list.status === 'error' ? (
        <StatusMessage kind="error" title={errorText(list.error, 'Failed to load the log.')}>
          <button type="button" className="button button--ghost" onClick={() => setAttempt((n) => n + 1)}>
            Try again
          </button>
        </StatusMessage>
      ) : list.items.length === 0 ? (
        <p className="admin__empty">No log entries match these filters.</p>
      ) : (
        <LogList entries={list.items} label="Admin log" />
      )}
      <LoadMore next={list.next} more={list.more} moreError={list.moreError} onLoadMore={list.loadMore} />
    </div>
  );
}
