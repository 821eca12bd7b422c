import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { CONTACT_EMAIL, FOOTER_YEAR } from '../../../shared/constants.ts';
import './Footer.css';

// Loaded when first opened, so the shell does not carry it.
const SubscribeModal = lazy(async () => ({ default: (await import('./SubscribeModal.tsx')).SubscribeModal }));

export function Footer() {
  const [subscribing, setSubscribing] = useState(false);
  return (
    <footer className="footer">
      <p className="footer__copy">© {FOOTER_YEAR} FrameMerch</p>
      <nav className="footer__links" aria-label="Footer">
        <button type="button" className="footer__updates" onClick={() => setSubscribing(true)}>
          Get updates
        </button>
        <a href={`mailto:${CONTACT_EMAIL}`}>Contact Us</a>
        <Link to="/privacy-policy">Privacy Policy</Link>
        <Link to="/terms-of-service">Terms of Service</Link>
      </nav>
      {subscribing && (
        <Suspense fallback={null}>
          <SubscribeModal onClose={() => setSubscribing(false)} />
        </Suspense>
      )}
    </footer>
  );
}
