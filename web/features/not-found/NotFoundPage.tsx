import { Link } from 'react-router';
import { useDocumentTitle } from '../../lib/useDocumentTitle.ts';
import './NotFoundPage.css';

export function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <section className="not-found">
      <p className="not-found__code" aria-hidden="true">
        404
      </p>
      <h1>Page not found</h1>
      <p>The page you were looking for does not exist or has moved.</p>
      <Link className="button button--primary" to="/">
        Go to the home page
      </Link>
    </section>
  );
}
