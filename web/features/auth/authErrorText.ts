import { AUTH_MESSAGES, PASSWORD_MIN_LENGTH } from '../../../shared/schemas/auth.ts';
import { isApiError, isTimeoutError } from '../../lib/ApiError.ts';
import type { AuthMode } from '../../stores/useAuth.ts';

/** Spec section 8, Auth: what the form says when login or signup did not work. */
export function authErrorText(error: unknown): string {
  if (isTimeoutError(error)) return 'Request timed out. Please check your connection and try again.';
  if (!isApiError(error)) return 'Network error. Please check your internet connection and try again.';
  if (error.status === 0) return 'Network error. Please check your internet connection and try again.';
  if (error.status === 409) return AUTH_MESSAGES.emailTaken;
  if (error.code === 'NOT_JSON') return 'Unexpected response from server (not JSON)';
  // A 2xx reply that still said success: false.
  if (error.status >= 200 && error.status < 300) return error.serverError ?? 'Authentication failed';
  return error.serverError ?? `Server error: ${error.status} - ${error.body}`;
}

/** The checks made before anything is sent; null when the form may be submitted. */
export function authInputError(mode: AuthMode, email: string, password: string): string | null {
  if (email.trim() === '') return AUTH_MESSAGES.emailRequired;
  if (password === '') return AUTH_MESSAGES.passwordRequired;
  // The server says the same; checking here saves a round trip for a new password.
  if (mode === 'signup' && password.length < PASSWORD_MIN_LENGTH) return AUTH_MESSAGES.passwordTooShort;
  return null;
}
