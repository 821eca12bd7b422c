import { Link } from 'react-router';
import { CONTACT_EMAIL, FOOTER_YEAR } from '../../../shared/constants.ts';
import './Footer.css';

export function Footer() {
  return (
    <footer className="footer">
      <p className="footer__copy">© {FOOTER_YEAR} FrameMerch</p>
      <nav className="footer__links" aria-label="Footer">
        <a href={`mailto:${CONTACT_EMAIL}`}>Contact Us</a>
        <Link to="/privacy-policy">Privacy Policy</Link>
        <Link to="/terms-of-service">Terms of Service</Link>
      </nav>
    </footer>
  );
}
