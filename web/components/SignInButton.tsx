import { useLocation } from 'react-router';
import { returnPathOf } from '../lib/paths.ts';
import { signInHref } from '../lib/signInHref.ts';

/**
 * Sign In through the identity provider (creators sign in with Google), coming back to this
 * page. A full-page navigation: the provider's pages are not part of this app.
 */
export function SignInButton({ label = 'Sign In' }: { label?: string }) {
  const location = useLocation();
  return (
    <button type="button" className="button button--primary" onClick={() => window.location.assign(signInHref(returnPathOf(location)))}>
      {label}
    </button>
  );
}
