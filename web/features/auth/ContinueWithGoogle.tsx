import { signInHref } from '../../lib/signInHref.ts';
import './ContinueWithGoogle.css';

/**
 * Sign-in through the identity provider (creators sign in with Google), beside the email form
 * of the /login page and the auth modal; the provider sends the visitor back to `returnTo`.
 */
export function ContinueWithGoogle({ returnTo }: { returnTo: string }) {
  return (
    <>
      <p className="auth-google__or" aria-hidden="true">
        <span>or</span>
      </p>
      <button
        type="button"
        className="button button--ghost auth-google__button"
        // A full-page navigation: the identity provider's pages are not part of this app.
        onClick={() => window.location.assign(signInHref(returnTo))}
      >
        Continue with Google
      </button>
    </>
  );
}
