import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { safeReturnPath } from '../../../shared/safe-return.ts';
import { AUTH_MESSAGES } from '../../../shared/schemas/auth.ts';
import { AuthForm } from './AuthForm.tsx';
import { ContinueWithGoogle } from './ContinueWithGoogle.tsx';
import { authPagePath } from '../../lib/paths.ts';
import { useAuth } from '../../stores/useAuth.ts';
import { usePassedMessage } from '../../lib/passedMessage.ts';
import { useDocumentTitle } from '../../lib/useDocumentTitle.ts';
import './LoginPage.css';

/** /login, /auth and /signup: one screen, the mode taken from the path (/auth signs in); back to `returnTo` when done. */
export function LoginPage() {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const signedIn = useAuth((s) => s.status === 'signed-in');
  const mode = pathname === '/signup' ? 'signup' : 'login';
  const params = new URLSearchParams(search);
  const returnTo = safeReturnPath(params.get('returnTo'));
  const expired = params.get('status') === 'session_expired';
  const login = mode === 'login';
  const passed = usePassedMessage();
  useDocumentTitle(login ? 'Sign in' : 'Sign up');

  // Already signed in (e.g. back from the identity provider to this page): nothing to do here.
  if (signedIn) return <Navigate to={returnTo} replace />;

  return (
    <section className="auth-page" aria-labelledby="auth-page-title">
      <h1 id="auth-page-title" className="auth-page__title">
        {login ? 'Sign in to FrameMerch' : 'Create your account'}
      </h1>
      {passed && (
        <p className="auth-page__notice" role="status">
          {passed}
        </p>
      )}
      {expired && (
        <p className="auth-page__notice" role="status">
          {AUTH_MESSAGES.sessionExpired}
        </p>
      )}
      <AuthForm
        // A fresh form per mode, so an error from one is not shown in the other.
        key={mode}
        mode={mode}
        autoFocus
        onSuccess={() => void navigate(returnTo, { replace: true })}
        modeSwitch={
          login ? (
            <>
              Don&apos;t have an account? <Link to={authPagePath('/signup', returnTo)}>Sign Up</Link>
            </>
          ) : (
            <>
              Already have an account? <Link to={authPagePath('/login', returnTo)}>Login</Link>
            </>
          )
        }
      />
      <ContinueWithGoogle returnTo={returnTo} />
    </section>
  );
}
