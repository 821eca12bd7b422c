import { Link, useLocation } from 'react-router';
import { returnPathOf } from '../../lib/paths.ts';
import { signInHref } from '../../lib/signInHref.ts';
import { useAuth } from '../../stores/useAuth.ts';
import { AccountMenu } from './AccountMenu.tsx';

/**
 * The navbar's right end: nothing while the session is checked, then Sign In / Start Free
 * (Sign In dimmed as Processing... while a sign-in is confirmed) or the avatar.
 */
export function AuthActions() {
  const status = useAuth((s) => s.status);
  const user = useAuth((s) => s.user);
  const location = useLocation();

  if (status === 'loading') return <span className="navbar__auth-placeholder" aria-hidden="true" />;
  if (status === 'signed-in' && user) return <AccountMenu user={user} />;

  const pending = status === 'pending';
  // A full-page navigation: the identity provider's pages are not part of this app.
  const signIn = () => window.location.assign(signInHref(returnPathOf(location)));
  return (
    <div className="navbar__auth">
      <button
        type="button"
        className={`button button--ghost${pending ? ' navbar__sign-in--pending' : ''}`}
        disabled={pending}
        aria-busy={pending}
        onClick={signIn}
      >
        {pending ? 'Processing...' : 'Sign In'}
      </button>
      <Link className="button button--primary navbar__start-free" to="/subscription-tiers">
        Start Free
      </Link>
    </div>
  );
}
