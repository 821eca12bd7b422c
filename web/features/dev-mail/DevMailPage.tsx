import { Link, useSearchParams } from 'react-router';
import type { MailMessage } from '../../../shared/schemas/mail.ts';
import { StatusMessage } from '../../components/StatusMessage.tsx';
import { useDocumentTitle } from '../../lib/useDocumentTitle.ts';
import { messageLinkOf, useDevMail } from './useDevMail.ts';
import './DevMailPage.css';

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/**
 * /dev/mail: what the embedded mailer sent, for trying sign-up, subscribe and order mail without
 * SMTP. Admins see the whole outbox; /dev/mail?message={id}&token={token} shows that one message
 * to whoever holds its link.
 */
export function DevMailPage() {
  useDocumentTitle('Dev mail');
  const [search] = useSearchParams();
  const link = messageLinkOf(search);
  const { state, reload } = useDevMail(link);

  return (
    <section className="dev-mail" aria-labelledby="dev-mail-title">
      <div className="dev-mail__header">
        <h1 id="dev-mail-title">Dev mail</h1>
        <button type="button" className="button button--ghost" onClick={reload}>
          Refresh
        </button>
      </div>
      {state.status === 'loading' && <StatusMessage kind="loading" title="Loading mail..." />}
      {state.status === 'denied' && (
        <StatusMessage kind="error" title="You do not have access to the mail outbox.">
          <p>{state.message}</p>
        </StatusMessage>
      )}
      {state.status === 'missing' && <StatusMessage kind="error" title={state.message} />}
      {state.status === 'error' && <StatusMessage kind="error" title={`Could not load the mail: ${state.message}`} />}
      {state.status === 'one' && <Message message={state.message} />}
      {state.status === 'ready' && state.messages.length === 0 && <StatusMessage kind="info" title="No mail has been sent yet." />}
      {state.status === 'ready' && state.messages.length > 0 && (
        <ol className="dev-mail__list" aria-label="Messages, newest first">
          {state.messages.map((m) => (
            <li key={m.id}>
              <Message message={m} showLink />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** One message; for admins, with the secret link that shows it, and only it, to its recipient. */
function Message({ message: m, showLink = false }: { message: MailMessage; showLink?: boolean }) {
  return (
    <article className="dev-mail__message" aria-label={m.subject}>
      <h2 className="dev-mail__subject">{m.subject}</h2>
      <p className="dev-mail__meta">
        To <strong>{m.to}</strong> · <time dateTime={m.created_at}>{timeFormat.format(new Date(m.created_at))}</time> · {m.status}
        {showLink && (
          <>
            {' '}
            · <Link to={m.link}>Recipient&apos;s link</Link>
          </>
        )}
      </p>
      <pre className="dev-mail__text">{m.text}</pre>
    </article>
  );
}
