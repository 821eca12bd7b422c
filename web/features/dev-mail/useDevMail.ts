import { useEffect, useState } from 'react';
import { AUTH_MESSAGES } from '../../../shared/schemas/auth.ts';
import { devMailMessageRoute, devMailRoute, MAIL_MESSAGES, type MailMessage } from '../../../shared/schemas/mail.ts';
import { request } from '../../lib/api.ts';
import { isAbortError, isApiError } from '../../lib/ApiError.ts';
import { useAuth, type AuthStatus, type SessionUser } from '../../stores/useAuth.ts';

export type DevMailState =
  | { status: 'loading' }
  | { status: 'ready'; messages: MailMessage[] }
  /** One message, opened through its secret link. */
  | { status: 'one'; message: MailMessage }
  | { status: 'denied'; message: string }
  | { status: 'missing'; message: string }
  | { status: 'error'; message: string };

/** A message's own link: /dev/mail?message={id}&token={token}. */
export interface MessageLink {
  id: string;
  token: string;
}

/** Newest first, whatever order the reply came in. */
export function newestFirst(messages: readonly MailMessage[]): MailMessage[] {
  return [...messages].sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
}

/** The message link in the page's query, or null for the whole outbox. */
export function messageLinkOf(search: URLSearchParams): MessageLink | null {
  const id = search.get('message');
  if (!id) return null;
  return { id, token: search.get('token') ?? '' };
}

/**
 * Who may ask for the whole outbox: admins. The server decides; the page only spares visitors a
 * request it would refuse, and says why. Null means ask.
 */
export function outboxRefusal(status: AuthStatus, user: Pick<SessionUser, 'is_admin'> | null): DevMailState | null {
  if (status === 'loading' || status === 'pending') return { status: 'loading' };
  if (!user) return { status: 'denied', message: AUTH_MESSAGES.signInRequired };
  if (!user.is_admin) return { status: 'denied', message: AUTH_MESSAGES.adminRequired };
  return null;
}

/** The outbox for admins, or the one message of `link`; `reload` asks again. */
export function useDevMail(link: MessageLink | null): { state: DevMailState; reload: () => void } {
  const authStatus = useAuth((s) => s.status);
  const user = useAuth((s) => s.user);
  // Each answer is kept with what it answers, so a new link never shows the last one's message.
  const [answer, setAnswer] = useState<{ key: string; state: DevMailState } | null>(null);
  const [version, setVersion] = useState(0);
  const refusal = link ? null : outboxRefusal(authStatus, user);
  const asking = refusal === null;
  const linkId = link?.id;
  const linkToken = link?.token ?? '';
  const key = linkId === undefined ? 'outbox' : `${linkId}:${linkToken}`;

  useEffect(() => {
    if (!asking) return;
    const controller = new AbortController();
    const settle = (state: DevMailState) => setAnswer({ key, state });
    const fail = (error: unknown) => {
      if (isAbortError(error)) return;
      const status = isApiError(error) ? error.status : 0;
      const message = error instanceof Error ? error.message : 'Could not load the mail.';
      if (status === 401 || status === 403) settle({ status: 'denied', message });
      else if (linkId !== undefined && (status === 404 || status === 400)) settle({ status: 'missing', message: MAIL_MESSAGES.messageNotFound });
      else settle({ status: 'error', message });
    };
    if (linkId !== undefined) {
      request(devMailMessageRoute, { params: { id: linkId }, query: { token: linkToken }, signal: controller.signal }).then(
        (reply) => settle({ status: 'one', message: reply.message }),
        fail,
      );
    } else {
      request(devMailRoute, { signal: controller.signal }).then((reply) => settle({ status: 'ready', messages: newestFirst(reply.messages) }), fail);
    }
    return () => controller.abort();
  }, [asking, key, linkId, linkToken, version]);

  const state = refusal ?? (answer?.key === key ? answer.state : { status: 'loading' as const });
  return { state, reload: () => setVersion((v) => v + 1) };
}
