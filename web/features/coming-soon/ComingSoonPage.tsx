import { Link } from 'react-router';
import { useDocumentTitle } from '../../lib/useDocumentTitle.ts';
import './ComingSoonPage.css';

export function ComingSoonPage() {
  useDocumentTitle('Coming soon');
  return (
    <section className="coming-soon">
      <p className="coming-soon__badge" aria-hidden="true">
        ✦
      </p>
      <h1>Coming soon</h1>
      <p>
        We&apos;re still putting the finishing touches on this part of FrameMerch. In the meantime, pick a video, grab
        your favourite frame and turn it into merch.
      </p>
      <Link className="button button--primary" to="/">
        Back to videos
      </Link>
    </section>
  );
}
