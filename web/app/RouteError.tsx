import { Link, isRouteErrorResponse, useRouteError } from 'react-router';
import { StatusMessage } from '../components/StatusMessage.tsx';

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  const message = typeof (error as Error | null)?.message === 'string' ? (error as Error).message : '';
  // A page chunk that no longer exists after a deploy fails to import; a reload fetches the new one.
  if (/dynamically imported module|Importing a module script failed/i.test(message)) {
    return 'A new version of FrameMerch is available. Reload the page to continue.';
  }
  return message || 'An unexpected error occurred.';
}

/** The error boundary of the router: says what broke and offers a way on. */
export function RouteError() {
  const error = useRouteError();
  console.error(error);
  return (
    <StatusMessage kind="error" title="Something went wrong">
      <p>{describe(error)}</p>
      <p className="route-error__actions">
        <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
          Reload page
        </button>{' '}
        <Link className="button button--ghost" to="/" reloadDocument>
          Go home
        </Link>
      </p>
    </StatusMessage>
  );
}
