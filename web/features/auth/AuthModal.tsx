import { useEffect, useEffectEvent, useState } from 'react';
import { useLocation } from 'react-router';
import { AUTH_MESSAGES } from '../../../shared/schemas/auth.ts';
import { returnPathOf } from '../../lib/paths.ts';
import type { AuthMode, SessionUser } from '../../stores/useAuth.ts';
import { Modal } from '../../components/Modal.tsx';
import { AuthForm } from './AuthForm.tsx';
import { ContinueWithGoogle } from './ContinueWithGoogle.tsx';
import './AuthModal.css';

/** Spec section 9: the modal closes 1.5 s after a successful sign-in. */
const SUCCESS_CLOSE_MS = 1_500;

interface AuthModalProps {
  /** Closed without signing in (Escape, the close button, the backdrop), or after success. */
  onClose: () => void;
  /** Signed in; called just before the modal closes. */
  onSuccess: (user: SessionUser) => void;
  initialMode?: AuthMode;
}

/**
 * Sign in without leaving the page, for actions that need an account (Make Merch). Mount
 * it to open it; load it lazily, e.g. `lazy(() => import('.../AuthModal.tsx').then(...))`.
 */
export function AuthModal({ onClose, onSuccess, initialMode = 'login' }: AuthModalProps) {
  const [mode, setMode] = useState<AuthMode>(initialMode);
  const [signedIn, setSignedIn] = useState<SessionUser | null>(null);
  const location = useLocation();

  // Closing early after success (Escape) still reports the sign-in.
  const close = () => {
    if (signedIn) onSuccess(signedIn);
    onClose();
  };
  const closeAfterSuccess = useEffectEvent(close);
  useEffect(() => {
    if (!signedIn) return;
    const timer = setTimeout(closeAfterSuccess, SUCCESS_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [signedIn]);

  const login = mode === 'login';
  return (
    <Modal title={login ? 'Login' : 'Sign Up'} onClose={close}>
      {signedIn ? (
        <p className="auth-modal__success" role="status">
          {login ? 'Login successful!' : 'Account created!'} Signed in as {signedIn.display_name}.
        </p>
      ) : (
        <>
          <div className="auth-modal__notice" role="note">
            <strong>Login Required</strong>
            <span>{AUTH_MESSAGES.signInRequired}</span>
          </div>
          <AuthForm
            mode={mode}
            onSuccess={setSignedIn}
            modeSwitch={
              <>
                {login ? "Don't have an account? " : 'Already have an account? '}
                <button type="button" onClick={() => setMode(login ? 'signup' : 'login')}>
                  {login ? 'Sign Up' : 'Login'}
                </button>
              </>
            }
          />
          {/* Creators sign in with Google; the provider brings them back to this page. */}
          <ContinueWithGoogle returnTo={returnPathOf(location)} />
        </>
      )}
    </Modal>
  );
}
