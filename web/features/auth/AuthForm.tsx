import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { PASSWORD_MIN_LENGTH } from '../../../shared/schemas/auth.ts';
import { useAuth, type AuthMode, type SessionUser } from '../../stores/useAuth.ts';
import { authErrorText, authInputError } from './authErrorText.ts';
import './AuthForm.css';

interface AuthFormProps {
  mode: AuthMode;
  /** Called once the server has signed the user in (the session store is already updated). */
  onSuccess: (user: SessionUser) => void;
  /** Shown under the submit button: the link or button to the other mode. */
  modeSwitch?: ReactNode;
  /** Focus the email field when shown (a modal marks it for its own focus step instead). */
  autoFocus?: boolean;
}

type Phase = { kind: 'idle' } | { kind: 'submitting' } | { kind: 'error'; mode: AuthMode; field: 'email' | 'password' | null; text: string };

/** Email and password, for login or signup: the one form the /login page and the auth modal share. */
export function AuthForm({ mode, onSuccess, modeSwitch, autoFocus = false }: AuthFormProps) {
  const authenticate = useAuth((s) => s.authenticate);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const emailInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  const id = useId();
  const submitting = phase.kind === 'submitting';
  // An error belongs to the mode it was made in; switching modes starts clean.
  const error = phase.kind === 'error' && phase.mode === mode ? phase : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    const problem = authInputError(mode, email, password);
    if (problem) {
      const field = email.trim() === '' ? 'email' : 'password';
      setPhase({ kind: 'error', mode, field, text: problem });
      (field === 'email' ? emailInput : passwordInput).current?.focus();
      return;
    }
    setPhase({ kind: 'submitting' });
    try {
      const user = await authenticate(mode, { email: email.trim(), password });
      setPhase({ kind: 'idle' });
      onSuccess(user);
    } catch (failure) {
      setPhase({ kind: 'error', mode, field: null, text: authErrorText(failure) });
    }
  };

  const login = mode === 'login';
  return (
    <form className="auth-form" noValidate onSubmit={(event) => void submit(event)} aria-busy={submitting}>
      <label className="auth-form__field" htmlFor={`${id}-email`}>
        Email
      </label>
      <input
        ref={emailInput}
        id={`${id}-email`}
        className="auth-form__input"
        type="email"
        name="email"
        autoComplete="email"
        required
        // Focus on open (the page) or by the modal's own focus step.
        autoFocus={autoFocus}
        data-autofocus
        readOnly={submitting}
        aria-invalid={error?.field === 'email' || undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        value={email}
        onChange={(event) => setEmail(event.target.value)}
      />
      <label className="auth-form__field" htmlFor={`${id}-password`}>
        Password
      </label>
      <input
        ref={passwordInput}
        id={`${id}-password`}
        className="auth-form__input"
        type="password"
        name="password"
        autoComplete={login ? 'current-password' : 'new-password'}
        required
        minLength={login ? undefined : PASSWORD_MIN_LENGTH}
        readOnly={submitting}
        aria-invalid={error?.field === 'password' || undefined}
        aria-describedby={[login ? '' : `${id}-hint`, error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined}
        value={password}
        onChange={(event) => setPassword(event.target.value)}
      />
      {!login && (
        // The server judges how easy the password is to guess, and its refusal says why.
        <p className="auth-form__hint" id={`${id}-hint`}>
          Use {PASSWORD_MIN_LENGTH} or more characters; a few unrelated words work well.
        </p>
      )}
      {error && (
        <p className="auth-form__error" id={`${id}-error`} role="alert">
          {error.text}
        </p>
      )}
      <button type="submit" className="button button--primary auth-form__submit" disabled={submitting}>
        {submitting ? (login ? 'Logging in...' : 'Signing up...') : login ? 'Login' : 'Sign Up'}
      </button>
      {modeSwitch && <div className="auth-form__switch">{modeSwitch}</div>}
    </form>
  );
}
