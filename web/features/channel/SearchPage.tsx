import { useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { CHANNEL_MESSAGES, searchChannelsRoute, SEARCH_MIN_LENGTH } from '../../../shared/schemas/channels.ts';
import { StatusMessage } from '../../components/StatusMessage.tsx';
import { request } from '../../lib/api.ts';
import { isApiError } from '../../lib/ApiError.ts';
import { channelPath } from '../../lib/paths.ts';
import { useApiRead } from '../../lib/useApiRead.ts';
import { useDocumentTitle } from '../../lib/useDocumentTitle.ts';

/** /search?q=: finds channels by name and goes to the best match (replacing this address). */
export function SearchPage() {
  const query = (useSearchParams()[0].get('q') ?? '').trim();
  useDocumentTitle(query ? `Search: ${query}` : 'Search');
  if (query.length < SEARCH_MIN_LENGTH) return <StatusMessage kind="info" title={CHANNEL_MESSAGES.searchTooShort} />;
  return <SearchResult query={query} />;
}

function SearchResult({ query }: { query: string }) {
  const [attempt, setAttempt] = useState(0);
  const state = useApiRead(`${query}#${attempt}`, (signal) => request(searchChannelsRoute, { query: { q: query }, signal }));

  if (state.status === 'loading') return <StatusMessage kind="loading" title="Searching channels..." />;
  if (state.status === 'error') {
    return (
      <StatusMessage kind="error" title={isApiError(state.error) ? state.error.message : 'Search failed.'}>
        <button type="button" className="button button--ghost" onClick={() => setAttempt((n) => n + 1)}>
          Try again
        </button>
      </StatusMessage>
    );
  }
  const best = state.data.channels[0];
  if (best) return <Navigate to={channelPath(best.username)} replace />;
  return (
    <StatusMessage kind="info" title={`No channels found for "${query}"`}>
      <Link to="/">Back to the home page</Link>
    </StatusMessage>
  );
}
