import { useEffect, useState } from 'react';
import type { ReplyOf } from '../../../shared/schemas/route.ts';
import { newestCreatorsRoute } from '../../../shared/schemas/creators.ts';
import { request } from '../../lib/api.ts';
import { isAbortError } from '../../lib/ApiError.ts';

export type NewestCreator = ReplyOf<typeof newestCreatorsRoute>['creators'][number];

type State = { status: 'loading' } | { status: 'ready'; creators: NewestCreator[] } | { status: 'error' };

/** The newest creators for the sidebar, fetched once per mount. */
export function useNewestCreators(): State {
  const [state, setState] = useState<State>({ status: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    request(newestCreatorsRoute, { signal: controller.signal }).then(
      (reply) => setState({ status: 'ready', creators: reply.creators }),
      (error: unknown) => {
        if (!isAbortError(error)) setState({ status: 'error' });
      },
    );
    return () => controller.abort();
  }, []);
  return state;
}
