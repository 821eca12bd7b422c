import { useEffect, useState } from 'react';
import { devMailRoute, type MailMessage } from '../../../shared/schemas/auth.ts';
import { request } from '../../lib/api.ts';
import { isAbortError, isApiError } from '../../lib/ApiError.ts';

export type DevMailState =
  | { status: 'loading' }
  | { status: 'ready'; messages: MailMessage[] }
  | { status: 'denied'; message: string }
  | { status: 'error'; message: string };

/** Newest first, whatever order the reply came in. */
export function newestFirst(messages: readonly MailMessage[]): MailMessage[] {
  return [...messages].sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
}

/** The embedded mailer's outbox; `reload` asks again. */
export function useDevMail(): { state: DevMailState; reload: () => void } {
  const [state, setState] = useState<DevMailState>({ status: 'loading' });
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    request(devMailRoute, { signal: controller.signal }).then(
      (reply) => setState({ status: 'ready', messages: newestFirst(reply.messages) }),
      (error: unknown) => {
        if (isAbortError(error)) return;
        const denied = isApiError(error) && (error.status === 401 || error.status === 403);
        const message = error instanceof Error ? error.message : 'Could not load the mail.';
        setState({ status: denied ? 'denied' : 'error', message });
      },
    );
    return () => controller.abort();
  }, [version]);
  return { state, reload: () => setVersion((v) => v + 1) };
}
